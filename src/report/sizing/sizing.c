/* SPDX-License-Identifier: MIT */
/* sizing.c: the recommendations and replays of every strategy for every
 * group, their totals, groups' footprints and short names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/sizing/sizing.h"
#include "basic/safetext.h"
#include "basic/parfor.h"
#include "basic/xmalloc.h"

/* The strategies the savings table compares: the chosen one first, then
 * the others (quantile:0.95 when no quantile was chosen; input only when
 * chosen). */
static void strategies(struct rp_sizing *z)
{
	static const enum rp_strategy order[RP_S__COUNT] = {
		RP_S_MAX, RP_S_QUANTILE, RP_S_THROUGHPUT, RP_S_WASTE, RP_S_INPUT
	};
	size_t i;

	z->nstrat = 0;
	z->strat[z->nstrat++] = z->opts.strat;
	for (i = 0; i < RP_S__COUNT; i++) {
		/* input, a refit per task, only when chosen */
		if (order[i] == z->opts.strat.s || order[i] == RP_S_INPUT)
			continue;
		z->strat[z->nstrat].s = order[i];
		z->strat[z->nstrat].q = order[i] == RP_S_QUANTILE ? 0.95 : 0;
		z->nstrat++;
	}
}

static void add(struct rp_tally *to, const struct rp_tally *t)
{
	to->tasks += t->tasks;
	to->fit += t->fit;
	to->exceeded += t->exceeded;
	to->failed += t->failed;
	to->attempts_failed += t->attempts_failed;
	to->lost_h += t->lost_h;
	to->mem_alloc += t->mem_alloc;
	to->mem_used += t->mem_used;
	to->core_alloc += t->core_alloc;
	to->core_used += t->core_used;
}

struct sizing_job {
	struct rp_sizing *z;
	const struct rp_store *st;
	const struct rp_cat *c;
	size_t n;
	const double *max;
};

/* Strategy i / n, group i % n: its requests, and their replay. */
static void size_one(size_t i, void *arg)
{
	const struct sizing_job *j = arg;
	size_t s = i / j->n, k = i % j->n;
	struct rp_sizing *z = j->z;

	rp_recommend(j->st, &j->c[k], &z->strat[s], z->opts.margin, j->max, &z->rec[s][k]);
	rp_replay(j->st, &j->c[k], &z->rec[s][k], j->max, &z->rep[s][k]);
}

void rp_sizing_compute(struct rp_sizing *z, const struct rp_sizing_opts *o,
		       const struct rp_store *st, const struct rp_cat *c, size_t n,
		       const double max[RP_A__COUNT], int jobs)
{
	struct sizing_job j = { z, st, c, n, max };
	size_t s, i;

	memset(z, 0, sizeof(*z));
	z->opts = *o;
	z->ng = n;
	strategies(z);
	for (s = 0; s < z->nstrat; s++) {
		z->rec[s] = xcalloc(n ? n : 1, sizeof(struct rp_rec));
		z->rep[s] = xcalloc(n ? n : 1, sizeof(struct rp_replay));
	}
	parfor(z->nstrat * n, jobs, size_one, &j);
	for (s = 0; s < z->nstrat; s++) {
		struct rp_replay *tot = &z->total[s];

		for (i = 0; i < n; i++) {
			add(&tot->rec, &z->rep[s][i].rec);
			add(&tot->req, &z->rep[s][i].req);
			add(&tot->rec_same, &z->rep[s][i].rec_same);
			tot->req_tasks += z->rep[s][i].req_tasks;
		}
	}
}

void rp_sizing_free(struct rp_sizing *z)
{
	size_t s;

	for (s = 0; s < z->nstrat; s++) {
		free(z->rec[s]);
		free(z->rep[s]);
	}
	memset(z, 0, sizeof(*z));
}

struct rp_usage rp_footprint(const struct rp_store *st, const struct rp_cat *c)
{
	struct rp_usage f = { 0, 0 };
	size_t i;

	for (i = 0; i < c->group->n; i++) {
		const struct rp_task *t = &st->tasks[c->group->idx[i]];
		struct rp_usage u;

		if (rp_task_usable(t) == 3)
			continue;
		u = rp_task_usage(t);
		f.core_h += u.core_h;
		f.mem_gbh += u.mem_gbh;
	}
	return f;
}

int rp_footprint_cmp(const struct rp_usage *a, const struct rp_usage *b)
{
	if (a->core_h != b->core_h)
		return a->core_h < b->core_h ? 1 : -1;
	if (a->mem_gbh != b->mem_gbh)
		return a->mem_gbh < b->mem_gbh ? 1 : -1;
	return 0;
}
