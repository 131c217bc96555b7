/* SPDX-License-Identifier: MIT */
/* watchdog.h: holding the task to its limits: which limit a set of current
 * figures breaks, how soon to look again, and signalling the whole tree. */
#ifndef TPMON_WATCHDOG_H
#define TPMON_WATCHDOG_H

#include <stdbool.h>
#include "limitset.h"
#include "ptree.h"

/* Sliding window of (time, cpu) points for the cores figures. */
#define TP_CPU_WINDOW_POINTS 256
struct tp_cpu_window {
	double t[TP_CPU_WINDOW_POINTS], cpu[TP_CPU_WINDOW_POINTS];
	unsigned head, n;
};

void cpuwin_add(struct tp_cpu_window *w, double t, double cpu);
/* Average cores over the last @span s ending at the newest point; false
 * while less than @span s of points exist. */
bool cpuwin_rate(const struct tp_cpu_window *w, double span, double *cores);

/* resource_monitor's figure for a cores limit, as it judges it
 * (resource_monitor.c, peak_cores() and rmsummary_check_limits()): the CPU
 * time of the last 180 s over 180 s (a task younger than that counts as
 * idle before it started), less an allowance of 0.25 core.  Adds the point
 * (@t, @cpu) to @w when it is at least 1 s after the newest one. */
double cpuwin_cctools_cores(struct tp_cpu_window *w, double t, double cpu);
#define TP_CCTOOLS_CORES_WINDOW 180.0
#define TP_CCTOOLS_CORES_ALLOWANCE 0.25

/* First resource of @cur that is over its limit in @l, or -1. */
int watchdog_check(const struct tp_limits *l, const double *cur, const bool *known);

/* How long to wait before the next sample: @delay, shortened when memory
 * is close to a limit so that a task growing fast is caught in time. */
double watchdog_next_delay(const struct tp_limits *l, const double *cur, double delay);


/* Window over which the cores limit is judged, s. */
#define TP_CORES_LIMIT_WINDOW 5.0
/* Window of the reported cores peak, s. */
#define TP_CORES_PEAK_WINDOW 1.0

#endif
