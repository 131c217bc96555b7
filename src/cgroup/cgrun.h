/* SPDX-License-Identifier: MIT */
/* cgrun.h: the cgroups of one run.  Finding cgroups that tpmon may use,
 * making the run's own cgroups in them, the guard that kills the task and
 * removes the cgroups if tpmon is SIGKILLed, sweeping what dead tpmons
 * left, the kernel's figures and limits, and the teardown.  The host's
 * layout (cgroup v2; v1 controllers with or without the unified v2
 * hierarchy) is behind cghost.h: callers see only these calls.
 *
 * On cgroup v2, under BASE (tpmon's own cgroup when it holds nothing
 * else, else its parent when that already hands the controllers down,
 * else --cgroup=PATH):
 *
 *   BASE/tpmon-PID-N/            the run
 *   BASE/tpmon-PID-N/monitor     tpmon and its guard (never limited)
 *   BASE/tpmon-PID-N/task        the task's limits and figures
 *   BASE/tpmon-PID-N/task/main   where the task starts (a tpmon inside
 *                                the task makes its run beside it)
 *
 * On cgroup v1 (and hybrid) hosts, as root: ORIGIN/tpmon-PID-N/task in
 * each v1 hierarchy used (memory, pids, cpuacct, freezer) and in the
 * unified v2 one where mounted, ORIGIN being tpmon's own cgroup there;
 * tpmon stays in ORIGIN (v1 and a controller-less v2 let a cgroup hold
 * processes and children both), the task starts in the task cgroups,
 * but for the pids hierarchy, where tpmon and its guard sit in
 * ORIGIN/tpmon-PID-N/monitor: that the kernel refuses to remove it
 * (EBUSY) is its word that the run's maker lives, whatever pid namespace
 * asks.
 *
 * The run's monitor leaf is what makes a run sweepable by another
 * tpmon: never a name, a pid or a program's name (issue 41).
 */
#ifndef TPMON_CGRUN_H
#define TPMON_CGRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "cgroup/cgroup.h"
#include "cgroup/cgroup_v1.h"

#define TP_CGRUN_PATH 4096

struct tp_cg_host;
struct tp_cghome;

struct tp_cgrun {
	const struct tp_cg_host *host;	/* the layout's calls (cghost.h) */
	char layout[160];		/* the layout in words, for tracking_reason */
	const char *name;		/* the task's cgroup as the kernel names it */
	const char *procs;		/* the directory whose members are the task */
	const char *leaves[TP_CG1__COUNT + 2];	/* where the task starts, NULL-ended */
	/* cgroup v2 (the unified hierarchy on a hybrid host; "" on pure v1) */
	char mount[TP_CGRUN_PATH];	/* the cgroup2 mount point */
	char origin[TP_CGRUN_PATH];	/* tpmon's cgroup when it started */
	char base[TP_CGRUN_PATH];	/* where the run is made */
	char run[TP_CGRUN_PATH];
	char monitor[TP_CGRUN_PATH];
	char task[TP_CGRUN_PATH];
	char leaf[TP_CGRUN_PATH];
	unsigned controllers;		/* TP_CG_* the task's cgroup has */
	unsigned base_added;		/* TP_CG_* tpmon enabled in BASE */
	bool kill_file;			/* cgroup.kill exists (5.14) */
	bool in_monitor;		/* tpmon is in its monitor leaf (else the guard goes there) */
	bool scoped;			/* in a scope of the user's systemd */
	struct tp_cghome *home;		/* the read-only home (cgrun_home.c) */
	int guard_fd;			/* closing it wakes the guard; -1 none */
	pid_t guard_mid;		/* the guard's parent, not yet reaped; 0 none */
	pid_t maker;			/* tpmon, for the guard */
	/* cgroup v1 (by enum tp_cg1; "" where not used) */
	char v1_origin[TP_CG1__COUNT][TP_CGRUN_PATH];
	char v1_run[TP_CG1__COUNT][TP_CGRUN_PATH];
	char v1_task[TP_CG1__COUNT][TP_CGRUN_PATH];
};

/* The rows cgrun_open() may try beyond the host's own cgroups. */
enum { TP_CG_ALLOW_SCOPE = 1, TP_CG_ALLOW_HOME = 2 };

/* Choose the run's cgroup, the one place that does (the host table of
 * cgrun.c): a cgroup v2 (tpmon moves itself into the monitor leaf), else,
 * with no --cgroup=PATH, the v1 controllers; then, as @allow says, a
 * scope of the user's systemd (v2 there), and tpmon's own cgroup read
 * only (no cgroup of its own: cgrun_own() false).  @path: --cgroup=PATH
 * (cgroup v2), or NULL for auto.  Nothing is created unless a candidate
 * is writable and offers the memory and pids controllers.  Returns an
 * owned run, or NULL; @why says why there is no cgroup of tpmon's own
 * (each row's reason, "; " between), also when the home was taken. */
struct tp_cgrun *cgrun_open(const char *path, unsigned allow, char *why, size_t whysize);

/* Does run @c have cgroups of its own (limits, kill, the stop-free
 * mode)?  Not the read-only home, nor NULL. */
bool cgrun_own(const struct tp_cgrun *c);

/* Is @c in a scope that the user's systemd gave (cgrun_scope.c)? */
bool cgrun_scoped(const struct tp_cgrun *c);

/* The read-only home: has a process of another tree been seen in it
 * (its figures are then not the task's)? */
bool cgrun_shared(const struct tp_cgrun *c);

/* Start the guard: a process in the monitor leaf, in a session of its own,
 * that tears the run down (kills the task, removes the cgroups) when
 * tpmon dies without doing it.  Past @deadline (the monotonic clock of
 * cgrun_now_ms(), in s; 0: none), the run's wall-time limit with room
 * for tpmon's own kill, it wakes a tpmon that has not ended the run
 * (stopped by a task of its user, say) and, a second later, kills the
 * task itself.  Call before tpmon becomes a subreaper and before any
 * thread exists.  The guard is forked by a middle process, which exits
 * at once and is not waited for here (its exit, a few ms on a VM, runs
 * beside the rest of the setup): cgrun_guard_settle() reaps it.  @hook
 * (or NULL): what the guard calls after it ended a run whose tpmon died
 * (forked before any thread, it may allocate there).  0, or -1 after a
 * warning (no guard). */
struct tp_guard_lost;
struct tp_guard_hook {
	/* called in the guard once it has ended a run whose tpmon was gone
	 * without a word, to leave a note in the summary's place; NULL none */
	void (*lost)(void *arg, const struct tp_guard_lost *l);
	void *arg;
	int keep_fd;		/* a descriptor the guard keeps (the pinned output
				 * directory), or -1 */
};
/* What the guard found when it ended such a run. */
struct tp_guard_lost {
	pid_t monitor, guard;	/* tpmon, and the guard itself */
	bool killed;		/* the task's cgroup held processes: killed */
};
int cgrun_guard(struct tp_cgrun *c, double deadline, const struct tp_guard_hook *hook);

/* Reap the guard's middle process, if not yet: the guard is then an
 * orphan of init (or of a subreaper above tpmon), never tpmon's child.
 * Call before tpmon becomes a subreaper and before the task is forked.
 * Nothing for NULL or a run without a guard; cgrun_close() calls it. */
void cgrun_guard_settle(struct tp_cgrun *c);

/* memory.max is the memory limit less this much (64 pages, beyond the
 * pages dying tasks may charge at once), so that the cgroup's peak stays
 * at most the limit. */
#define TP_CG_MEM_HEADROOM (256u * 1024u)

/* Limits on the task's cgroup: memory.max (with memory.swap.max 0 and
 * memory.oom.group 1) when @mem_bytes is not TP_CG_MAX, pids.max when
 * @pids is not TP_CG_MAX.  0, or -1 after a warning. */
int cgrun_limit(const struct tp_cgrun *c, uint64_t mem_bytes, uint64_t pids);

/* Kill everything in the task's cgroup (waits up to @wait_ms). 0 or -1. */
int cgrun_kill(const struct tp_cgrun *c, int wait_ms);

/* The task's cgroup as the kernel names it ("/tpmon-12-3/task"). */
const char *cgrun_name(const struct tp_cgrun *c);

/* The layout in words ("cgroup v1 controllers with the unified v2
 * hierarchy"), borrowed. */
const char *cgrun_layout(const struct tp_cgrun *c);

/* The task's cgroup in a cgroup v2 hierarchy (for cgroup_skb BPF and
 * cgroup ids), or NULL where there is none (pure v1). */
const char *cgrun_v2_task(const struct tp_cgrun *c);

/* The kernel's figures of the task's cgroups (unknown ones flagged). */
void cgrun_figures(const struct tp_cgrun *c, struct tp_cg_figures *f);

/* The processes of the task's cgroups, as an owned array (free it). */
size_t cgrun_members(const struct tp_cgrun *c, pid_t **out);

/* The kernel's OOM kills in the task's cgroups so far. */
uint64_t cgrun_oom_kills(const struct tp_cgrun *c);

/* The monotonic clock, in ms (the guard's deadline is on it). */
uint64_t cgrun_now_ms(void);

/* How long a sweep may go on starting on dead runs, and how long each
 * one it started may take to be killed and removed (a loaded machine
 * still finishes one a run).  It runs after the task has started, and
 * never holds up the task's start. */
#define TP_CG_SWEEP_MS 50
#define TP_CG_SWEEP_RUN_MS 250

/* Sweep the runs beside this one that dead tpmons left, starting on
 * them for TP_CG_SWEEP_MS.  A run is swept only when it is exactly what a tpmon of
 * this user makes (cgrun_is_run()) and the kernel shows its maker gone:
 * its monitor leaf empty (cgroup v2's cgroup.events; on v1, rmdir() of
 * the leaf, which fails while a live task of any pid namespace is in
 * it).  Nothing is frozen.  TPMON_CGROUP_NO_SWEEP skips it. */
void cgrun_sweep(const struct tp_cgrun *c);

/* Kill what is left of the task, stop the guard, move tpmon back where
 * it started, remove the run's cgroups and free @c.  NULL is ignored. */
void cgrun_close(struct tp_cgrun *c);

/* A one-line hint for a systemd user who could have a cgroup of their
 * own, or NULL when there is nothing to suggest. */
const char *cgrun_hint(void);

#endif
