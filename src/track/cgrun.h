/* SPDX-License-Identifier: MIT */
/* cgrun.h: the cgroups of one run.  Finding a cgroup v2 that tpmon may
 * use, making the run's own cgroups in it, moving tpmon out of the task's
 * way, the guard that kills the task and removes the cgroups if tpmon is
 * SIGKILLed, sweeping what dead tpmons left, and the teardown.
 *
 * Layout, under BASE (tpmon's own cgroup when it holds nothing else, else
 * its parent when that already hands the controllers down, else
 * --cgroup=PATH):
 *
 *   BASE/tpmon-PID-N/            the run
 *   BASE/tpmon-PID-N/monitor     tpmon and its guard (never limited)
 *   BASE/tpmon-PID-N/task        the task's limits and figures
 *   BASE/tpmon-PID-N/task/main   where the task starts (a tpmon inside
 *                                the task makes its run beside it)
 */
#ifndef TPMON_CGRUN_H
#define TPMON_CGRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TP_CGRUN_PATH 4096

struct tp_cgrun {
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
	int guard_fd;			/* closing it wakes the guard; -1 none */
};

/* Find a cgroup v2 that tpmon may use and make the run's cgroups there;
 * tpmon moves itself into the monitor leaf.  @path: --cgroup=PATH, or NULL
 * for auto.  Nothing is created unless a candidate is writable and offers
 * the memory and pids controllers.  Returns an owned run, or NULL with a
 * one-line reason in @why (what is missing). */
struct tp_cgrun *cgrun_open(const char *path, char *why, size_t whysize);

/* Start the guard: a process in the monitor leaf, in a session of its own,
 * that tears the run down (kills the task, removes the cgroups) when
 * tpmon dies without doing it.  Call before tpmon becomes a subreaper and
 * before any thread exists.  0, or -1 after a warning (no guard). */
int cgrun_guard(struct tp_cgrun *c);

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

/* Kill what is left of the task, stop the guard, move tpmon back where
 * it started, remove the run's cgroups and free @c.  NULL is ignored. */
void cgrun_close(struct tp_cgrun *c);

/* A one-line hint for a systemd user who could have a cgroup of their
 * own, or NULL when there is nothing to suggest. */
const char *cgrun_hint(void);

#endif
