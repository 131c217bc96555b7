/* SPDX-License-Identifier: MIT */
/* runsum.c: the run's totals for the page's and the terminal's opening
 * lines, the usage of one task in core hours and memory GB hours, and
 * the memory a group's allocation leaves unused. */
#include <math.h>
#include <string.h>
#include "report/analyse/runsum.h"

struct rp_usage rp_task_usage(const struct rp_task *t)
{
	struct rp_usage u = { 0, 0 };
	double w = t->v[RP_WALL_TIME];

	if (isnan(w) || w < 0)
		return u;
	if (!isnan(t->v[RP_CPU_TIME]))
		u.core_h = t->v[RP_CPU_TIME] / 3600;
	else if (!isnan(t->v[RP_CORES]))
		u.core_h = t->v[RP_CORES] * w / 3600;
	if (!isnan(t->v[RP_MEMORY]))
		u.mem_gbh = t->v[RP_MEMORY] / 1024 * w / 3600;
	return u;
}

/* What an engine allocated @t (cores and memory x wall time) into @a. */
static void add_alloc(const struct rp_task *t, struct rp_usage *a)
{
	double w = t->v[RP_WALL_TIME];

	if (isnan(w) || w < 0)
		return;
	if (!isnan(t->given[RP_G_CORES]))
		a->core_h = (isnan(a->core_h) ? 0 : a->core_h) + t->given[RP_G_CORES] * w / 3600;
	if (!isnan(t->given[RP_G_MEMORY]))
		a->mem_gbh = (isnan(a->mem_gbh) ? 0 : a->mem_gbh) +
			     t->given[RP_G_MEMORY] / 1024 * w / 3600;
}

double rp_group_waste_gbh(const struct rp_store *st, const struct rp_cat *c)
{
	double alloc = (double)c->alloc[RP_MAX_SEEN][RP_A_MEMORY], w = 0;
	size_t i;

	for (i = 0; alloc > 0 && i < c->group->n; i++) {
		const struct rp_task *t = &st->tasks[c->group->idx[i]];
		double m = t->v[RP_MEMORY], s = t->v[RP_WALL_TIME];

		if (t->normal && m <= alloc && s > 0)
			w += (alloc - m) / 1024 * s / 3600;
	}
	return w;
}

size_t rp_runsum_failed(const struct rp_store *st, const struct rp_cat *c, size_t n,
			size_t max, void (*fn)(void *ctx, const struct rp_cat *c,
					       const struct rp_task *t), void *ctx)
{
	size_t i, j, seen = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < c[i].group->n; j++) {
			const struct rp_task *t = &st->tasks[c[i].group->idx[j]];

			if (t->end != RP_FAILED && t->end != RP_EXHAUSTED)
				continue;
			if (seen++ < max)
				fn(ctx, &c[i], t);
		}
	return seen;
}

void rp_runsum_compute(const struct rp_store *st, const struct rp_cat *c, size_t n,
		       struct rp_runsum *out)
{
	size_t i, j;

	memset(out, 0, sizeof(*out));
	out->alloc.core_h = out->alloc.mem_gbh = NAN;
	out->first = out->last = NAN;
	for (i = 0; i < n; i++) {
		out->tasks += c[i].tasks;
		out->succeeded += c[i].succeeded;
		out->failed += c[i].failed;
		out->exhausted += c[i].exhausted;
		out->running += c[i].running;
		out->notes += c[i].notes;
		for (j = 0; j < c[i].group->n; j++) {
			const struct rp_task *t = &st->tasks[c[i].group->idx[j]];
			struct rp_usage u = rp_task_usage(t);

			out->used.core_h += u.core_h;
			out->used.mem_gbh += u.mem_gbh;
			add_alloc(t, &out->alloc);
			if (!isnan(t->started) && !(t->started >= out->first))
				out->first = t->started;
			if (!isnan(t->ended) && !(t->ended <= out->last))
				out->last = t->ended;
		}
	}
}
