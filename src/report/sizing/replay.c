/* SPDX-License-Identifier: MIT */
/* replay.c: the recorded tasks of a group run again, in simulation, under
 * a recommendation and the retry of its engine, and under the requests
 * the records carry.  A try that runs out of memory or disk is charged
 * the task's whole wall time (when it was killed is not recorded); one
 * that runs out of time is charged the time limit.  A task stopped at a
 * limit (or killed for memory) with a retry in its summary is replayed
 * too: its need is not known, only that it was more than it reached, so
 * it is over its first try whatever it gives, and fits a retry that
 * gives at least its retry. */
#include <math.h>
#include <string.h>
#include "report/sizing/sizing.h"

bool rp_charge(struct rp_tally *t, const struct rp_use *u, const struct rp_give *g, int k)
{
	bool ok = u->need_mem <= g->mem &&
		  (g->disk < 0 || isnan(u->disk) || u->disk <= g->disk) &&
		  (g->wall < 0 || u->need_wall <= g->wall) && !(u->taught && k == 1);
	double h = (ok || g->wall < 0 || u->wall <= g->wall ? u->wall : g->wall) / 3600;

	t->mem_alloc += g->mem * h;
	t->core_alloc += g->cores * h;
	if (!ok) {
		t->attempts_failed++;
		t->lost_h += h;
	}
	return ok;
}

/* Try @k (1, 2, ...) of the recommendation @r for task @u. */
static struct rp_give try_of(const struct rp_rec *r, int k, const double max[RP_A__COUNT])
{
	struct rp_give g;
	bool cc = r->strat.s == RP_S_THROUGHPUT || r->strat.s == RP_S_WASTE;

	g.cores = (double)r->cores;
	g.mem = (double)r->memory;
	g.disk = (double)r->disk;
	g.wall = (double)r->wall_time;
	if (k == 1)
		return g;
	if (cc) {
		/* cctools: a task that ran out is retried with the max allocation */
		g.cores = r->retry[RP_A_CORES] > 0 ? (double)r->retry[RP_A_CORES] : g.cores;
		g.mem = r->retry[RP_A_MEMORY] >= 0 ? (double)r->retry[RP_A_MEMORY] : g.mem;
		g.disk = r->retry[RP_A_DISK] > 0 ? (double)r->retry[RP_A_DISK] : -1;
		return g;
	}
	/* nf-core's task.attempt: memory, disk and time times the attempt */
	g.mem *= k;
	if (max[RP_A_MEMORY] >= 0 && g.mem > max[RP_A_MEMORY])
		g.mem = floor(max[RP_A_MEMORY]);
	g.disk = g.disk < 0 ? -1 : g.disk * k;
	if (g.disk >= 0 && max[RP_A_DISK] >= 0 && g.disk > max[RP_A_DISK])
		g.disk = floor(max[RP_A_DISK]);
	g.wall = g.wall < 0 ? -1 : g.wall * k;
	return g;
}

static void run_rec(struct rp_tally *t, const struct rp_use *u, const struct rp_rec *r,
		    const double max[RP_A__COUNT])
{
	bool cc = r->strat.s == RP_S_THROUGHPUT || r->strat.s == RP_S_WASTE;
	int k, tries = cc ? 2 : 1 + RP_RETRIES;

	t->tasks++;
	t->mem_used += u->mem * u->wall / 3600;
	t->core_used += u->core_h;
	for (k = 1; k <= tries; k++) {
		struct rp_give g = try_of(r, k, max);

		if (rp_charge(t, u, &g, k)) {
			if (k == 1)
				t->fit++;
			return;
		}
		if (k == 1)
			t->exceeded++;
	}
	t->failed++;
}

void rp_replay_requested(struct rp_tally *t, const struct rp_use *u, const struct rp_task *task)
{
	struct rp_give g;

	g.cores = isnan(task->given[RP_G_CORES]) ? 1 : task->given[RP_G_CORES];
	g.mem = task->given[RP_G_MEMORY];
	g.disk = isnan(task->given[RP_G_DISK]) ? -1 : task->given[RP_G_DISK];
	g.wall = isnan(task->req_wall_time) ? -1 : task->req_wall_time;
	t->tasks++;
	t->mem_used += u->mem * u->wall / 3600;
	t->core_used += u->core_h;
	if (rp_charge(t, u, &g, 0))
		t->fit++;
	else
		t->exceeded++;
}

struct rp_use rp_use_of(const struct rp_task *t)
{
	struct rp_use u;

	u.mem = t->v[RP_MEMORY];
	u.disk = t->v[RP_DISK];
	u.wall = isnan(t->v[RP_WALL_TIME]) ? 0 : t->v[RP_WALL_TIME];
	if (!isnan(t->v[RP_CPU_TIME]))
		u.core_h = t->v[RP_CPU_TIME] / 3600;
	else if (!isnan(t->v[RP_CORES]))
		u.core_h = t->v[RP_CORES] * u.wall / 3600;
	else
		u.core_h = 0;
	u.need_mem = u.mem;
	u.need_wall = u.wall;
	u.taught = rp_task_taught(t);
	if (u.taught) {
		u.mem = isnan(u.mem) ? 0 : u.mem;
		u.need_mem = fmax(u.mem, isnan(t->retry_memory) ? 0 : t->retry_memory);
		u.need_wall = fmax(u.wall, isnan(t->retry_wall_time) ? 0 : t->retry_wall_time);
	}
	return u;
}

void rp_replay(const struct rp_store *st, const struct rp_cat *c,
	       const struct rp_rec *r, const double max[RP_A__COUNT],
	       struct rp_replay *out)
{
	const struct rp_group *g = c->group;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!r->has)
		return;
	if (r->strat.s == RP_S_INPUT && r->line[RP_L_MEMORY].on) {
		rp_replay_input(st, c, r, max, out);
		return;
	}
	for (i = 0; i < g->n; i++) {
		const struct rp_task *t = &st->tasks[g->idx[i]];
		struct rp_use u;

		if (rp_task_usable(t) != 0 && !rp_task_taught(t))
			continue;
		u = rp_use_of(t);
		run_rec(&out->rec, &u, r, max);
		if (isnan(t->given[RP_G_MEMORY]) || !(t->given[RP_G_MEMORY] > 0))
			continue;
		out->req_tasks++;
		rp_replay_requested(&out->req, &u, t);
		run_rec(&out->rec_same, &u, r, max);
	}
}
