/* SPDX-License-Identifier: MIT */
/* utilization.h: how well a task used what it was given: utilization of the
 * reference cores over time, cpu-hours, and the growth of its memory.
 * Pure arithmetic on the samples: no I/O. */
#ifndef TPMON_UTILIZATION_H
#define TPMON_UTILIZATION_H

#include <stdbool.h>

/* Utilization is judged over spans of at least this many seconds: the
 * CPU time of live processes comes in 10 ms clock ticks, so over 1 s a
 * core's figure is within 1%. */
#define TP_USAGE_SPAN 1.0
/* Memory points kept for the fit; past it every other one is dropped
 * and points are then kept at half the rate. */
#define TP_USAGE_POINTS 2048

struct tp_utilization {
	double ref;			/* reference cores, > 0 */
	double span_t, span_cpu;	/* start of the open span */
	double over[4];			/* s with utilization > 20, 40, 80 %, >= 99 % */
	double covered;			/* s in closed spans */
	double last_t, last_cpu;
	double prev_dt, prev_cpu;	/* the last closed span */
	double *mt, *mv;		/* memory points (s, MB), owned */
	unsigned n, stride, skipped;
};

struct tp_utilization_figures {
	double ref;			/* reference cores */
	double mean;			/* % of ref over the run: cpu / (wall * ref) */
	double over20, over40, over80, at100;	/* % of the wall time */
	double cpu_hours_allotted, cpu_hours_unused;
	double memory_growth;		/* MB/min, least squares over the last half */
	bool growth_known;		/* at least 3 points in the last half */
};

/* Start with reference @ref cores (the declared limit, or the machine's
 * CPUs). */
void utilization_init(struct tp_utilization *u, double ref);
void utilization_free(struct tp_utilization *u);
/* A sample at @t s from the start: @cpu s of CPU so far, @mem MB.  With
 * @mem_ok false (a process was exiting, its memory half freed) the
 * memory is left out of the fit. */
void utilization_add(struct tp_utilization *u, double t, double cpu, double mem, bool mem_ok);
/* The figures at the end @t of the run with @cpu s of CPU in all. */
void utilization_figures(const struct tp_utilization *u, double t, double cpu, struct tp_utilization_figures *f);
/* Least-squares slope of @y over @x for the @n points with x >= @from;
 * false when fewer than 3 such points or they share one x. */
bool utilization_slope(const double *x, const double *y, unsigned n, double from, double *slope);

#endif
