/* SPDX-License-Identifier: MIT */
/* stats.c: min, median, p95, max and mean of a resource's values, and
 * the sort they need. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "report/analyse/stats.h"
#include "basic/xmalloc.h"

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

/* Below this many values qsort() is as fast. */
#define RADIX_MIN 256

/* @d's bits turned so that they sort as the numbers do (negative ones
 * reversed, below the positive ones). */
static uint64_t sort_key(double d)
{
	uint64_t k;

	memcpy(&k, &d, sizeof(k));
	return k >> 63 ? ~k : k | (1ULL << 63);
}

static double key_value(uint64_t k)
{
	double d;

	k = k >> 63 ? k & ~(1ULL << 63) : ~k;
	memcpy(&d, &k, sizeof(d));
	return d;
}

/* The keys @k (@n) sorted a byte at a time, the lowest first, through
 * @tmp; the bytes that all keys share are passed over.  Returns where the
 * sorted keys are (@k or @tmp). */
static uint64_t *radix(uint64_t *k, uint64_t *tmp, size_t n)
{
	size_t count[8][256] = { { 0 } }, i;
	int b;

	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++)
			count[b][(k[i] >> (8 * b)) & 0xff]++;
	for (b = 0; b < 8; b++) {
		size_t at = 0, c, *cb = count[b];
		uint64_t *swap;

		if (cb[(k[0] >> (8 * b)) & 0xff] == n)
			continue;
		for (c = 0; c < 256; c++) {
			size_t m = cb[c];

			cb[c] = at;
			at += m;
		}
		for (i = 0; i < n; i++)
			tmp[cb[(k[i] >> (8 * b)) & 0xff]++] = k[i];
		swap = k;
		k = tmp;
		tmp = swap;
	}
	return k;
}

void rp_sort_values(double *v, size_t n)
{
	uint64_t *k, *tmp, *sorted;
	size_t i;

	/* (a -0 keeps its place among the zeros, as qsort() keeps it: rare
	 * enough to leave to it) */
	for (i = 0; i < n && n >= RADIX_MIN; i++)
		if (v[i] == 0 && signbit(v[i]))
			break;
	if (n < RADIX_MIN || i < n) {
		qsort(v, n, sizeof(*v), cmp_double);
		return;
	}
	k = xreallocarray(NULL, n, sizeof(*k));
	tmp = xreallocarray(NULL, n, sizeof(*tmp));
	for (i = 0; i < n; i++)
		k[i] = sort_key(v[i]);
	sorted = radix(k, tmp, n);
	for (i = 0; i < n; i++)
		v[i] = key_value(sorted[i]);
	free(k);
	free(tmp);
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
	rp_sort_values(v, known);
	for (i = 0; i < known; i++)
		sum += v[i];
	s->min = v[0];
	s->max = v[known - 1];
	s->median = rp_quantile(v, known, 0.5);
	s->p95 = rp_quantile(v, known, 0.95);
	s->mean = sum / (double)known;
}
