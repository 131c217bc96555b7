/* SPDX-License-Identifier: MIT */
/* units.h: numbers with units ("512M", "1.5h", "2GiB") converted to the
 * summary unit of a resource kind.  Pure functions, no I/O. */
#ifndef TPMON_UNITS_H
#define TPMON_UNITS_H

#include <stddef.h>
#include "basic/figtable.h"

/* Largest value accepted, in the summary unit: far above any real limit,
 * far below where doubles stop holding integers exactly. */
#define UNITS_MAX 1e15

/* What the functions below return besides 0: a bad text (-1), a finite
 * value above UNITS_MAX or past a double's range, and a positive value
 * that rounds to 0 (a double's underflow, 1e-310 K) or, for a count, a
 * fraction below 1.  The latter two say so in @why as well. */
enum {
	UNITS_BAD = -1,
	UNITS_TOO_LARGE = -2,
	UNITS_TOO_SMALL = -3
};

/* Parse @text as a value of @kind and store it in @out in the summary unit
 * (s for TIME, MB for SIZE, cores, count).  A bare number is already in the
 * summary unit.  Rejects empty text, trailing garbage, NaN/inf, negative
 * values, overflow, a unit that does not fit @kind, and non-integers for
 * TP_UNIT_COUNT.  Returns 0, or one of the codes above (all < 0) with a
 * short reason in @why; @out is then left alone. */
int units_parse(enum tp_unit_kind kind, const char *text, double *out,
		char *why, size_t whylen);

/* Same for a number with a separate unit string (JSON [1, "GB"]); @unit may
 * be NULL or "" for the summary unit. */
int units_convert(enum tp_unit_kind kind, double value, const char *unit,
		  double *out, char *why, size_t whylen);

/* Seconds from "1.5", "250ms", "2m" (used by -i and --kill-grace). */
int units_parse_seconds(const char *text, double *out, char *why, size_t whylen);

#endif
