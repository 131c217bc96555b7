/* SPDX-License-Identifier: MIT */
/* lostnote.h: what the summary says when tpmon was gone before the end
 * of its run (killed by the task, by an OOM killer, by a worker's kill
 * -9) and its guard ended the run instead.  The guard writes it, in the
 * summary's place (see lostnote.c). */
#ifndef TPMON_LOSTNOTE_H
#define TPMON_LOSTNOTE_H

#include <stdbool.h>
#include <sys/types.h>
#include "config/options.h"

struct tp_lost {
	double started;		/* wall clock, s: when tpmon began the run */
	double ended;		/* wall clock, s: when the guard ended it */
	pid_t monitor, guard;	/* tpmon, and its guard */
	bool killed;		/* the task was still running: the guard killed it */
};

/* Turn the last checkpoint of the run of @o into a summary of its end
 * as @l says, or write one with no figures where there is none.  A final
 * summary is left as it is.  0, or -1 (errno) when nothing was written. */
int lostnote_write(const struct tp_options *o, const struct tp_lost *l);

#endif
