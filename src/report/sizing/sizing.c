/* SPDX-License-Identifier: MIT */
/* sizing.c: the recommendations and replays of every strategy for every
 * group, their totals, groups' footprints and short names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/sizing/sizing.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

/* The strategies the savings table compares: the chosen one first, then
 * the others (quantile:0.95 when no quantile was chosen). */
static void strategies(struct rp_sizing *z)
{
	static const enum rp_strategy order[RP_S__COUNT] = {
		RP_S_MAX, RP_S_QUANTILE, RP_S_THROUGHPUT, RP_S_WASTE
	};
	size_t i;

	z->nstrat = 0;
	z->strat[z->nstrat++] = z->opts.strat;
	for (i = 0; i < RP_S__COUNT; i++) {
		if (order[i] == z->opts.strat.s)
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
	to->mem_alloc += t->mem_alloc;
	to->mem_used += t->mem_used;
	to->core_alloc += t->core_alloc;
	to->core_used += t->core_used;
}

void rp_sizing_compute(struct rp_sizing *z, const struct rp_sizing_opts *o,
		       const struct rp_store *st, const struct rp_cat *c, size_t n,
		       const double max[RP_A__COUNT])
{
	size_t s, i;

	memset(z, 0, sizeof(*z));
	z->opts = *o;
	z->ng = n;
	strategies(z);
	for (s = 0; s < z->nstrat; s++) {
		struct rp_replay *tot = &z->total[s];

		z->rec[s] = xcalloc(n ? n : 1, sizeof(struct rp_rec));
		z->rep[s] = xcalloc(n ? n : 1, sizeof(struct rp_replay));
		for (i = 0; i < n; i++) {
			rp_recommend(st, &c[i], &z->strat[s], o->margin, max, &z->rec[s][i]);
			rp_replay(st, &c[i], &z->rec[s][i], max, &z->rep[s][i]);
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

double rp_footprint(const struct rp_store *st, const struct rp_cat *c)
{
	double f = 0;
	size_t i;

	for (i = 0; i < c->group->n; i++) {
		const struct rp_task *t = &st->tasks[c->group->idx[i]];
		double w = t->v[RP_WALL_TIME];

		if (isnan(w) || rp_task_usable(t) == 3)
			continue;
		if (!isnan(t->v[RP_CPU_TIME]))
			f += t->v[RP_CPU_TIME] / 3600;
		else if (!isnan(t->v[RP_CORES]))
			f += t->v[RP_CORES] * w / 3600;
		if (!isnan(t->v[RP_MEMORY]))
			f += t->v[RP_MEMORY] / 1024 * w / 3600;
	}
	return f;
}

/* The last @k ':'-separated components of @s. */
static const char *last_parts(const char *s, size_t k)
{
	const char *p = s + strlen(s);

	while (p > s) {
		if (p[-1] == ':' && --k == 0)
			return p;
		p--;
	}
	return s;
}

char **rp_short_names(const char *const *names, size_t n)
{
	size_t *k = xcalloc(n ? n : 1, sizeof(size_t));
	char **out = xcalloc(n ? n : 1, sizeof(char *));
	size_t i, j;
	bool again = true;

	for (i = 0; i < n; i++)
		k[i] = 1;
	/* lengthen the names that clash until none does (or all are whole) */
	while (again) {
		again = false;
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				const char *a = last_parts(names[i], k[i]), *b = last_parts(names[j], k[j]);

				if (strcmp(a, b) != 0 || (a == names[i] && b == names[j]))
					continue;
				if (a != names[i])
					k[i]++;
				if (b != names[j])
					k[j]++;
				again = true;
			}
	}
	for (i = 0; i < n; i++)
		out[i] = xstrdup(last_parts(names[i], k[i]));
	free(k);
	return out;
}

void rp_short_names_free(char **s, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

/* @s shown in at most about @max bytes: its start and its end, which
 * tell short names apart ("BAM_BEDG..COMPUTEMATRIX"). */
char *rp_clip_middle(const char *s, size_t max)
{
	size_t n = strlen(s), head = (max - 2) * 2 / 5;
	const char *tail;
	char *t, *r;

	if (n <= max)
		return safetext_clip(s, max);
	tail = s + n - (max - 2 - head);
	while (*tail && ((unsigned char)*tail & 0xC0) == 0x80)
		tail++;
	while (head > 0 && ((unsigned char)s[head] & 0xC0) == 0x80)
		head--;
	t = xasprintf("%.*s..%s", (int)head, s, tail);
	r = safetext_clip(t, max + 2);
	free(t);
	return r;
}
