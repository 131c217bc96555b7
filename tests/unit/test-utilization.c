/* SPDX-License-Identifier: MIT */
/* test-utilization.c: utilization shares and the memory slope on synthetic
 * samples whose answers are known exactly. */
#include <stdlib.h>
#include "tap.h"
#include "measure/utilization.h"

static void steady(void)
{
	struct tp_utilization u;
	struct tp_utilization_figures f;
	int i;

	/* 10 s of 0.5 core on 2 cores, sampled every 0.5 s */
	utilization_init(&u, 2);
	for (i = 1; i <= 20; i++)
		utilization_add(&u, i * 0.5, i * 0.25, 100, true);
	utilization_figures(&u, 10, 5, &f);
	is_double(f.mean, 25, 1e-9, "0.5 core of 2: mean 25 percent");
	is_double(f.over20, 100, 1e-9, "always over 20 percent");
	is_double(f.over40, 0, 1e-9, "never over 40 percent");
	is_double(f.cpu_hours_allotted, 20.0 / 3600, 1e-12, "2 cores x 10 s allotted");
	is_double(f.cpu_hours_unused, 15.0 / 3600, 1e-12, "15 core-seconds unused");
	ok(f.growth_known, "a slope with 10 points in the last half");
	is_double(f.memory_growth, 0, 1e-9, "flat memory: slope 0");
	utilization_free(&u);
}

static void phases(void)
{
	struct tp_utilization u;
	struct tp_utilization_figures f;
	double cpu = 0;
	int i;

	/* 4 s at 1 core of 1, then 4 s idle, 1 s samples; memory grows
	 * 3 MB/s over the whole run */
	utilization_init(&u, 1);
	for (i = 1; i <= 8; i++) {
		cpu += i <= 4 ? 1 : 0;
		utilization_add(&u, i, cpu, 3.0 * i, true);
	}
	utilization_figures(&u, 8, cpu, &f);
	is_double(f.at100, 50, 1e-9, "at 100 percent half the time");
	is_double(f.over80, 50, 1e-9, "over 80 percent half the time");
	is_double(f.mean, 50, 1e-9, "mean 50 percent");
	is_double(f.memory_growth, 180, 1e-6, "3 MB/s is 180 MB/min");
	utilization_free(&u);
}

static void exiting_left_out(void)
{
	struct tp_utilization u;
	struct tp_utilization_figures f;
	int i;

	utilization_init(&u, 1);
	for (i = 1; i <= 10; i++)
		utilization_add(&u, i, 0, 50, true);
	utilization_add(&u, 10.5, 0, 3, false);	/* a process half freed */
	utilization_figures(&u, 10.5, 0, &f);
	is_double(f.memory_growth, 0, 1e-9, "a sample taken while exiting is left out");
	utilization_free(&u);
}

static void short_tail(void)
{
	struct tp_utilization u;
	struct tp_utilization_figures f;

	/* idle for 2 s, then 2 ms at the end holding 1 ms of final CPU */
	utilization_init(&u, 1);
	utilization_add(&u, 1, 0, 1, true);
	utilization_add(&u, 2, 0, 1, true);
	utilization_figures(&u, 2.002, 0.001, &f);
	is_double(f.over20, 0, 1e-9, "a short last span joins the one before: no burst");
	utilization_free(&u);
}

static void thinned(void)
{
	struct tp_utilization u;
	struct tp_utilization_figures f;
	int i, n = TP_USAGE_POINTS * 5;

	/* more points than kept: the slope survives the thinning */
	utilization_init(&u, 1);
	for (i = 1; i <= n; i++)
		utilization_add(&u, i * 0.1, 0, 1000 + 0.5 * i * 0.1, true);
	ok(u.n <= TP_USAGE_POINTS, "at most TP_USAGE_POINTS points kept");
	utilization_figures(&u, n * 0.1, 0, &f);
	is_double(f.memory_growth, 30, 1e-6, "0.5 MB/s is 30 MB/min after thinning");
	utilization_free(&u);
}

int main(void)
{
	double s;
	const double x[] = { 1, 2, 3 }, y[] = { 2, 4, 6 }, same[] = { 1, 1, 1 };

	plan(17);
	steady();
	phases();
	exiting_left_out();
	short_tail();
	thinned();
	ok(utilization_slope(x, y, 3, 0, &s) && s == 2, "slope of y = 2x is 2");
	ok(!utilization_slope(same, y, 3, 0, &s), "no slope when every x is the same");
	return done();
}
