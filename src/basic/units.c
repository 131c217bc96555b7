/* SPDX-License-Identifier: MIT */
/* units.c: numbers with units ("512M", "1.5h", "2GiB") converted to the
 * summary unit of a resource kind (MB, seconds, cores, counts).  Pure: no
 * I/O, no allocation, no locale beyond the C one. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "basic/units.h"

/* Longest unit name kept for messages and lookup. */
#define UNIT_NAME_MAX 16

struct unit_def {
	const char *name;	/* lower case; matched case-insensitively */
	double factor;		/* summary units per one of this unit */
};

/* Sizes are binary whatever the spelling: 1K = 1KB = 1KiB = 1024 bytes. */
static const struct unit_def size_units[] = {
	{ "k", 1.0 / 1024 }, { "kb", 1.0 / 1024 }, { "kib", 1.0 / 1024 },
	{ "m", 1 }, { "mb", 1 }, { "mib", 1 },
	{ "g", 1024 }, { "gb", 1024 }, { "gib", 1024 },
	{ "t", 1048576 }, { "tb", 1048576 }, { "tib", 1048576 },
	{ NULL, 0 }
};

static const struct unit_def time_units[] = {
	{ "ms", 0.001 }, { "s", 1 }, { "m", 60 }, { "min", 60 },
	{ "h", 3600 }, { "d", 86400 },
	{ NULL, 0 }
};

static void set_why(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!why || whylen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

/* Copy at most UNIT_NAME_MAX bytes of @s into @dst, printable ASCII only,
 * so that a hostile unit cannot break a one-line message. */
static void sanitize_unit(char dst[UNIT_NAME_MAX + 4], const char *s)
{
	size_t i;

	for (i = 0; i < UNIT_NAME_MAX && s[i]; i++)
		dst[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	if (s[i])
		dst[i++] = '.', dst[i++] = '.', dst[i++] = '.';
	dst[i] = '\0';
}

static const struct unit_def *find_unit(const struct unit_def *table,
					const char *name)
{
	for (; table->name; table++)
		if (strcasecmp(table->name, name) == 0)
			return table;
	return NULL;
}

/* Units of a kind: NULL for kinds that take none. */
static const struct unit_def *kind_units(enum tp_unit_kind kind)
{
	switch (kind) {
	case TP_UNIT_TIME:
		return time_units;
	case TP_UNIT_SIZE:
		return size_units;
	case TP_UNIT_CORES:
	case TP_UNIT_COUNT:
		break;
	}
	return NULL;
}

static const char *kind_noun(enum tp_unit_kind kind)
{
	switch (kind) {
	case TP_UNIT_TIME:
		return "a time";
	case TP_UNIT_SIZE:
		return "a size";
	case TP_UNIT_CORES:
		return "cores";
	case TP_UNIT_COUNT:
		return "a count";
	}
	return "a value";
}

/* Why @unit does not fit @kind: it belongs to another kind, or to none. */
static void explain_bad_unit(enum tp_unit_kind kind, const char *unit,
			     char *why, size_t whylen)
{
	char shown[UNIT_NAME_MAX + 4];

	sanitize_unit(shown, unit);
	if (!kind_units(kind))
		set_why(why, whylen, "%s takes no unit, got \"%s\"",
			kind_noun(kind), shown);
	else if (find_unit(size_units, unit) || find_unit(time_units, unit))
		set_why(why, whylen, "unit \"%s\" does not fit %s", shown,
			kind_noun(kind));
	else
		set_why(why, whylen, "unknown unit \"%s\"", shown);
}

int units_convert(enum tp_unit_kind kind, double value, const char *unit,
		  double *out, char *why, size_t whylen)
{
	double factor = 1;

	if (!isfinite(value)) {
		set_why(why, whylen, "not a finite number");
		return -1;
	}
	if (signbit(value)) {
		set_why(why, whylen, "must not be negative");
		return -1;
	}
	if (unit && unit[0]) {
		const struct unit_def *table = kind_units(kind);
		const struct unit_def *u = table ? find_unit(table, unit) : NULL;

		if (!u) {
			explain_bad_unit(kind, unit, why, whylen);
			return -1;
		}
		factor = u->factor;
	}
	if (value > 0 && (value * factor == 0 ||
			  (kind == TP_UNIT_COUNT && value < 1))) {
		set_why(why, whylen, "too small");
		return UNITS_TOO_SMALL;
	}
	value *= factor;
	if (!(value <= UNITS_MAX)) {
		set_why(why, whylen, "too large");
		return UNITS_TOO_LARGE;
	}
	/* value <= UNITS_MAX fits a long long exactly */
	if (kind == TP_UNIT_COUNT && value != (double)(long long)value) {
		set_why(why, whylen, "must be a whole number");
		return -1;
	}
	*out = value;
	return 0;
}

static size_t scan_digits(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* Length of the plain decimal number at @s ([+-]d[.d][e[+-]d], at least one
 * mantissa digit), or 0.  Stricter than strtod: no hex, no inf/nan. */
static size_t scan_number(const char *s)
{
	size_t n = 0, mant;

	if (s[n] == '+' || s[n] == '-')
		n++;
	mant = scan_digits(s + n);
	n += mant;
	if (s[n] == '.') {
		size_t frac = scan_digits(s + n + 1);

		mant += frac;
		n += 1 + frac;
	}
	if (mant == 0)
		return 0;
	if (s[n] == 'e' || s[n] == 'E') {
		size_t e = n + 1, exp;

		if (s[e] == '+' || s[e] == '-')
			e++;
		exp = scan_digits(s + e);
		if (exp)
			n = e + exp;
	}
	return n;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

int units_parse(enum tp_unit_kind kind, const char *text, double *out,
		char *why, size_t whylen)
{
	char unit[UNIT_NAME_MAX + 2];
	const char *p = skip_space(text);
	size_t n = scan_number(p), ulen = 0;
	char *end;
	double v;

	if (*p == '\0') {
		set_why(why, whylen, "empty value");
		return -1;
	}
	if (n == 0) {
		set_why(why, whylen, "not a number");
		return -1;
	}
	errno = 0;
	v = strtod(p, &end);
	if (end != p + n) {
		set_why(why, whylen, "not a number");
		return -1;
	}
	if (errno == ERANGE) {
		/* past a double's range: 1e400 too large, 1e-400 (not 0)
		 * too small */
		set_why(why, whylen, "out of range");
		if (*p == '-')
			return UNITS_BAD;
		return fabs(v) > 1 ? UNITS_TOO_LARGE : UNITS_TOO_SMALL;
	}
	p += n;
	while (*p == ' ' || *p == '\t')	/* "2 GiB", not "2\nGiB" */
		p++;
	while (isalpha((unsigned char)p[ulen]))
		ulen++;
	if (*skip_space(p + ulen) != '\0') {
		set_why(why, whylen, "not a number");
		return -1;
	}
	if (ulen > UNIT_NAME_MAX)
		ulen = UNIT_NAME_MAX + 1;	/* unknown anyway; shown cut */
	memcpy(unit, p, ulen);
	unit[ulen] = '\0';
	return units_convert(kind, v, unit, out, why, whylen);
}

int units_parse_seconds(const char *text, double *out, char *why, size_t whylen)
{
	return units_parse(TP_UNIT_TIME, text, out, why, whylen);
}
