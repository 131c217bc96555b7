/* SPDX-License-Identifier: MIT */
/* test-report-inputfit.c: --recommend=input's pure parts (issue 45):
 * Theil-Sen's line and Spearman's rho on exact points, an outlier and
 * ties; the median by selection against a sort; a line's request for
 * inputs of 0, small, huge, absurd (1e300), negative and unknown, always
 * within [floor, cap] and never 0 or below. */
#include <math.h>
#include <stdlib.h>
#include "report/sizing/inputfit.h"
#include "report/sizing/sizing.h"
#include "tap.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median by selection equals the sorted middle for @n random values. */
static bool median_right(size_t n, unsigned seed)
{
	double *v = malloc(n * sizeof(double)), *s = malloc(n * sizeof(double)), want, got;
	size_t i;

	srand(seed);
	for (i = 0; i < n; i++)
		v[i] = s[i] = (double)(rand() % 50);	/* many ties */
	qsort(s, n, sizeof(double), cmp);
	want = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	got = rp_median_select(v, n);
	free(v);
	free(s);
	return got == want;
}

static void fits(void)
{
	double x[10], y[10], slope = -1, icpt = -1;
	size_t i;
	int r;

	for (i = 0; i < 10; i++) {
		x[i] = 50.0 * (double)(i + 1);
		y[i] = 2 * x[i] + 100;
	}
	r = rp_theil_sen(x, y, 10, &slope, &icpt);
	ok(r == 0 && slope == 2 && icpt == 100,
	   "Theil-Sen: memory = 2 x input + 100 exactly (%g, %g)", slope, icpt);
	is_double(rp_spearman(x, y, 10), 1, 1e-12, "Spearman: 1 on a rising line");
	y[3] += 5000;
	r = rp_theil_sen(x, y, 10, &slope, &icpt);
	ok(r == 0 && slope == 2 && icpt == 100,
	   "Theil-Sen: one outlier moves nothing (%g, %g)", slope, icpt);
	for (i = 0; i < 10; i++)
		y[i] = 1000 - x[i];
	is_double(rp_spearman(x, y, 10), -1, 1e-12, "Spearman: -1 on a falling line");
	for (i = 0; i < 10; i++)
		y[i] = 7;
	is_double(rp_spearman(x, y, 10), 0, 0, "Spearman: 0 when the peak is constant");
	is_double(rp_spearman(x, y, 1), 0, 0, "Spearman: 0 for one point");
	r = rp_theil_sen(x, x, 1, &slope, &icpt);
	ok(r == 0 && slope == 0 && icpt == 50, "Theil-Sen: one point, slope 0, intercept its y");
	ok(rp_theil_sen(x, y, 0, &slope, &icpt) < 0, "Theil-Sen: no point, -1");
	ok(median_right(1, 1) && median_right(2, 2) && median_right(999, 3) &&
	   median_right(1000, 4), "median by selection = sorted middle (1, 2, 999, 1000 values)");
}

static void requests(void)
{
	struct rp_line l = { true, NULL, 2, 100, 1, 0, 256, 2560, 40 };
	struct rp_line off = l;

	is_int(rp_line_request(&l, 0, 2560, true), 256, "input 0: the floor");
	is_int(rp_line_request(&l, 200, 2560, true), 512, "input 200 MB: 500 rounded to 512");
	is_int(rp_line_request(&l, 1e6, 2560, true), 2560, "input 1 TB: the cap");
	is_int(rp_line_request(&l, 1e300, 2560, true), 2560, "input 1e300 (absurd): the fixed");
	is_int(rp_line_request(&l, -5, 2560, true), 2560, "input -5: the fixed");
	is_int(rp_line_request(&l, NAN, 2560, true), 2560, "input unknown: the fixed");
	is_int(rp_line_request(&l, INFINITY, 2560, true), 2560, "input infinite: the fixed");
	l.margin = 0.1;
	is_int(rp_line_request(&l, 200, 2560, true), 576, "margin 10%%: 550 rounded to 576");
	l.icpt = -1000;
	is_int(rp_line_request(&l, 1, 2560, true), 256, "a negative prediction: the floor");
	off.on = false;
	is_int(rp_line_request(&off, 200, 2560, true), 2560, "a line off: the fixed");
	l = (struct rp_line){ true, NULL, 0.5, 30, 1, 0, 60, 3600, 40 };
	is_int(rp_line_request(&l, 1000, 3600, false), 540, "wall time: 530 s up to 9 min");
	ok(rp_input_mb_usable(0) && !rp_input_mb_usable(1e300) && !rp_input_mb_usable(-1) &&
	   !rp_input_mb_usable(NAN), "usable inputs: 0 yes; 1e300, -1, NAN no");
}

int main(void)
{
	struct rp_strat st;
	char why[160];

	plan(22);
	ok(rp_strat_parse("input", &st, why, sizeof(why)) == 0 && st.s == RP_S_INPUT,
	   "--recommend=input");
	fits();
	requests();
	return done();
}
