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
 * Runs that dead tpmons left (tpmon and its guard both killed) are swept
 * at the next start in the same cgroups. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kernel/cgroup.h"
#include "kernel/cgroup_v1.h"
#include "track/cghost.h"
#include "track/cgrun.h"
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

/* Is the tpmon that made run @name ("tpmon-PID-N") gone?  On v1 a tpmon
 * never leaves the cgroups it started in: PID free, or taken by a
 * process that is neither in the memory cgroup this tpmon is in
 * (@self_mem) nor a tpmon (one someone moved), is gone.  Anything else
 * is kept: a live run is never swept. */
static bool maker_gone(const char *name, const char *self_mem)
{
	char path[64], mem[TP_CGRUN_PATH];
	char *text, *comm;
	int pid;
	bool gone;

	if (sscanf(name, "tpmon-%d-", &pid) != 1 || pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	errno = 0;
	text = cgrun_read_text(path);
	if (!text)
		return errno == ENOENT || errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	comm = cgrun_read_text(path);
	gone = comm && strcmp(comm, "tpmon\n") != 0 &&
	       cgroup_v1_parse_self(text, "memory", mem, sizeof(mem)) == 0 &&
	       strcmp(mem, self_mem) != 0;
	free(comm);
	free(text);
	return gone;
}

/* Remove the runs in @origin (one hierarchy's) whose tpmon is gone,
 * killing what is left in them (thawed first in the freezer's). */
static void sweep_in(const char *origin, bool freezer, const char *self_mem)
{
	char run[TP_CGRUN_PATH], task[TP_CGRUN_PATH];
	DIR *d = opendir(origin);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "tpmon-", 6) != 0 ||
		    cgroup_join(run, sizeof(run), origin, e->d_name) < 0 ||
		    cgroup_join(task, sizeof(task), run, "task") < 0 ||
		    !cgrun_settled(run) || !maker_gone(e->d_name, self_mem))
			continue;
		if (freezer)
			cgroup_v1_freeze(task, false, 0);
		cgroup_kill(run, TP_CG_KILL_WAIT_MS, false);
		if (cgroup_remove(run, TP_CG_REMOVE_WAIT_MS) == 0)
			debug_msg("cgroup: swept %s", run);
	}
	closedir(d);
}

/* Sweep the dead runs in every hierarchy tpmon uses. */
static void v1_sweep(const struct tp_cgrun *c)
{
	char *self = cgrun_read_text("/proc/self/cgroup");
	char mem[TP_CGRUN_PATH];

	if (self && cgroup_v1_parse_self(self, "memory", mem, sizeof(mem)) == 0) {
		int which;

		if (c->origin[0])
			sweep_in(c->origin, false, mem);
		for (which = 0; which < TP_CG1__COUNT; which++)
			if (c->v1_origin[which][0])
				sweep_in(c->v1_origin[which], which == TP_CG1_FREEZER, mem);
	}
	free(self);
}

static int v1_open(struct tp_cgrun *c, const char *path, char *why, size_t size)
{
	char name[64];
	size_t nleaf = 0;
	int which;

	(void)path;	/* --cgroup=PATH is for cgroup v2 (cgrun_open()) */
	if (find(c, why, size) < 0)
		return -1;
	v1_sweep(c);
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
	int which;

	(void)self;	/* tpmon never left its own cgroups */
	if (c->procs && c->procs[0] && access(c->procs, F_OK) == 0)
		v1_kill(c, TP_CG_KILL_WAIT_MS);
	if (c->run[0])
		cgroup_remove(c->run, TP_CG_REMOVE_WAIT_MS);
	for (which = 0; which < TP_CG1__COUNT; which++)
		if (c->v1_run[which][0])
			cgroup_remove(c->v1_run[which], TP_CG_REMOVE_WAIT_MS);
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
};
