/* SPDX-License-Identifier: MIT */
/* ratewin.h: rates over a sliding window of (time, counter) points: the
 * cores of the CPU time, the bandwidth of the bytes sent and received. */
#ifndef TPMON_RATEWIN_H
#define TPMON_RATEWIN_H

#include <stdbool.h>

/* Sliding window of (time, counter) points. */
#define TP_RATEWIN_POINTS 256
struct tp_ratewin {
	double t[TP_RATEWIN_POINTS], cpu[TP_RATEWIN_POINTS];
	unsigned head, n;
};

void ratewin_add(struct tp_ratewin *w, double t, double cpu);
/* Average cores over the last @span s ending at the newest point; false
 * while less than @span s of points exist. */
bool ratewin_rate(const struct tp_ratewin *w, double span, double *cores);

/* resource_monitor's figure for a cores limit, as it judges it
 * (resource_monitor.c, peak_cores() and rmsummary_check_limits()): the CPU
 * time of the last 180 s over 180 s (a task younger than that counts as
 * idle before it started), less an allowance of 0.25 core.  Adds the point
 * (@t, @cpu) to @w when it is at least 1 s after the newest one. */
double ratewin_cctools_cores(struct tp_ratewin *w, double t, double cpu);
#define TP_CCTOOLS_CORES_WINDOW 180.0
#define TP_CCTOOLS_CORES_ALLOWANCE 0.25

/* Window over which the cores limit is judged, s. */
#define TP_CORES_LIMIT_WINDOW 5.0
/* Window of the reported cores peak, s. */
#define TP_CORES_PEAK_WINDOW 1.0

#endif
