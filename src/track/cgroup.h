/* SPDX-License-Identifier: MIT */
/* cgroup.h (track): the cgroup backend's constructor (cgroup.c (track)), for
 * --tracking=cgroup: the tree is the processes of the task's cgroup. */
#ifndef TPMON_TRACK_CGROUP_H
#define TPMON_TRACK_CGROUP_H

#include <stdbool.h>
#include <sys/types.h>
#include "track/track.h"

struct tp_cgrun;
struct tp_exitrec;

/* Listen to the proc connector, before the task starts, so that the
 * backend sees every fork, exec and exit of its tree.  Returns the
 * listener (a descriptor for cgmembers_new(), or to close), or -1 without
 * CAP_NET_ADMIN: the counts will be lower bounds. */
int cgmembers_listen(void);

/* A tracker of the tree of @root in the task cgroup of @cg (borrowed),
 * reading @listener (owned from now on; -1: none, tk->counts_partial is
 * set) and @records (taskstats' exit records, exitrec_open_records():
 * owned from now on; NULL: none, tk->exit_records stays false), telling
 * execs to the sink if @exec_events.  Never fails. */
struct tp_track *cgmembers_new(struct tp_ptree *t, const struct tp_track_sink *sink,
			       pid_t self, pid_t root, struct tp_cgrun *cg, int listener,
			       struct tp_exitrec *records, bool exec_events);

#endif
