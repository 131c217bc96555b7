/* SPDX-License-Identifier: MIT */
/* polling.h: the /proc-scan backend's constructor (polling.c), for a
 * task that is not traced. */
#ifndef TPMON_TRACK_POLLING_H
#define TPMON_TRACK_POLLING_H

#include <sys/types.h>
#include "track/track.h"

struct tp_exitrec;

/* A tracker of the untraced tree of @root, found by /proc scans, or by
 * the kernel's records @x (owned from now on; NULL: none, see
 * exitrec.h).  Never fails. */
struct tp_track *procscan_new(struct tp_ptree *t, const struct tp_track_sink *sink,
			      pid_t self, pid_t root, struct tp_exitrec *x);

#endif
