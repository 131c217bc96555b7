/* SPDX-License-Identifier: MIT */
/* cghost.h: the seam between a run's cgroups (cgrun.c) and the host's
 * cgroup layout, private to them.  One implementation per layout:
 *   cgrun_v2.c  a cgroup v2 with the memory and pids controllers (pure v2,
 *               or a delegated v2 cgroup);
 *   cgrun_v1.c  the v1 controllers (memory, pids, cpuacct, freezer), with
 *               the unified v2 hierarchy wherever one is mounted (hybrid)
 *               or without it (pure v1).
 *   cgrun_scope.c a scope the user's systemd gives (sd-bus), then v2 there;
 *   cgrun_home.c  tpmon's own cgroup, read only (Slurm's task cgroup).
 * cgrun_open() tries them in order (hosts[] of cgrun.c).  teardown() and
 * kill() run in the guard after fork(): system calls only, no allocation. */
#ifndef TPMON_CGHOST_H
#define TPMON_CGHOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "cgroup/cgroup.h"
#include "basic/compat.h"
#include "cgroup/cgrun.h"

struct tp_cg_host {
	const char *name;		/* "cgroup v2", "cgroup v1" */
	unsigned needs;			/* TP_CG_ALLOW_* the row is tried with */
	bool read_only;			/* no cgroup of tpmon's own (cgrun_own()) */
	/* find where tpmon may make its run and make it (c->name, c->procs,
	 * c->leaves, c->layout set).  0, or -1 with a one-line @why; the
	 * caller then calls teardown() on what was made */
	int (*open)(struct tp_cgrun *c, const char *path, char *why, size_t size);
	/* kill the task, remove every cgroup of the run, tpmon back where
	 * it started (@self: the caller, tpmon or its guard) */
	void (*teardown)(const struct tp_cgrun *c, pid_t self);
	/* kill everything in the task's cgroups, waiting up to @wait_ms */
	int (*kill)(const struct tp_cgrun *c, int wait_ms);
	/* the kernel-held limits (TP_CG_MAX: none).  0, or -1 (warned) */
	int (*limit)(const struct tp_cgrun *c, uint64_t mem_bytes, uint64_t pids);
	/* the task's figures, unknown ones with their bit clear */
	void (*figures)(const struct tp_cgrun *c, struct tp_cg_figures *f);
	/* remove the runs beside @c that the kernel shows dead tpmons left
	 * (cgrun_sweep()), until @deadline (cgrun_now_ms()).  How many */
	int (*sweep)(const struct tp_cgrun *c, uint64_t deadline);
};

extern const struct tp_cg_host cgrun_v2_host, cgrun_v1_host, cgrun_scope_host, cgrun_home_host;

/* The v2 row's open, which the scope's (cgrun_scope.c) calls once tpmon
 * is in its scope; the scope row's open (the row itself is in
 * cgrun_v2.c, with v2's other calls). */
int cgrun_v2_open(struct tp_cgrun *c, const char *path, char *why, size_t size);
int cgrun_scope_open(struct tp_cgrun *c, const char *path, char *why, size_t size);

enum { TP_CG_KILL_WAIT_MS = 5000, TP_CG_REMOVE_WAIT_MS = 2000 };

/* The whole of a text file (/proc/self/cgroup, mountinfo), malloc'd, or
 * NULL. */
char *cgrun_read_text(const char *path);

/* Format a reason into @why; returns -1 for the caller to return. */
int cgrun_why(char *why, size_t size, const char *fmt, ...) ATTR_FORMAT(3, 4);

/* "tpmon-PID-N": the run's directory name, into @out. */
void cgrun_run_name(char *out, size_t size);

/* Is @name exactly a run's name as cgrun_run_name() makes it,
 * "tpmon-" DECIMAL "-" HEX (at most 5 digits)?  A lookalike is not. */
bool cgrun_run_named(const char *name);

/* Is @run a run that a tpmon of this user made: a directory owned by
 * this effective uid whose subdirectories are exactly the NULL-ended
 * @want ("monitor", "task")?  Anything else is never touched. */
bool cgrun_is_run(const char *run, const char *const *want);
/* The same, or only some of @want (or none): a run's part in a v1
 * hierarchy other than the pids one, where the pids hierarchy's run
 * says whose it is. */
bool cgrun_is_run_part(const char *run, const char *const *want);
/* Is @run this user's with the monitor leaf only: the run's mark, which
 * is removed last (cgrun_remove_run()), what a tpmon or a sweep killed
 * as it removed the run left? */
bool cgrun_is_run_mark(const char *run);

/* Remove run directory @run: its task subtree first, then the rest, so
 * that the monitor leaf (the mark) goes last.  Waits up to @wait_ms for
 * what is dying; 0, or -1 when something is left. */
int cgrun_remove_run(const char *run, int wait_ms);

/* What is left of a @deadline on cgrun_now_ms()'s clock, in ms. */
int cgrun_ms_left(uint64_t deadline);

/* Is run directory @dir older than 10 s, not one being made right now? */
bool cgrun_settled(const char *dir);

/* Write @v to @dir/@file, warning when it fails.  0, or -1. */
int cgrun_set(const char *dir, const char *file, uint64_t v);

/* The memory limit the kernel holds: @mem_bytes less TP_CG_MEM_HEADROOM
 * (pages a dying task may charge past it), for limits big enough. */
uint64_t cgrun_mem_limit(uint64_t mem_bytes);

#endif
