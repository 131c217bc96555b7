/* SPDX-License-Identifier: MIT */
/* utilization.c: utilization shares over spans of at least TP_USAGE_SPAN
 * seconds, and the memory slope fitted by least squares, as prmon fits
 * it to flag leaks.  The memory points are thinned out by halves, so a
 * run of days keeps at most TP_USAGE_POINTS of them. */
#include <stdlib.h>
#include <string.h>
#include "measure/utilization.h"
#include "basic/xmalloc.h"

static const double thresholds[4] = { 0.2, 0.4, 0.8, 0.99 };

void utilization_init(struct tp_utilization *u, double ref)
{
	memset(u, 0, sizeof(*u));
	u->ref = ref > 0 ? ref : 1;
	u->mt = xcalloc(TP_USAGE_POINTS, sizeof(*u->mt));
	u->mv = xcalloc(TP_USAGE_POINTS, sizeof(*u->mv));
	u->stride = 1;
}

void utilization_free(struct tp_utilization *u)
{
	free(u->mt);
	free(u->mv);
	u->mt = u->mv = NULL;
}

/* Add (@sign 1) or take back (-1) a span of @dt s in which @cpu s of
 * CPU were used to the shares. */
static void add_span(double *over, double ref, double dt, double cpu, double sign)
{
	double util = cpu / dt / ref;
	unsigned i;

	for (i = 0; i < 4; i++)
		if (i == 3 ? util >= thresholds[i] : util > thresholds[i])
			over[i] += sign * dt;
}

static void add_point(struct tp_utilization *u, double t, double mem)
{
	if (++u->skipped < u->stride)
		return;
	u->skipped = 0;
	if (u->n == TP_USAGE_POINTS) {
		unsigned i;

		for (i = 0; i < u->n / 2; i++) {
			u->mt[i] = u->mt[2 * i + 1];
			u->mv[i] = u->mv[2 * i + 1];
		}
		u->n /= 2;
		u->stride *= 2;
	}
	u->mt[u->n] = t;
	u->mv[u->n] = mem;
	u->n++;
}

void utilization_add(struct tp_utilization *u, double t, double cpu, double mem, bool mem_ok)
{
	if (t < u->last_t)
		return;
	u->last_t = t;
	u->last_cpu = cpu;
	if (t - u->span_t >= TP_USAGE_SPAN) {
		add_span(u->over, u->ref, t - u->span_t, cpu - u->span_cpu, 1);
		u->covered += t - u->span_t;
		u->prev_dt = t - u->span_t;
		u->prev_cpu = cpu - u->span_cpu;
		u->span_t = t;
		u->span_cpu = cpu;
	}
	if (mem_ok)
		add_point(u, t, mem);
}

bool utilization_slope(const double *x, const double *y, unsigned n, double from, double *slope)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0, d;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (x[i] < from)
			continue;
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
		k++;
	}
	if (k < 3)
		return false;
	d = k * sxx - sx * sx;
	if (d <= 1e-12 * k * sxx)
		return false;
	*slope = (k * sxy - sx * sy) / d;
	return true;
}

void utilization_figures(const struct tp_utilization *u, double t, double cpu, struct tp_utilization_figures *f)
{
	double over[4], covered = u->covered, slope;

	memset(f, 0, sizeof(*f));
	memcpy(over, u->over, sizeof(over));
	/* the open span, to the end of the run; one shorter than a span
	 * joins the last closed one (a few ms holding a process's final
	 * CPU time would otherwise count as a burst) */
	if (t > u->span_t) {
		double dt = t - u->span_t, dcpu = cpu - u->span_cpu;

		if (dt < TP_USAGE_SPAN && u->prev_dt > 0) {
			add_span(over, u->ref, u->prev_dt, u->prev_cpu, -1);
			dt += u->prev_dt;
			dcpu += u->prev_cpu;
		}
		add_span(over, u->ref, dt, dcpu, 1);
		covered += t - u->span_t;
	}
	f->ref = u->ref;
	f->mean = t > 0 ? 100.0 * cpu / (t * u->ref) : 0;
	if (covered > 0) {
		f->over20 = 100.0 * over[0] / covered;
		f->over40 = 100.0 * over[1] / covered;
		f->over80 = 100.0 * over[2] / covered;
		f->at100 = 100.0 * over[3] / covered;
	}
	f->cpu_hours_allotted = u->ref * t / 3600.0;
	f->cpu_hours_unused = f->cpu_hours_allotted - cpu / 3600.0;
	if (f->cpu_hours_unused < 0)
		f->cpu_hours_unused = 0;
	f->growth_known = utilization_slope(u->mt, u->mv, u->n, t / 2, &slope);
	if (f->growth_known)
		f->memory_growth = slope * 60.0 + 0.0;	/* never -0 */
}
