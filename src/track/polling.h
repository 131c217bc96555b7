/* SPDX-License-Identifier: MIT */
/* polling.h: the /proc-scan backend's constructor (polling.c), for a
 * task that is not traced. */
#ifndef TPMON_TRACK_POLLING_H
#define TPMON_TRACK_POLLING_H

#include <sys/types.h>
#include "track/track.h"

/* A tracker of the untraced tree of @root, found by /proc scans.  Never
 * fails. */
struct tp_track *procscan_new(struct tp_ptree *t, const struct tp_track_sink *sink,
			      pid_t self, pid_t root);

#endif
