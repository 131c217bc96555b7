/* SPDX-License-Identifier: MIT */
/* inputfit.h: a robust line through (input size, peak) points and the
 * rank correlation that says whether there is one: Theil-Sen's slope
 * (the median of the pairwise slopes) and intercept (the median of the
 * residuals), Spearman's rho.  Pure functions, no I/O. */
#ifndef TPMON_REPORT_INPUTFIT_H
#define TPMON_REPORT_INPUTFIT_H

#include <stddef.h>

/* The line y = slope * x + icpt through the @n points (@x, @y) (finite
 * values), by Theil-Sen: the median of the slopes of the pairs with
 * different x, then the median of y - slope * x.  With no such pair the
 * slope is 0.  Returns 0, or -1 when @n is 0. */
int rp_theil_sen(const double *x, const double *y, size_t n, double *slope, double *icpt);

/* Spearman's rank correlation of the @n points (ties get their mean
 * rank), in [-1, 1]; 0 when either coordinate is constant or @n < 2. */
double rp_spearman(const double *x, const double *y, size_t n);

/* The median of the @n values @v (n >= 1), which it reorders. */
double rp_median_select(double *v, size_t n);

#endif
