/* SPDX-License-Identifier: MIT */
/* ptrace.h: the ptrace backend's constructor (ptrace.c): every process
 * of the tree is a tracee, its events come from wait(). */
#ifndef TPMON_TRACK_PTRACE_H
#define TPMON_TRACK_PTRACE_H

#include <sys/types.h>
#include "track/track.h"

/* A tracker of the tree of @root, whose threads are already tracees (a
 * launched task, or what --pid seized): its state allocated, ptraced set.
 * Never fails. */
struct tp_track *tracees_new(struct tp_ptree *t, const struct tp_track_sink *sink,
			     pid_t self, pid_t root);

#endif
