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

void rp_analyse(const struct rp_store *st, const struct rp_group *g,
		const double max[RP_A__COUNT], struct rp_cat *c)
{
	double *v = xreallocarray(NULL, g->n ? g->n : 1, sizeof(double));
	struct rp_sample *s = xreallocarray(NULL, g->n ? g->n : 1, sizeof(*s));
	size_t i;
	int r, a, m;

	memset(c, 0, sizeof(*c));
	c->group = g;
	c->tasks = g->n;
	count_ends(st, g, c);
	for (r = 0; r < RP_RES__COUNT; r++) {
		for (i = 0; i < g->n; i++)
			v[i] = st->tasks[g->idx[i]].v[r];
		rp_stats_compute(v, g->n, &c->stats[r]);
		c->shown[r] = !rp_res_info(r)->optional || c->stats[r].n > 0;
	}
	for (a = 0; a < RP_A__COUNT; a++) {
		enum rp_res res = rp_ares_res(a);

		for (i = 0; i < g->n; i++) {
			const struct rp_task *t = &st->tasks[g->idx[i]];

			s[i].value = t->v[res];
			s[i].wall_time = t->v[RP_WALL_TIME];
			s[i].normal = t->normal;
		}
		{
			int64_t out[RP_MODE__COUNT];

			rp_alloc_compute(s, g->n, rp_res_info(res)->bucket, max[a], out);
			for (m = 0; m < RP_MODE__COUNT; m++) {
				c->alloc[m][a] = out[m];
				c->fit[m][a] = rp_fit_compute(s, g->n, (double)out[m]);
			}
		}
	}
	free(v);
	free(s);
}
