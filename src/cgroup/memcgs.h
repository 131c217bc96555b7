/* SPDX-License-Identifier: MIT */
/* memcgs.h: the memory cgroups that enclose tpmon (v1 memory controller
 * and v2), walked up from /proc/self/cgroup (memcgs_walk(), for other
 * controllers too), plus the run's own cgroup
 * and the machine as a whole (/proc/vmstat): their OOM-kill counters read
 * before and after the task, to tell whose OOM killer stopped it.  Read
 * only: nothing is ever written. */
#ifndef TPMON_MEMCGS_H
#define TPMON_MEMCGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the counters said after the task. */
struct tp_oom_found {
	bool found;		/* a counter rose */
	bool machine;		/* the machine's OOM killer (/proc/vmstat) */
	char cgroup[512];	/* the cgroup whose counter rose (its path in
				 * the hierarchy, "v1 memory:" or "v2:" first) */
	bool limit_known;
	uint64_t limit;		/* its memory limit, bytes */
	char unreadable[512];	/* an enclosing cgroup whose counter could
				 * not be read, or "" */
};

struct tp_memcgs;

/* Note the counters now, @own (a v2 cgroup directory, or NULL) included. */
struct tp_memcgs *memcgs_open(const char *own);

/* Read them again and say which rose (the one with the lowest limit). */
void memcgs_check(const struct tp_memcgs *m, struct tp_oom_found *out);

void memcgs_free(struct tp_memcgs *m);

/* Call @fn with the directory and the name ("v1 cpu:/a/b", "v2:/a/b") of
 * tpmon's own cgroup of controller @ctrl (v1) and of its v2 cgroup, and
 * of every cgroup above them but the root, the deepest first. */
void memcgs_walk(const char *ctrl, void (*fn)(void *arg, const char *dir, const char *name,
					       bool v1), void *arg);

/* Pure: the oom_kill count in memory.events or memory.oom_control text,
 * or in /proc/vmstat.  0, or -1 when it has none. */
int memcgs_parse_count(const char *buf, uint64_t *v);

#endif
