/* SPDX-License-Identifier: MIT */
/* endnotes.h: advice from a finished run's summary, as jobstats gives it:
 * notes on resources held idle or contended (one table of thresholds,
 * documented in the man page), and what to ask for on a retry when the
 * cause of the end names a resource.  Pure functions of the summary and
 * the declared resources (-L, -l). */
#ifndef TPMON_ENDNOTES_H
#define TPMON_ENDNOTES_H

#include <stdbool.h>
#include <stddef.h>
#include "config/limitset.h"
#include "measure/figures.h"

#define TP_NOTES_MAX 12

struct tp_note {
	const char *code;	/* "cores_idle", ... */
	char text[256];
};

/* The notes of @r (declared resources @declared) into @out; how many. */
size_t endnotes_compute(const struct tp_summary *r, const struct tp_limits *declared,
			struct tp_note out[TP_NOTES_MAX]);

/* What to ask for next time. */
struct tp_retry {
	enum tp_res resource;	/* TP_RES_MEMORY or TP_RES_WALL_TIME */
	double value;		/* in its summary unit, rounded */
};

/* The retry for @r's end: true and @out filled when the cause names a
 * resource (an OOM kill or memory limit: memory at 1.5 times the peak
 * seen; a wall-time limit: 1.5 times the limit). */
bool endnotes_retry(const struct tp_summary *r, const struct tp_limits *declared,
		    struct tp_retry *out);

#endif
