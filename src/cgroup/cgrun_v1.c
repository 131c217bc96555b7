/* SPDX-License-Identifier: MIT */
/* cgrun_v1.c: a run's cgroups on a cgroup v1 host (cghost.h), as RHEL 8
 * ships it, or a hybrid one (v1 controllers beside a controller-less v2
 * at /sys/fs/cgroup/unified, as Ubuntu 20.04 and this project's hosts).
 * In each hierarchy used, the run is ORIGIN/tpmon-PID-N/task, ORIGIN being
 * tpmon's own cgroup there: tpmon never writes a file of a cgroup it did
 * not make.  The v1 memory controller holds the limit (memory.memsw too
 * where there is swap accounting), pids.max the backstop; the unified
 * hierarchy, where mounted, gives the membership, cgroup.kill, cpu.stat
 * and the cgroup_skb counters; else the freezer stops the tree for the
 * kill.  As root only for now: a delegated v1 cgroup is not looked for.
 * tpmon and its guard sit in a monitor leaf of the run in the pids
 * hierarchy: a run whose leaf holds no live task was left by a dead tpmon
 * (tpmon and its guard both killed), and the next run in the same
 * cgroups sweeps it once its task has started (cgrun_sweep()). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroup/cgroup.h"
#include "cgroup/cgroup_v1.h"
#include "cgroup/cghost.h"
#include "cgroup/cgrun.h"
#include "basic/messages.h"

/* tpmon's own cgroup in the v1 hierarchy of @which, into c->v1_origin.
 * 0, or -1 when that controller is not mounted or tpmon is in none. */
static int v1_origin(struct tp_cgrun *c, enum tp_cg1 which, const char *mounts,
		     const char *self)
{
	char mnt[TP_CGRUN_PATH], rel[TP_CGRUN_PATH];
	char *out = c->v1_origin[which];

	if (cgroup_parse_mount_of(mounts, "cgroup", cgroup_v1_name(which), mnt, sizeof(mnt)) < 0 ||
	    cgroup_v1_parse_self(self, cgroup_v1_name(which), rel, sizeof(rel)) < 0)
		return -1;
	if (snprintf(out, TP_CGRUN_PATH, "%s%s", mnt, strcmp(rel, "/") ? rel : "") >= TP_CGRUN_PATH) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

/* The unified v2 hierarchy, where mounted: c->mount and c->origin. */
static void v2_origin(struct tp_cgrun *c, const char *mounts, const char *self)
{
	char rel[TP_CGRUN_PATH];

	if (cgroup_parse_mount(mounts, c->mount, sizeof(c->mount)) < 0 ||
	    cgroup_parse_self(self, rel, sizeof(rel)) < 0 ||
	    snprintf(c->origin, sizeof(c->origin), "%s%s", c->mount,
		     strcmp(rel, "/") ? rel : "") >= (int)sizeof(c->origin) ||
	    access(c->origin, W_OK) < 0)
		c->mount[0] = c->origin[0] = '\0';
}

static int find(struct tp_cgrun *c, char *why, size_t size)
{
	char *mounts = cgrun_read_text("/proc/self/mountinfo");
	char *self = cgrun_read_text("/proc/self/cgroup");
	int which, r = 0;

	for (which = 0; mounts && self && which < TP_CG1__COUNT; which++)
		v1_origin(c, (enum tp_cg1)which, mounts, self);
	if (mounts && self)
		v2_origin(c, mounts, self);
	/* without the unified hierarchy, the run is named in memory's */
	if (mounts && !c->origin[0] &&
	    cgroup_parse_mount_of(mounts, "cgroup", "memory", c->mount, sizeof(c->mount)) < 0)
		c->mount[0] = '\0';
	free(mounts);
	free(self);
	if (!c->v1_origin[TP_CG1_MEMORY][0] || !c->v1_origin[TP_CG1_PIDS][0])
		return cgrun_why(why, size, "no cgroup v1 hierarchy holds the memory and pids controllers");
	for (which = 0; which < TP_CG1__COUNT && r == 0; which++)
		if (c->v1_origin[which][0] && access(c->v1_origin[which], W_OK) < 0)
			r = cgrun_why(why, size, "%s is not writable by uid %d (cgroup v1)",
				      c->v1_origin[which], (int)getuid());
	return r;
}

/* Make ORIGIN/NAME and ORIGIN/NAME/task in one hierarchy.  0, or -1. */
static int make_one(const char *origin, const char *name, char *run, char *task,
		    char *why, size_t size)
{
	if (cgroup_join(run, TP_CGRUN_PATH, origin, name) < 0 ||
	    cgroup_join(task, TP_CGRUN_PATH, run, "task") < 0)
		return cgrun_why(why, size, "cgroup path too long");
	if (mkdir(run, 0755) < 0 || mkdir(task, 0755) < 0)
		return cgrun_why(why, size, "cannot create %s: %s", task, strerror(errno));
	return 0;
}

static const char *const run_layout[] = { "task", NULL };
static const char *const pids_layout[] = { "monitor", "task", NULL };

/* Is run @name of the pids hierarchy's ORIGIN @pids dead: this user's,
 * settled, exactly a run, and its monitor leaf holding no live task?
 * The kernel says it: rmdir() of a cgroup fails (EBUSY) while a task
 * lives in it, whichever pid namespace it is in or reads it, and
 * succeeds over zombies that nobody reaps (which pids.current still
 * counts).  The leaf is made again at once, so that the run keeps its
 * layout should the sweep not finish.  The monitor leaf alone is what a
 * tpmon or a sweep killed as it removed the run left (the leaf goes
 * last: cgrun_remove_run()): the same proof, and nothing to kill. */
enum run_state {
	RUN_KEEP,		/* alive, or not a run: never touched */
	RUN_DEAD,		/* a whole run, its maker gone: killed, removed */
	RUN_REMAINS,		/* the mark alone, left by a tpmon or a sweep
				 * killed as it removed the run: removed, with
				 * the run's parts elsewhere, nothing killed */
};

static enum run_state run_state(const char *pids, const char *name)
{
	char run[TP_CGRUN_PATH], mon[TP_CGRUN_PATH];
	bool whole;

	if (cgroup_join(run, sizeof(run), pids, name) < 0 ||
	    cgroup_join(mon, sizeof(mon), run, "monitor") < 0 || !cgrun_settled(run))
		return RUN_KEEP;
	whole = cgrun_is_run(run, pids_layout);
	if ((!whole && !cgrun_is_run_mark(run)) || rmdir(mon) < 0)
		return RUN_KEEP;
	if (mkdir(mon, 0755) < 0)
		debug_msg("cgroup: cannot make %s again: %s", mon, strerror(errno));
	return whole ? RUN_DEAD : RUN_REMAINS;
}

/* Kill what is left in dead run @name, never freezing: cgroup.kill of
 * the unified hierarchy where there is one, else SIGKILL to what the pids
 * hierarchy lists (the freezer's thawed first: a tpmon killed while it
 * killed may have left it frozen).  0 when nothing is left. */
static int kill_dead(const struct tp_cgrun *c, const char *name, uint64_t deadline)
{
	char run[TP_CGRUN_PATH], task[TP_CGRUN_PATH];

	if (c->origin[0] && cgroup_join(run, sizeof(run), c->origin, name) == 0 &&
	    cgrun_is_run(run, run_layout) && cgroup_can_kill(run) &&
	    cgroup_kill_unfrozen(run, cgrun_ms_left(deadline)) < 0)
		return -1;
	if (c->v1_origin[TP_CG1_FREEZER][0] &&
	    cgroup_join(run, sizeof(run), c->v1_origin[TP_CG1_FREEZER], name) == 0 &&
	    cgroup_join(task, sizeof(task), run, "task") == 0 &&
	    cgrun_is_run(run, run_layout))
		cgroup_v1_freeze(task, false, 0);
	if (cgroup_join(run, sizeof(run), c->v1_origin[TP_CG1_PIDS], name) < 0 ||
	    cgroup_join(task, sizeof(task), run, "task") < 0)
		return -1;
	return cgroup_kill_unfrozen(task, cgrun_ms_left(deadline));
}

/* Remove run @name from every hierarchy, the pids one last (it is the
 * run's mark: kept while any other part is left, so that a later sweep
 * finds it), and what an earlier sweep, killed as it removed them, left
 * of the others (cgrun_is_run_part()).  0 when all is gone. */
static int remove_run(const struct tp_cgrun *c, const char *name, uint64_t deadline)
{
	char run[TP_CGRUN_PATH];
	int which, r = 0;

	if (c->origin[0] && cgroup_join(run, sizeof(run), c->origin, name) == 0 &&
	    access(run, F_OK) == 0 && (!cgrun_is_run_part(run, run_layout) ||
				       cgroup_remove(run, cgrun_ms_left(deadline)) < 0))
		r = -1;
	for (which = 0; which < TP_CG1__COUNT; which++)
		if (which != TP_CG1_PIDS && c->v1_origin[which][0] &&
		    cgroup_join(run, sizeof(run), c->v1_origin[which], name) == 0 &&
		    access(run, F_OK) == 0 && (!cgrun_is_run_part(run, run_layout) ||
					       cgroup_remove(run, cgrun_ms_left(deadline)) < 0))
			r = -1;
	if (r < 0 || cgroup_join(run, sizeof(run), c->v1_origin[TP_CG1_PIDS], name) < 0)
		return -1;
	return cgrun_remove_run(run, cgrun_ms_left(deadline));
}

/* Sweep the runs that dead tpmons left in the hierarchies tpmon uses,
 * found by their mark in the pids hierarchy.  How many. */
static int v1_sweep(const struct tp_cgrun *c, uint64_t deadline)
{
	const char *pids = c->v1_origin[TP_CG1_PIDS];
	const char *own = strrchr(c->v1_run[TP_CG1_PIDS], '/');
	uint64_t finish;
	DIR *d = opendir(pids);
	struct dirent *e;
	int n = 0;

	own = own ? own + 1 : "";
	if (!d)
		return 0;
	while ((e = readdir(d)) && cgrun_ms_left(deadline) > 0) {
		enum run_state st;

		if (!cgrun_run_named(e->d_name) || !strcmp(e->d_name, own))
			continue;
		st = run_state(pids, e->d_name);
		if (st == RUN_KEEP)
			continue;
		finish = cgrun_now_ms() + TP_CG_SWEEP_RUN_MS;
		if ((st == RUN_REMAINS || kill_dead(c, e->d_name, finish) == 0) &&
		    remove_run(c, e->d_name, finish) == 0) {
			debug_msg("cgroup: swept %s", e->d_name);
			n++;
		}
	}
	closedir(d);
	return n;
}

/* tpmon into the pids hierarchy's monitor leaf, where its guard will
 * be born: the run's mark of life (cgrun.h). */
static int enter_monitor(struct tp_cgrun *c, char *why, size_t size)
{
	if (cgroup_join(c->monitor, sizeof(c->monitor), c->v1_run[TP_CG1_PIDS], "monitor") < 0)
		return cgrun_why(why, size, "cgroup path too long");
	if (mkdir(c->monitor, 0755) < 0 || cgroup_enter(c->monitor, 0) < 0)
		return cgrun_why(why, size, "cannot move tpmon into %s: %s",
				 c->monitor, strerror(errno));
	c->in_monitor = true;
	return 0;
}

static int v1_open(struct tp_cgrun *c, const char *path, char *why, size_t size)
{
	char name[64];
	size_t nleaf = 0;
	int which;

	(void)path;	/* --cgroup=PATH is for cgroup v2 (cgrun_open()) */
	if (find(c, why, size) < 0)
		return -1;
	cgrun_run_name(name, sizeof(name));
	if (c->origin[0]) {
		if (make_one(c->origin, name, c->run, c->task, why, size) < 0)
			return -1;
		c->leaves[nleaf++] = c->task;
		c->kill_file = cgroup_can_kill(c->task) && !getenv("TPMON_CGROUP_NO_KILL_FILE");
	}
	for (which = 0; which < TP_CG1__COUNT; which++) {
		if (!c->v1_origin[which][0])
			continue;
		if (make_one(c->v1_origin[which], name, c->v1_run[which], c->v1_task[which],
			     why, size) < 0)
			return -1;
		c->leaves[nleaf++] = c->v1_task[which];
	}
	if (enter_monitor(c, why, size) < 0)
		return -1;
	c->procs = c->task[0] ? c->task : c->v1_task[TP_CG1_PIDS];
	c->name = (c->task[0] ? c->task : c->v1_task[TP_CG1_MEMORY]) + strlen(c->mount);
	snprintf(c->layout, sizeof(c->layout), "%s", c->task[0] ?
		 "cgroup v1 controllers with the unified v2 hierarchy" :
		 "cgroup v1 controllers (no unified v2 hierarchy)");
	return 0;
}

/* Everything in the task's cgroups dies: cgroup.kill of the unified
 * hierarchy (5.14), else the freezer's FROZEN, SIGKILL to every task,
 * THAWED; then SIGKILL to whatever is still listed. */
static int v1_kill(const struct tp_cgrun *c, int wait_ms)
{
	const char *freezer = c->v1_task[TP_CG1_FREEZER];

	if (c->task[0] && c->kill_file && cgroup_kill(c->task, wait_ms, true) == 0)
		return 0;
	if (freezer[0] && cgroup_v1_freeze(freezer, true, 1000) == 0) {
		cgroup_kill(freezer, 0, false);
		cgroup_v1_freeze(freezer, false, 0);
	}
	return cgroup_kill(c->procs, wait_ms, false);
}

static void v1_teardown(const struct tp_cgrun *c, pid_t self)
{
	int which, left = 0;

	(void)self;
	if (c->procs && c->procs[0] && access(c->procs, F_OK) == 0)
		v1_kill(c, TP_CG_KILL_WAIT_MS);
	/* out of the monitor leaf (tpmon, or the guard when tpmon is gone) */
	if (c->in_monitor)
		cgroup_enter(c->v1_origin[TP_CG1_PIDS], 0);
	if (c->run[0] && cgroup_remove(c->run, TP_CG_REMOVE_WAIT_MS) < 0)
		left++;
	for (which = 0; which < TP_CG1__COUNT; which++)
		if (which != TP_CG1_PIDS && c->v1_run[which][0] &&
		    cgroup_remove(c->v1_run[which], TP_CG_REMOVE_WAIT_MS) < 0)
			left++;
	/* the pids hierarchy's run is the mark a later sweep looks for:
	 * kept while anything else of the run is */
	if (!left && c->v1_run[TP_CG1_PIDS][0])
		cgrun_remove_run(c->v1_run[TP_CG1_PIDS], TP_CG_REMOVE_WAIT_MS);
}

static int v1_limit(const struct tp_cgrun *c, uint64_t mem_bytes, uint64_t pids)
{
	const char *mem = c->v1_task[TP_CG1_MEMORY];
	int r = 0;

	if (mem_bytes != TP_CG_MAX) {
		uint64_t held = cgrun_mem_limit(mem_bytes);

		r |= cgrun_set(mem, "memory.limit_in_bytes", held);
		/* memory and swap together, with swap accounting: no swap */
		if (cgroup_write_u64(mem, "memory.memsw.limit_in_bytes", held) < 0 && errno != ENOENT)
			r |= cgrun_set(mem, "memory.memsw.limit_in_bytes", held);
	}
	if (pids != TP_CG_MAX)
		r |= cgrun_set(c->v1_task[TP_CG1_PIDS], "pids.max", pids);
	return r ? -1 : 0;
}

static void v1_figures(const struct tp_cgrun *c, struct tp_cg_figures *f)
{
	if (c->task[0])
		cgroup_figures(c->task, f);	/* cpu.stat, with no controller */
	else
		memset(f, 0, sizeof(*f));
	cgroup_v1_figures(c->v1_task, f);
}

const struct tp_cg_host cgrun_v1_host = {
	.name = "cgroup v1",
	.open = v1_open,
	.teardown = v1_teardown,
	.kill = v1_kill,
	.limit = v1_limit,
	.figures = v1_figures,
	.sweep = v1_sweep,
};
