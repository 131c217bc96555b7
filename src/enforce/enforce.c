/* SPDX-License-Identifier: MIT */
/* enforce.c: holding the task to its limits (see enforce.h). */
#include <signal.h>
#include "cgroup/cgroup.h"
#include "enforce/enforce.h"
#include "basic/messages.h"
#include "kernel/proc.h"

/* Fastest growth we plan for, MB/s: the rate of a task touching fresh
 * pages flat out on one core is a few GB/s. */
#define GROWTH_MB_PER_S 4000.0

void enforce_init(struct tp_enforce *e, const struct tp_options *o, struct tp_figures *fig,
		  struct tp_watchdog *wd)
{
	e->o = o;
	e->fig = fig;
	e->wd = wd;
	e->root = 0;
	e->cg = NULL;
}

void enforce_stop(struct tp_enforce *e, double now)
{
	if (e->wd->phase != TP_RUNNING)
		return;
	e->fig->rep->stopped_at = now;
	watchdog_stop(e->wd, now);
}

/* Stop the task for a broken limit, already recorded in rep->exceeded;
 * @who broke it (named in the summary). */
static void stop_for_limit(struct tp_enforce *e, pid_t who, double now)
{
	struct tp_summary *rep = e->fig->rep;

	rep->exit_type = TP_EXIT_TYPE_LIMITS;
	if (who > 0) {
		rep->violator_pid = who;
		if (proc_read_cmdline(who, rep->violator_cmd, sizeof(rep->violator_cmd)) < 0)
			rep->violator_cmd[0] = '\0';
	}
	enforce_stop(e, now);
}

static void violation(struct tp_enforce *e, int r, pid_t who, double now)
{
	const struct tp_limits *l = &e->o->limits;
	struct tp_summary *rep = e->fig->rep;

	rep->exceeded.set[r] = true;
	rep->exceeded.value[r] = l->value[r];
	if (e->o->measure_only || rep->exit_type == TP_EXIT_TYPE_LIMITS)
		return;
	warn_msg("limit exceeded: %s %g %s > %g %s, stopping the task",
		 res_info(r)->name, e->fig->cur[r], res_info(r)->unit,
		 l->value[r], res_info(r)->unit);
	stop_for_limit(e, who, now);
}

/* The absolute deadline ("end", s since the epoch) has passed. */
static void end_violation(struct tp_enforce *e, double now)
{
	struct tp_summary *rep = e->fig->rep;

	rep->exceeded.end_set = true;
	rep->exceeded.end = e->o->limits.end;
	if (e->o->measure_only || rep->exit_type == TP_EXIT_TYPE_LIMITS)
		return;
	warn_msg("limit exceeded: end %.0f s since the epoch has passed, stopping the task",
		 e->o->limits.end);
	stop_for_limit(e, e->root, now);
}

/* First resource of @cur that is over its limit in @l, or -1. */
static int first_broken(const struct tp_limits *l, const double *cur, const bool *known)
{
	int r;

	for (r = 0; r < TP_RES__COUNT; r++)
		if (known[r] && limitset_exceeded(l, r, cur[r]))
			return r;
	return -1;
}

void enforce_check(struct tp_enforce *e, pid_t biggest, double now)
{
	struct tp_figures *f = e->fig;
	int r;

	while ((r = first_broken(&e->o->limits, f->cur, f->cur_known)) >= 0) {
		bool memory = r == TP_RES_MEMORY || r == TP_RES_VIRTUAL_MEMORY ||
			      r == TP_RES_SWAP_MEMORY || r == TP_RES_MAX_CONCURRENT_PROCESSES ||
			      r == TP_RES_TOTAL_PROCESSES;

		f->cur_known[r] = false;	/* report each resource once per check */
		/* the engines pass the task's declared gpus (0 when it
		 * declared none) and keep it to its devices themselves;
		 * resource_monitor never enforced it */
		if (r == TP_RES_GPUS && e->o->exit_codes == TP_CODES_CCTOOLS)
			continue;
		violation(e, r, memory ? biggest : e->root, now);
	}
}

void enforce_oom(struct tp_enforce *e, double now)
{
	const struct tp_limits *l = &e->o->limits;
	struct tp_summary *rep = e->fig->rep;

	if (!e->cg || !l->set[TP_RES_MEMORY] || e->o->measure_only ||
	    rep->exit_type == TP_EXIT_TYPE_LIMITS || cgrun_oom_kills(e->cg) == 0)
		return;
	rep->exceeded.set[TP_RES_MEMORY] = true;
	rep->exceeded.value[TP_RES_MEMORY] = l->value[TP_RES_MEMORY];
	warn_msg("limit exceeded: memory %g %s (the kernel's OOM killer stopped the task)",
		 l->value[TP_RES_MEMORY], res_info(TP_RES_MEMORY)->unit);
	stop_for_limit(e, e->root, now);
}

bool enforce_admit(const struct tp_enforce *e)
{
	const struct tp_summary *rep = e->fig->rep;

	return !(e->wd->phase == TP_KILLING || rep->exit_type == TP_EXIT_TYPE_LIMITS ||
		 rep->monitor_signal);
}

bool enforce_counted(struct tp_enforce *e, pid_t pid, double now)
{
	const struct tp_limits *l = &e->o->limits;

	if (l->set[TP_RES_MAX_CONCURRENT_PROCESSES] || l->set[TP_RES_TOTAL_PROCESSES])
		enforce_check(e, pid, now);
	return e->wd->phase == TP_RUNNING;
}

void enforce_clock(struct tp_enforce *e, double t)
{
	const struct tp_limits *l = &e->o->limits;
	const struct tp_summary *rep = e->fig->rep;

	e->fig->cur[TP_RES_WALL_TIME] = t;
	e->fig->cur_known[TP_RES_WALL_TIME] = true;
	if (e->wd->phase == TP_RUNNING && limitset_exceeded(l, TP_RES_WALL_TIME, t))
		violation(e, TP_RES_WALL_TIME, e->root, t);
	if (e->wd->phase == TP_RUNNING && l->end_set && !rep->exceeded.end_set &&
	    rep->start + t >= l->end)
		end_violation(e, t);
}

double enforce_deadline(const struct tp_enforce *e)
{
	const struct tp_limits *l = &e->o->limits;
	const struct tp_summary *rep = e->fig->rep;
	double at = 1e300, kill = watchdog_deadline(e->wd);

	if (l->set[TP_RES_WALL_TIME] && !rep->exceeded.set[TP_RES_WALL_TIME])
		at = l->value[TP_RES_WALL_TIME] + 1e-4;
	if (l->end_set && !rep->exceeded.end_set && l->end - rep->start < at)
		at = l->end - rep->start + 1e-4;
	return kill < at ? kill : at;
}

double enforce_next_delay(const struct tp_enforce *e, double delay)
{
	static const enum tp_res mem[] = { TP_RES_MEMORY, TP_RES_VIRTUAL_MEMORY,
					   TP_RES_SWAP_MEMORY };
	const struct tp_limits *l = &e->o->limits;
	unsigned i;

	for (i = 0; i < sizeof(mem) / sizeof(mem[0]); i++) {
		double room, d;

		if (!l->set[mem[i]])
			continue;
		room = l->value[mem[i]] - e->fig->cur[mem[i]];
		d = room / GROWTH_MB_PER_S;
		/* never slower than 20 Hz while a memory limit is set */
		if (d > 0.05)
			d = 0.05;
		if (d < 0.005)
			d = 0.005;
		if (d < delay)
			delay = d;
	}
	return delay;
}

bool enforce_memory_due(const struct tp_enforce *e, const struct tp_sampler *sm, double now,
			bool sampling, double recheck)
{
	const struct tp_limits *l = &e->o->limits;
	double newest;

	if (!l->set[TP_RES_MEMORY] && !l->set[TP_RES_VIRTUAL_MEMORY])
		return false;
	newest = sm->sums.at > sm->mem_acc.at ? sm->sums.at : sm->mem_acc.at;
	return sm->in_mem_pass || (sampling && now - newest >= recheck);
}

void enforce_final(struct tp_enforce *e)
{
	const struct tp_summary *rep = e->fig->rep;
	int r;

	if (!e->o->measure_only)
		return;
	for (r = 0; r < TP_RES__COUNT; r++) {
		e->fig->cur[r] = rep->value[r];
		e->fig->cur_known[r] = rep->known[r];
	}
	enforce_check(e, 0, 0);
}
