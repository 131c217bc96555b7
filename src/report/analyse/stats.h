/* SPDX-License-Identifier: MIT */
/* stats.h: the figures the report gives for one resource of a group.
 * Quantiles are "type 7" (linear between closest ranks, as numpy's and
 * pandas' defaults): with the n known values sorted x[0] <= ... <= x[n-1],
 * q(p) = x[k] + (h - k) (x[k+1] - x[k]) where h = (n - 1) p, k = floor(h).
 * Pure functions, no I/O. */
#ifndef TPMON_REPORT_STATS_H
#define TPMON_REPORT_STATS_H

#include <stddef.h>

struct rp_stats {
	size_t n;		/* known values; the rest are NAN */
	double min, median, p95, max, mean;
};

/* The p-quantile (0 <= p <= 1) of the @n sorted values @x (n >= 1); the
 * recommendations' quantile:Q and the charts across groups use it too. */
double rp_quantile(const double *x, size_t n, double p);

/* The @n values at @v (no NAN among them) sorted, least first: the same
 * order as qsort() by value gives, a byte of their bits at a time when
 * they are many. */
void rp_sort_values(double *v, size_t n);

/* Figures of the known (non-NAN) values among @n in @v.  Reorders @v.
 * With no known value every figure is NAN and s->n is 0. */
void rp_stats_compute(double *v, size_t n, struct rp_stats *s);

#endif
