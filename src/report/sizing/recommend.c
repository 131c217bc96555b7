/* SPDX-License-Identifier: MIT */
/* recommend.c: a group's recommendation by a strategy: the tasks it may
 * use, the figure each strategy takes from them, the margin, the caps of
 * --max and the engines' rounding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/analyse/stats.h"
#include "report/sizing/sizing.h"
#include "basic/rounding.h"
#include "basic/xmalloc.h"

int rp_strat_parse(const char *arg, struct rp_strat *s, char *why, size_t len)
{
	char *end;

	s->q = 0;
	if (strcmp(arg, "max") == 0)
		s->s = RP_S_MAX;
	else if (strcmp(arg, "throughput") == 0)
		s->s = RP_S_THROUGHPUT;
	else if (strcmp(arg, "waste") == 0)
		s->s = RP_S_WASTE;
	else if (strcmp(arg, "input") == 0)
		s->s = RP_S_INPUT;
	else if (strncmp(arg, "quantile:", 9) == 0) {
		s->s = RP_S_QUANTILE;
		s->q = strtod(arg + 9, &end);
		if (end == arg + 9 || *end || !(s->q > 0 && s->q < 1)) {
			snprintf(why, len, "'%s': Q is a number between 0 and 1 (0.95)", arg + 9);
			return -1;
		}
	} else {
		snprintf(why, len, "'%s' is not max, quantile:Q, throughput, waste or input", arg);
		return -1;
	}
	return 0;
}

const char *rp_strat_name(char *buf, size_t len, const struct rp_strat *s)
{
	static const char *const names[RP_S__COUNT] = { "max", "quantile", "throughput", "waste",
								  "input" };

	if (s->s == RP_S_QUANTILE)
		snprintf(buf, len, "quantile:%g", s->q);
	else
		snprintf(buf, len, "%s", names[s->s]);
	return buf;
}

int rp_margin_parse(const char *arg, double *m, char *why, size_t len)
{
	char *end;
	double v = strtod(arg, &end);

	if (end != arg && *end == '%' && end[1] == '\0')
		v /= 100;
	else if (end == arg || *end)
		v = NAN;
	if (!(v >= 0 && v <= 10)) {
		snprintf(why, len, "'%s' is not a share from 0 to 10 (0.2) or a percentage (20%%)",
			 arg);
		return -1;
	}
	*m = v;
	return 0;
}

int rp_task_usable(const struct rp_task *t)
{
	if (t->end != RP_SUCCEEDED)
		return 1;
	if (isnan(t->v[RP_MEMORY]))
		return 2;
	if (t->v[RP_MEMORY] > RP_ABSURD_MB || t->v[RP_MEMORY] < 0 ||
	    t->v[RP_DISK] > RP_ABSURD_MB || t->v[RP_CORES] > RP_ABSURD_CORES ||
	    t->v[RP_WALL_TIME] > RP_ABSURD_SECONDS || t->v[RP_WALL_TIME] < 0)
		return 3;
	return 0;
}

bool rp_task_taught(const struct rp_task *t)
{
	return t->end != RP_SUCCEEDED && t->end != RP_RUNNING &&
	       (t->retry_memory > 0 || t->retry_wall_time > 0);
}

int64_t rp_round_memory(double mb)
{
	return round_memory_mb(mb);
}

int64_t rp_round_time(double s)
{
	return round_wall_s(s);
}

int64_t rp_round_cores(double cores)
{
	return round_cores(cores);
}

/* The largest of the @n values @x: the last of equals, as the last of a
 * stable sort (a -0 and a 0). */
static double largest(const double *x, size_t n)
{
	double m = x[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (x[i] >= m)
			m = x[i];
	return m;
}

/* Known values of resource @res among the usable tasks; the figure the
 * strategy takes of them in *@out (NAN when none): a quantile of them
 * sorted, or the largest (no sort). */
static void figure(const struct rp_store *st, const struct rp_group *g, enum rp_res res,
		   const struct rp_strat *s, bool q, double *out)
{
	double *x = xreallocarray(NULL, g->n ? g->n : 1, sizeof(double));
	size_t i, n = 0;

	for (i = 0; i < g->n; i++) {
		const struct rp_task *t = &st->tasks[g->idx[i]];

		if (rp_task_usable(t) == 0 && !isnan(t->v[res]))
			x[n++] = t->v[res];
	}
	if (n && q) {
		rp_sort_values(x, n);
		*out = rp_quantile(x, n, s->q);
	} else {
		*out = n ? largest(x, n) : NAN;
	}
	free(x);
}

static int64_t cap(int64_t v, double max)
{
	return max >= 0 && v > (int64_t)max ? (int64_t)max : v;
}

/* max and quantile:Q: the figure, the margin (not on cores), rounding. */
static void measured(const struct rp_store *st, const struct rp_cat *c, struct rp_rec *r,
		     double margin, const double max[RP_A__COUNT])
{
	bool q = r->strat.s == RP_S_QUANTILE;
	double v;

	if (q) {
		r->need = (size_t)ceil(1 / (1 - r->strat.q) - 1e-9);
		if (r->used < r->need) {
			q = false;
			r->fallback = true;
		}
	}
	figure(st, c->group, RP_CORES, &r->strat, q, &v);
	r->cores = cap(isnan(v) ? 1 : rp_round_cores(v), max[RP_A_CORES]);
	figure(st, c->group, RP_MEMORY, &r->strat, q, &v);
	r->memory = cap(rp_round_memory(v * (1 + margin)), max[RP_A_MEMORY]);
	figure(st, c->group, RP_DISK, &r->strat, q, &v);
	r->disk = isnan(v) ? -1 : cap(rp_round_memory(v * (1 + margin)), max[RP_A_DISK]);
	figure(st, c->group, RP_WALL_TIME, &r->strat, q, &v);
	r->wall_time = isnan(v) ? -1 : rp_round_time(v * (1 + margin));
}

/* cctools' allocations of the usable tasks of @g (as if only they had
 * been measured). */
static void cctools_alloc(const struct rp_store *st, const struct rp_group *g,
			  const double max[RP_A__COUNT],
			  int64_t out[RP_A__COUNT][RP_MODE__COUNT])
{
	struct rp_sample *s = xreallocarray(NULL, g->n ? g->n : 1, sizeof(*s));
	size_t i, n;
	int a;

	for (a = 0; a < RP_A__COUNT; a++) {
		enum rp_res res = rp_ares_res(a);

		for (i = 0, n = 0; i < g->n; i++) {
			const struct rp_task *t = &st->tasks[g->idx[i]];

			if (rp_task_usable(t) != 0)
				continue;
			s[n].value = t->v[res];
			s[n].wall_time = t->v[RP_WALL_TIME];
			s[n].normal = true;
			n++;
		}
		rp_alloc_compute(s, n, rp_res_info(res)->bucket, max[a], out[a]);
	}
	free(s);
}

/* throughput and waste: cctools' own first allocations, as they are;
 * a retry gets its max allocation. */
static void cctools(const struct rp_store *st, const struct rp_cat *c, struct rp_rec *r,
		    const double max[RP_A__COUNT])
{
	enum rp_mode m = r->strat.s == RP_S_THROUGHPUT ? RP_MAX_THROUGHPUT : RP_MIN_WASTE;
	int64_t al[RP_A__COUNT][RP_MODE__COUNT];
	int a;

	cctools_alloc(st, c->group, max, al);
	if (al[RP_A_MEMORY][m] < 0) {
		r->has = false;
		return;
	}
	r->cores = al[RP_A_CORES][m] > 0 ? al[RP_A_CORES][m] : 1;
	r->memory = al[RP_A_MEMORY][m];
	r->disk = al[RP_A_DISK][m] > 0 ? al[RP_A_DISK][m] : -1;
	r->wall_time = -1;
	for (a = 0; a < RP_A__COUNT; a++)
		r->retry[a] = al[a][RP_MAX_SEEN];
}

/* The floors of @g: the largest retry of its taught tasks (already
 * rounded as requests are), and the peak cores among them. */
static void floors(const struct rp_store *st, const struct rp_group *g, struct rp_rec *r,
		   double *cores)
{
	double mem = NAN, wall = NAN;
	size_t i;

	*cores = NAN;
	for (i = 0; i < g->n; i++) {
		const struct rp_task *t = &st->tasks[g->idx[i]];

		if (!rp_task_taught(t))
			continue;
		r->taught++;
		mem = fmax(mem, t->retry_memory);
		wall = fmax(wall, t->retry_wall_time);
		*cores = fmax(*cores, t->v[RP_CORES]);
	}
	r->floor_memory = isnan(mem) ? -1 : rp_round_memory(mem);
	r->floor_wall_time = isnan(wall) ? -1 : rp_round_time(wall);
}

/* @v raised to @floor (< 0: none), within --max's @max; was it? */
static bool raise_to(int64_t *v, int64_t floor, double max)
{
	int64_t want = cap(floor, max);

	if (floor < 0 || *v >= want)
		return false;
	*v = want;
	return true;
}

/* No request goes under what a taught task showed it needs: memory,
 * wall time, and cctools' retry; with no usable task, the floors are
 * the request (when one gives memory). */
static void apply_floors(struct rp_rec *r, double cores, const double max[RP_A__COUNT])
{
	if (!r->has) {
		if (r->floor_memory < 0)
			return;
		r->has = r->from_retry = true;
		r->cores = cap(isnan(cores) ? 1 : rp_round_cores(cores), max[RP_A_CORES]);
		r->memory = cap(r->floor_memory, max[RP_A_MEMORY]);
		r->wall_time = r->floor_wall_time;
		return;
	}
	r->raised |= raise_to(&r->memory, r->floor_memory, max[RP_A_MEMORY]);
	if (r->wall_time >= 0 || r->strat.s == RP_S_MAX || r->strat.s == RP_S_QUANTILE)
		r->raised |= raise_to(&r->wall_time, r->floor_wall_time, -1);
	if (r->retry[RP_A_MEMORY] >= 0)
		raise_to(&r->retry[RP_A_MEMORY], r->floor_memory, max[RP_A_MEMORY]);
}

void rp_recommend(const struct rp_store *st, const struct rp_cat *c,
		  const struct rp_strat *s, double margin,
		  const double max[RP_A__COUNT], struct rp_rec *r)
{
	double cores;

	const struct rp_group *g = c->group;
	size_t i, oom = 0;

	memset(r, 0, sizeof(*r));
	r->strat = *s;
	r->margin = margin;
	r->cores = r->memory = r->disk = r->wall_time = -1;
	r->floor_memory = r->floor_wall_time = -1;
	r->retry[0] = r->retry[1] = r->retry[2] = -1;
	for (i = 0; i < g->n; i++) {
		switch (rp_task_usable(&st->tasks[g->idx[i]])) {
		case 0: r->used++; break;
		case 1:
			r->ex.failed++;
			oom += st->tasks[g->idx[i]].cause &&
			       strcmp(st->tasks[g->idx[i]].cause, "oom_kill") == 0;
			break;
		case 2: r->ex.no_memory++; break;
		default: r->ex.absurd++; break;
		}
	}
	r->retry_memory_only = r->ex.failed > 0 && oom == r->ex.failed;
	r->has = r->used > 0;
	if (r->has && (s->s == RP_S_MAX || s->s == RP_S_QUANTILE || s->s == RP_S_INPUT))
		measured(st, c, r, margin, max);
	else if (r->has)
		cctools(st, c, r, max);
	floors(st, g, r, &cores);
	apply_floors(r, cores, max);
	if (s->s == RP_S_INPUT)
		rp_input_fit(st, c, r, max);
}
