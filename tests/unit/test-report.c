/* SPDX-License-Identifier: MIT */
/* test-report.c: unit tests of the report's statistics (stats.c) and of
 * its copy of cctools' allocation algorithm (firstalloc.c), on cases computed
 * by hand: ties, buckets below 1, the cap at the top value, --max, the
 * truncated top value, tasks that did not end normally; and the sort of
 * values against qsort(). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyse/firstalloc.h"
#include "report/analyse/analysis.h"
#include "report/analyse/stats.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_stats(void)
{
	double v[] = { 5, NAN, 1, 4, 2, 3 }, one[] = { 7 }, none[] = { NAN };
	double twenty[20];
	struct rp_stats s;
	int i;

	rp_stats_compute(v, N(v), &s);
	is_int((long long)s.n, 5, "stats: unknown values left out");
	is_double(s.min, 1, 0, "stats: min");
	is_double(s.max, 5, 0, "stats: max");
	is_double(s.median, 3, 1e-12, "stats: median of 5 values is the middle one");
	is_double(s.p95, 4.8, 1e-12, "stats: p95 = x[3] + 0.8 (x[4] - x[3])");
	is_double(s.mean, 3, 1e-12, "stats: mean");
	rp_stats_compute(one, 1, &s);
	ok(s.median == 7 && s.p95 == 7 && s.mean == 7, "stats: one value is every figure");
	rp_stats_compute(none, 1, &s);
	ok(s.n == 0 && isnan(s.median) && isnan(s.max), "stats: no value gives NAN");
	for (i = 0; i < 20; i++)
		twenty[i] = 20 - i;	/* 1..20 reversed */
	rp_stats_compute(twenty, 20, &s);
	is_double(s.median, 10.5, 1e-12, "stats: even count: median between the middle two");
	is_double(s.p95, 19.05, 1e-12, "stats: p95 of 1..20 is 19.05 (numpy's default)");
}

struct acase {
	const char *name;
	double bucket, max;
	size_t n;
	struct rp_sample s[12];
	int64_t want[RP_MODE__COUNT];	/* throughput, waste, max seen */
};

#define T(v, w) { v, w, true }
#define X(v, w) { v, w, false }	/* not ended normally */

static const struct acase cases[] = {
	{ "memory, two buckets, small one best", 250, -1, 4,
	  { T(100, 10), T(100, 10), T(400, 10), T(400, 10) }, { 250, 250, 500 } },
	{ "cores, exact tie in both modes goes to the smaller bucket", 1, -1, 2,
	  { T(1, 4), T(2, 4) }, { 1, 1, 2 } },
	{ "memory 0 is a bucket below 1: skipped, not chosen", 250, -1, 4,
	  { T(0, 10), T(0, 10), T(0, 10), T(300, 10) }, { 500, 500, 500 } },
	{ "memory, big tasks dominate: the big bucket", 250, -1, 10,
	  { T(100, 10), T(900, 10), T(900, 10), T(900, 10), T(900, 10), T(900, 10),
	    T(900, 10), T(900, 10), T(900, 10), T(900, 10) }, { 1000, 1000, 1000 } },
	{ "same with --max memory=300: top and a_m are 300", 250, 300, 10,
	  { T(100, 10), T(900, 10), T(900, 10), T(900, 10), T(900, 10), T(900, 10),
	    T(900, 10), T(900, 10), T(900, 10), T(900, 10) }, { 250, 250, 300 } },
	{ "cores: the 3-core bucket wins both modes", 1, -1, 4,
	  { T(0.5, 1), T(3, 10), T(3, 10), T(3, 10) }, { 3, 3, 3 } },
	{ "--max cores=2 caps throughput's winner 3 at the top value 2", 1, 2, 4,
	  { T(0.5, 1), T(3, 10), T(3, 10), T(3, 10) }, { 2, 1, 2 } },
	{ "top value 0.111 truncates to 0", 1, -1, 1,
	  { T(0.111, 1) }, { 0, 0, 1 } },
	{ "a task stopped at a limit sets the top, not the histogram", 250, -1, 3,
	  { T(100, 10), T(100, 10), X(2000, 10) }, { 250, 250, 250 } },
	{ "no task ended normally: no allocation", 250, -1, 2,
	  { X(100, 10), X(300, 10) }, { -1, -1, -1 } },
	{ "no value at all: no allocation", 250, -1, 2,
	  { T(NAN, 10), T(NAN, 10) }, { -1, -1, -1 } },
	{ "unknown wall time: not in the histogram", 250, -1, 2,
	  { T(100, NAN), T(600, 10) }, { 750, 750, 750 } },
};

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* rp_sort_values() against qsort(): @n values of the kind @kind, the
 * same bits in the same order. */
static void sort_case(size_t n, int kind, const char *what)
{
	double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
	uint64_t x = 88172645463325252ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		switch (kind) {
		case 0:		/* spread over many magnitudes */
			a[i] = (double)(x >> 11) * 0x1p-53 * pow(10, (double)(x % 13) - 3);
			break;
		case 1:		/* few values, many ties, zeros */
			a[i] = (double)(x % 5) * 250;
			break;
		case 2:		/* negative ones (and a -0 among them: 4) */
		case 4:
			a[i] = ((double)(x % 2001) - 1000) / 7;
			if (kind == 4 && i == n / 2)
				a[i] = -0.0;
			break;
		default:	/* one value, and the largest and least finite ones */
			a[i] = i == 1 ? 1.7976931348623157e308 : i == 2 ? 4.9e-324 : 3.5;
		}
	}
	memcpy(b, a, n * sizeof(double));
	rp_sort_values(a, n);
	qsort(b, n, sizeof(double), by_value);
	ok(memcmp(a, b, n * sizeof(double)) == 0, "%s", what);
	free(a);
	free(b);
}

static void test_sort(void)
{
	sort_case(100000, 0, "sort: 100,000 values of many magnitudes, as qsort()");
	sort_case(100000, 1, "sort: 100,000 values of five kinds, as qsort()");
	sort_case(5000, 2, "sort: negative values, as qsort()");
	sort_case(5000, 4, "sort: negative values and a -0, as qsort()");
	sort_case(1000, 3, "sort: one value, the largest and the least, as qsort()");
	sort_case(100, 0, "sort: 100 values (below the radix sort), as qsort()");
}

static void test_alloc(void)
{
	size_t i;
	int m;

	for (i = 0; i < N(cases); i++) {
		int64_t out[RP_MODE__COUNT];

		rp_alloc_compute(cases[i].s, cases[i].n, cases[i].bucket,
				 cases[i].max, out);
		for (m = 0; m < RP_MODE__COUNT; m++)
			is_int(out[m], cases[i].want[m], "alloc %s: %s",
			       rp_mode_label(m), cases[i].name);
	}
	is_double(rp_alloc_round_up(250, 250), 250, 0, "round up: a bucket end stays");
	is_double(rp_alloc_round_up(250.5, 250), 500, 0, "round up: past the end, next bucket");
	is_double(rp_alloc_round_up(0, 250), 0, 0, "round up: 0 is its own bucket");
}

static void test_fit(void)
{
	struct rp_sample s[] = { T(100, 10), T(200, 30), T(300, 10), T(NAN, 5) };
	struct rp_fit f = rp_fit_compute(s, N(s), 200);

	is_double(f.share, 2.0 / 3, 1e-12, "fit: 2 of the 3 known tasks fit 200");
	/* used 100*10 + 200*30 = 7000 of 200*10 + 200*30 = 8000 */
	is_double(f.waste, 1 - 7000.0 / 8000, 1e-12, "fit: waste is the unused share");
	f = rp_fit_compute(s, N(s), -1);
	ok(isnan(f.share) && isnan(f.waste), "fit: no allocation, no figures");
}

int main(void)
{
	plan(10 + 6 + 3 * 12 + 3 + 3);
	test_stats();
	test_sort();
	test_alloc();
	test_fit();
	return done();
}
