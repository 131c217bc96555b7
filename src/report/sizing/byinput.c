/* SPDX-License-Identifier: MIT */
/* byinput.c: --recommend=input.  Per group, memory and wall time as a
 * robust line on the input size (inputfit.c), within a floor (the least
 * peak) and a cap (max's request), and its online replay: each task's
 * first request comes from the tasks that ended before it started (under
 * RP_INPUT_MIN_TASKS of them: max's, the group's fallback), within the
 * group's cap as the emitted files have it; a retry asks
 * RP_INPUT_GROWTH times what the failed try gave (what it reached under
 * its limit: the summary's retry rule), at least the cap.  The margin of
 * each line is the one of rp_input_margins whose replay costs least:
 * memory, the memory hours allocated; wall time, the hours lost to
 * failed tries plus the hours requested and not used. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/sizing/inputfit.h"
#include "report/sizing/sizing.h"
#include "basic/xmalloc.h"

const double rp_input_margins[RP_INPUT_NMARGINS] = { 0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1 };

static int64_t round_res(double v, bool mem)
{
	return mem ? rp_round_memory(v) : rp_round_time(v);
}

int64_t rp_line_request(const struct rp_line *l, double input_mb, int64_t fixed, bool mem)
{
	double pred;
	int64_t v;

	if (!l->on || !rp_input_mb_usable(input_mb))
		return fixed;
	pred = l->slope * input_mb + l->icpt;
	pred = pred > 0 ? pred * (1 + l->margin) : 0;
	if (!(pred < (double)l->hi))
		return l->hi;
	v = round_res(pred, mem);
	return v < l->lo ? l->lo : v > l->hi ? l->hi : v;
}

/* The line of the @m points (@x, @y) (the last RP_INPUT_WINDOW of the @n
 * seen) into @l (its margin, floor and cap untouched). */
static void fit_line(struct rp_line *l, const double *x, const double *y, size_t m, size_t n)
{
	l->on = false;
	l->n = n;
	l->rho = NAN;
	l->slope = l->icpt = 0;
	if (n < RP_INPUT_MIN_TASKS) {
		l->why = "under 5 tasks with an input size";
		return;
	}
	l->rho = rp_spearman(x, y, m);
	if (!(l->rho >= RP_INPUT_MIN_RHO)) {
		l->why = "no relation to input";
		return;
	}
	rp_theil_sen(x, y, m, &l->slope, &l->icpt);
	if (!(l->slope > 0)) {
		l->why = "no growth with input";
		return;
	}
	l->on = true;
	l->why = NULL;
}

/* One task of the online replay. */
struct item {
	const struct rp_task *t;
	struct rp_use u;
	double x;		/* its input size, NAN unknown */
	double start, end;	/* its order */
	bool teaches;		/* usable: later requests learn from it */
};

/* What the tasks that ended before one started say: their least peaks
 * (NAN: none), and which of the fits holds their lines. */
struct hist {
	double lo[RP_L__COUNT];
	size_t fit;
};

/* The tasks learnt from so far: their least peaks, and the
 * last RP_INPUT_WINDOW of those with an input size (a ring: a fit does
 * not depend on their order), how many there were, and how many the
 * last fit saw. */
struct learner {
	double lo[RP_L__COUNT];
	double x[RP_L__COUNT][RP_INPUT_WINDOW], y[RP_L__COUNT][RP_INPUT_WINDOW];
	size_t n[RP_L__COUNT];
	size_t fitted_at;
};

static struct learner *learner_new(void)
{
	struct learner *lr = xcalloc(1, sizeof(*lr));
	size_t res;

	for (res = 0; res < RP_L__COUNT; res++)
		lr->lo[res] = NAN;
	return lr;
}

/* The peaks of item @e learnt. */
static void learner_add(struct learner *lr, const struct item *e)
{
	size_t res;

	for (res = 0; res < RP_L__COUNT; res++) {
		double v = res == RP_L_MEMORY ? e->u.mem : e->u.wall;
		size_t k = lr->n[res] % RP_INPUT_WINDOW;

		lr->lo[res] = fmin(lr->lo[res], v);
		if (isnan(e->x) || isnan(v))
			continue;
		lr->x[res][k] = e->x;
		lr->y[res][k] = v;
		lr->n[res]++;
	}
}

/* The lines of what @lr learnt into @l. */
static void learner_fit(struct learner *lr, struct rp_line l[RP_L__COUNT])
{
	size_t res;

	for (res = 0; res < RP_L__COUNT; res++) {
		size_t m = lr->n[res] < RP_INPUT_WINDOW ? lr->n[res] : RP_INPUT_WINDOW;

		fit_line(&l[res], lr->x[res], lr->y[res], m, lr->n[res]);
	}
	lr->fitted_at = lr->n[RP_L_MEMORY];
}

/* Is a new fit due?  With each task up to 50 with an input size, then
 * each time they grew by a tenth: a fit is quadratic in the window, and
 * a group may hold a million tasks. */
static bool learner_due(const struct learner *lr)
{
	size_t n = lr->n[RP_L_MEMORY], at = lr->fitted_at;

	return n != at && (n <= 50 || n >= at + at / 10);
}

/* The tasks of the group a replay runs, in the order they started (by
 * their times when every task has them, else in the records' order, each
 * ending before the next starts).  Returns their count. */
static size_t items_of(const struct rp_store *st, const struct rp_group *g, struct item *it)
{
	size_t i, n = 0;
	bool timed = true;

	for (i = 0; i < g->n; i++) {
		const struct rp_task *t = &st->tasks[g->idx[i]];

		if (rp_task_usable(t) != 0 && !rp_task_taught(t))
			continue;
		it[n].t = t;
		it[n].u = rp_use_of(t);
		it[n].x = rp_input_mb_usable(t->input_mb) ? t->input_mb : NAN;
		it[n].teaches = rp_task_usable(t) == 0;
		it[n].start = t->started;
		it[n].end = t->ended;
		timed &= isfinite(t->started) && isfinite(t->ended);
		n++;
	}
	for (i = 0; !timed && i < n; i++) {
		it[i].start = (double)i;
		it[i].end = (double)i + 0.5;
	}
	return n;
}

static int by_start(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* A teaching task's place in the order of ends. */
struct ended {
	double end;
	size_t i;		/* its item */
};

static int by_end(const void *a, const void *b)
{
	const struct ended *x = a, *y = b;

	if (x->end != y->end)
		return (x->end > y->end) - (x->end < y->end);
	return (x->i > y->i) - (x->i < y->i);
}

/* The teaching items of @it (@n) in the order they ended, a new array;
 * their count in *@np. */
static struct ended *ends_of(const struct item *it, size_t n, size_t *np)
{
	struct ended *ord = xreallocarray(NULL, n ? n : 1, sizeof(struct ended));
	size_t i;

	*np = 0;
	for (i = 0; i < n; i++)
		if (it[i].teaches) {
			ord[*np].end = it[i].end;
			ord[(*np)++].i = i;
		}
	qsort(ord, *np, sizeof(struct ended), by_end);
	return ord;
}

/* The online replay's state: the tasks in the order they started, the
 * history each saw, the fits those hold. */
struct online {
	struct item *it;
	struct hist *h;
	struct rp_line (*fits)[RP_L__COUNT];
	size_t n, nfits;
};

/* A fit of @lr appended to @o's. */
static void online_fit(struct online *o, struct learner *lr)
{
	o->fits = xreallocarray(o->fits, o->nfits + 1, sizeof(*o->fits));
	learner_fit(lr, o->fits[o->nfits++]);
}

static void online_build(struct online *o, const struct rp_store *st, const struct rp_group *g)
{
	struct learner *lr = learner_new();
	struct ended *ord;
	size_t i, p = 0, np;

	memset(o, 0, sizeof(*o));
	o->it = xreallocarray(NULL, g->n ? g->n : 1, sizeof(struct item));
	o->n = items_of(st, g, o->it);
	o->h = xreallocarray(NULL, o->n ? o->n : 1, sizeof(struct hist));
	qsort(o->it, o->n, sizeof(struct item), by_start);
	ord = ends_of(o->it, o->n, &np);
	online_fit(o, lr);
	for (i = 0; i < o->n; i++) {
		while (p < np && ord[p].end < o->it[i].start)
			learner_add(lr, &o->it[ord[p++].i]);
		if (learner_due(lr))
			online_fit(o, lr);
		memcpy(o->h[i].lo, lr->lo, sizeof(lr->lo));
		o->h[i].fit = o->nfits - 1;
	}
	free(ord);
	free(lr);
}

static void online_free(struct online *o)
{
	free(o->it);
	free(o->h);
	free(o->fits);
}

/* The first try of item @e under its history @h: with fewer than
 * RP_INPUT_MIN_TASKS tasks ended before it, max's request (the group's
 * fallback); else each resource on the line fitted to them (when the
 * group's is on) with @margin, within their least peak and the group's
 * cap (max's request, as the emitted files have it), into *@cap. */
static struct rp_give first_try(const struct rp_rec *r, const struct item *e,
				const struct hist *h, const struct rp_line fit[RP_L__COUNT],
				const double margin[RP_L__COUNT], struct rp_give *cap)
{
	struct rp_give g = { (double)r->cores, (double)r->memory, (double)r->disk,
			     (double)r->wall_time };
	size_t res;

	*cap = g;
	if (fit[RP_L_MEMORY].n < RP_INPUT_MIN_TASKS)
		return g;
	for (res = 0; res < RP_L__COUNT; res++) {
		bool mem = res == RP_L_MEMORY;
		struct rp_line l = fit[res];

		if (isnan(h->lo[res]) || (!mem && r->wall_time < 0))
			continue;
		l.on = l.on && r->line[res].on;
		l.margin = margin[res];
		l.hi = mem ? r->memory : r->wall_time;
		l.lo = round_res(h->lo[res], mem);
		l.lo = l.lo > l.hi ? l.hi : l.lo;
		*(mem ? &g.mem : &g.wall) = (double)rp_line_request(&l, e->x, l.hi, mem);
	}
	return g;
}

/* The try after @g failed for @u: RP_INPUT_GROWTH times it, at least
 * the cap @cap and a taught task's retry (memory within --max). */
static struct rp_give next_try(struct rp_give g, const struct rp_give *cap,
			       const struct rp_use *u, const double max[RP_A__COUNT])
{
	g.mem = (double)rp_round_memory(fmax(fmax(g.mem * RP_INPUT_GROWTH, cap->mem),
					     u->taught ? u->need_mem : 0));
	if (max[RP_A_MEMORY] >= 0 && g.mem > max[RP_A_MEMORY])
		g.mem = floor(max[RP_A_MEMORY]);
	if (g.wall >= 0)
		g.wall = (double)rp_round_time(fmax(fmax(g.wall * RP_INPUT_GROWTH, cap->wall),
						    u->taught ? u->need_wall : 0));
	return g;
}

/* Item @e's tries charged to @t; the hours of wall time its first try
 * asked and did not use, when it fit, added to *@slack. */
static void run_item(struct rp_tally *t, const struct item *e, struct rp_give g,
		     const struct rp_give *cap, const double max[RP_A__COUNT], double *slack)
{
	int k;

	t->tasks++;
	t->mem_used += e->u.mem * e->u.wall / 3600;
	t->core_used += e->u.core_h;
	for (k = 1; k <= 1 + RP_RETRIES; k++) {
		if (rp_charge(t, &e->u, &g, k)) {
			if (k == 1) {
				t->fit++;
				*slack += g.wall > e->u.wall ? (g.wall - e->u.wall) / 3600 : 0;
			}
			return;
		}
		if (k == 1)
			t->exceeded++;
		g = next_try(g, cap, &e->u, max);
	}
	t->failed++;
}

/* The replay of @o under @r with @margin into @out (and the slack). */
static double online_run(const struct online *o, const struct rp_rec *r,
			 const double margin[RP_L__COUNT], const double max[RP_A__COUNT],
			 struct rp_replay *out)
{
	double slack = 0, ignored = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < o->n; i++) {
		const struct item *e = &o->it[i];
		struct rp_give cap, g = first_try(r, e, &o->h[i], o->fits[o->h[i].fit], margin,
						  &cap);

		run_item(&out->rec, e, g, &cap, max, &slack);
		if (!(e->t->given[RP_G_MEMORY] > 0))
			continue;
		out->req_tasks++;
		rp_replay_requested(&out->req, &e->u, e->t);
		run_item(&out->rec_same, e, g, &cap, max, &ignored);
	}
	return slack;
}

/* The margin of resource @res whose replay costs least, the other's
 * margins as @margin holds them. */
static double choose(const struct online *o, const struct rp_rec *r, size_t res,
		     double margin[RP_L__COUNT], const double max[RP_A__COUNT])
{
	double best = INFINITY, pick = rp_input_margins[0];
	size_t i;

	for (i = 0; i < RP_INPUT_NMARGINS; i++) {
		struct rp_replay p;
		double slack, cost;

		margin[res] = rp_input_margins[i];
		slack = online_run(o, r, margin, max, &p);
		cost = res == RP_L_MEMORY ? p.rec.mem_alloc : p.rec.lost_h + slack;
		if (cost < best) {
			best = cost;
			pick = rp_input_margins[i];
		}
	}
	margin[res] = pick;
	return pick;
}

/* The group's own lines, on all its usable tasks with an input size,
 * floors their least peaks, caps max's requests. */
static void group_lines(const struct online *o, struct rp_rec *r)
{
	size_t ord_n, res, i;
	struct ended *ord = ends_of(o->it, o->n, &ord_n);
	struct learner *lr = learner_new();

	for (i = 0; i < ord_n; i++)
		learner_add(lr, &o->it[ord[i].i]);
	learner_fit(lr, r->line);
	free(ord);
	for (res = 0; res < RP_L__COUNT; res++) {
		bool mem = res == RP_L_MEMORY;
		int64_t hi = mem ? r->memory : r->wall_time;

		r->line[res].hi = hi;
		r->line[res].lo = isnan(lr->lo[res]) ? hi : round_res(lr->lo[res], mem);
		if (r->line[res].lo > hi)
			r->line[res].lo = hi;
		if (hi < 0 && r->line[res].on) {
			r->line[res].on = false;
			r->line[res].why = "no wall time";
		}
	}
	if (!r->line[RP_L_MEMORY].on && r->line[RP_L_WALL_TIME].on) {
		r->line[RP_L_WALL_TIME].on = false;
		r->line[RP_L_WALL_TIME].why = "memory does not follow the input: max for both";
	}
	free(lr);
}

void rp_input_fit(const struct rp_store *st, const struct rp_cat *c, struct rp_rec *r,
		  const double max[RP_A__COUNT])
{
	struct online o;

	memset(r->line, 0, sizeof(r->line));
	r->line[RP_L_MEMORY].why = r->line[RP_L_WALL_TIME].why = "no usable task";
	r->line[RP_L_MEMORY].rho = r->line[RP_L_WALL_TIME].rho = NAN;
	if (!r->has || r->from_retry)
		return;
	online_build(&o, st, c->group);
	group_lines(&o, r);
	if (r->line[RP_L_MEMORY].on) {
		/* memory's margin first, under the loosest wall time */
		double margin[RP_L__COUNT] = { 0, rp_input_margins[RP_INPUT_NMARGINS - 1] };

		r->line[RP_L_MEMORY].margin = choose(&o, r, RP_L_MEMORY, margin, max);
		if (r->line[RP_L_WALL_TIME].on)
			r->line[RP_L_WALL_TIME].margin =
				choose(&o, r, RP_L_WALL_TIME, margin, max);
	}
	online_free(&o);
}

void rp_replay_input(const struct rp_store *st, const struct rp_cat *c,
		     const struct rp_rec *r, const double max[RP_A__COUNT],
		     struct rp_replay *out)
{
	double margin[RP_L__COUNT] = { r->line[RP_L_MEMORY].margin,
				       r->line[RP_L_WALL_TIME].margin };
	struct online o;

	online_build(&o, st, c->group);
	online_run(&o, r, margin, max, out);
	online_free(&o);
}
