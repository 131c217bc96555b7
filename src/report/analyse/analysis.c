/* SPDX-License-Identifier: MIT */
/* analysis.c: counts, figures and allocations of one group of tasks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/analyse/analysis.h"
#include "basic/xmalloc.h"

static const enum rp_res ares_res[RP_A__COUNT] = {
	[RP_A_CORES] = RP_CORES, [RP_A_MEMORY] = RP_MEMORY, [RP_A_DISK] = RP_DISK,
};

enum rp_res rp_ares_res(enum rp_ares a)
{
	return ares_res[a];
}

struct rp_fit rp_fit_compute(const struct rp_sample *s, size_t n, double alloc)
{
	struct rp_fit f = { NAN, NAN };
	size_t i, known = 0, fit = 0;
	double used = 0, given = 0;

	if (alloc < 0)
		return f;
	for (i = 0; i < n; i++) {
		if (isnan(s[i].value))
			continue;
		known++;
		if (s[i].value > alloc)
			continue;
		fit++;
		if (!isnan(s[i].wall_time)) {
			used += s[i].value * s[i].wall_time;
			given += alloc * s[i].wall_time;
		}
	}
	if (known)
		f.share = (double)fit / (double)known;
	if (given > 0)
		f.waste = 1 - used / given;
	return f;
}

static void count_ends(const struct rp_store *st, const struct rp_group *g,
		       struct rp_cat *c)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		switch (st->tasks[g->idx[i]].end) {
		case RP_SUCCEEDED: c->succeeded++; break;
		case RP_EXHAUSTED: c->exhausted++; break;
		case RP_FAILED: c->failed++; break;
		case RP_RUNNING: c->running++; break;
		}
		c->notes += st->tasks[g->idx[i]].nnotes;
	}
}

void rp_analyse_begin(const struct rp_group *g, struct rp_cat *c)
{
	memset(c, 0, sizeof(*c));
	c->group = g;
	c->tasks = g->n;
}

/* The figures of resource @r. */
static void analyse_res(const struct rp_store *st, const struct rp_group *g,
			struct rp_cat *c, enum rp_res r)
{
	double *v = xreallocarray(NULL, g->n ? g->n : 1, sizeof(double));
	size_t i;

	for (i = 0; i < g->n; i++)
		v[i] = st->tasks[g->idx[i]].v[r];
	rp_stats_compute(v, g->n, &c->stats[r]);
	c->shown[r] = !rp_res_info(r)->optional || c->stats[r].n > 0;
	free(v);
}

/* The allocations of resource @a in every mode, and how they fit. */
static void analyse_alloc(const struct rp_store *st, const struct rp_group *g,
			  const double max[RP_A__COUNT], struct rp_cat *c, enum rp_ares a)
{
	struct rp_sample *s = xreallocarray(NULL, g->n ? g->n : 1, sizeof(*s));
	enum rp_res res = rp_ares_res(a);
	int64_t out[RP_MODE__COUNT];
	size_t i;
	int m;

	for (i = 0; i < g->n; i++) {
		const struct rp_task *t = &st->tasks[g->idx[i]];

		s[i].value = t->v[res];
		s[i].wall_time = t->v[RP_WALL_TIME];
		s[i].normal = t->normal;
	}
	rp_alloc_compute(s, g->n, rp_res_info(res)->bucket, max[a], out);
	for (m = 0; m < RP_MODE__COUNT; m++) {
		c->alloc[m][a] = out[m];
		c->fit[m][a] = rp_fit_compute(s, g->n, (double)out[m]);
	}
	free(s);
}

void rp_analyse_part(const struct rp_store *st, const struct rp_group *g,
		     const double max[RP_A__COUNT], struct rp_cat *c, int part)
{
	if (part == 0)
		count_ends(st, g, c);
	else if (part <= RP_RES__COUNT)
		analyse_res(st, g, c, (enum rp_res)(part - 1));
	else
		analyse_alloc(st, g, max, c, (enum rp_ares)(part - 1 - RP_RES__COUNT));
}
