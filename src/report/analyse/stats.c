/* SPDX-License-Identifier: MIT */
/* stats.c: min, median, p95, max and mean of a resource's values. */
#include <math.h>
#include <stdlib.h>
#include "report/analyse/stats.h"

double rp_quantile(const double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t k = (size_t)floor(h);

	if (k + 1 >= n)
		return x[n - 1];
	return x[k] + (h - (double)k) * (x[k + 1] - x[k]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void rp_stats_compute(double *v, size_t n, struct rp_stats *s)
{
	size_t i, known = 0;
	double sum = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[known++] = v[i];
	s->n = known;
	if (known == 0) {
		s->min = s->median = s->p95 = s->max = s->mean = NAN;
		return;
	}
	qsort(v, known, sizeof(*v), cmp_double);
	for (i = 0; i < known; i++)
		sum += v[i];
	s->min = v[0];
	s->max = v[known - 1];
	s->median = rp_quantile(v, known, 0.5);
	s->p95 = rp_quantile(v, known, 0.95);
	s->mean = sum / (double)known;
}
