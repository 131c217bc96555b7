/* SPDX-License-Identifier: MIT */
/* cgroup_v1.h: the kernel's cgroup v1 files (Documentation/admin-guide/
 * cgroup-v1/): which hierarchy holds a controller, the figures of the
 * memory, pids and cpuacct controllers, and the freezer.  The
 * readers allocate nothing and use only system calls (the guard calls
 * them after fork()); the rest of one directory's handling (cgroup.procs,
 * removal, kill) is cgroup.h's, whose calls work on v1 directories too. */
#ifndef TPMON_CGROUP_V1_H
#define TPMON_CGROUP_V1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cgroup/cgroup.h"

/* The v1 hierarchies tpmon uses, each named by its controller. */
enum tp_cg1 {
	TP_CG1_MEMORY,
	TP_CG1_PIDS,
	TP_CG1_CPUACCT,
	TP_CG1_FREEZER,
	TP_CG1__COUNT
};

/* "memory", "pids", ... by enum tp_cg1. */
const char *cgroup_v1_name(enum tp_cg1 which);

/* ---- pure parsers (no I/O) ---- */

/* The path ("/a/b") of the v1 hierarchy holding controller @name in
 * /proc/PID/cgroup text ("4:memory:/a/b", "2:cpu,cpuacct:/a/b").  0, or
 * -1 when there is none or it does not fit. */
int cgroup_v1_parse_self(const char *buf, const char *name, char *out, size_t size);

/* ---- the run's task cgroups (async-signal-safe) ---- */

/* Add to @f what the v1 task cgroups @dirs (indexed by enum tp_cg1; ""
 * where that hierarchy is not used) say: memory.usage_in_bytes,
 * memory.max_usage_in_bytes (the peak), memory.oom_control's oom_kill,
 * memory.failcnt, pids.current, cpuacct.usage (and _user, _sys) where
 * @f has no CPU yet.  A figure v1 lacks stays unknown: pids.peak, and the
 * block I/O (blkio does not see writeback in v1, so its bytes would pass
 * off a part as the whole). */
void cgroup_v1_figures(const char dirs[][4096], struct tp_cg_figures *f);

/* freezer.state of @dir: FROZEN (waits up to @wait_ms for the kernel to
 * be done) or THAWED.  0, or -1 (errno). */
int cgroup_v1_freeze(const char *dir, bool frozen, int wait_ms);

#endif
