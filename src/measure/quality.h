/* SPDX-License-Identifier: MIT */
/* quality.h: which of a run's figures are lower bounds.  Every figure of
 * the summary is exact (within the accuracy the man page states for it),
 * a lower bound (named in the summary's lower_bounds), or null (unknown).
 * One function decides, from what the run knows: how the tree was
 * followed, what the task's cgroup answered, and what the measuring code
 * said it missed.  No I/O. */
#ifndef TPMON_QUALITY_H
#define TPMON_QUALITY_H

#include <stdbool.h>
#include "basic/figtable.h"
#include "config/options.h"

/* Every figure (enum tp_fig, basic/figtable.h) has a slot in lower[];
 * its row's quality names the rule that sets it. */

/* What the run knows of its own measurement. */
struct tp_quality_in {
	enum tp_tracking tracked;	/* how the tree was followed (options.h) */
	/* the tracker may have missed processes it could not see born
	 * (--tracking=cgroup without the proc connector, or events lost;
	 * --pid on a tree that kept forking through the attach's scans) */
	bool counts_partial;
	/* an enclosing tpmon traced the whole task: its totals (CPU time,
	 * I/O, processes and their peak) replace ours */
	bool outer_whole;
	bool cgroup_cpu;		/* the task's cgroup's cpu.stat was read */
	bool cgroup_io;			/* its io.stat bytes were read: the reads */
	bool cgroup_left;		/* a process of the tree left the cgroup */
	bool net_exact;			/* every socket of the tree was seen (net.h) */
	/* poll as root: the kernel's records told every birth and end, with
	 * each task's final CPU time and I/O (exitrec.h); cgroup as root:
	 * every event and each task's record came (track/cgroup.c) */
	bool exit_records;
	bool disk_partial;		/* the disk walk could not read everything */
	bool input_partial;		/* open calls missed (opens.h) */
	/* GPU figures from DRM fdinfo, which only samples see (a client
	 * opened and closed between two is missed), or descriptors of the
	 * tree that could not be read */
	bool gpu_sampled;
	bool dmem_read;			/* the cgroup's dmem.current was read: a
					 * peak of samples in every mode */
};

/* The summary's name of figure @f (its row's name). */
const char *quality_fig_name(enum tp_fig f);

/* Set @lower[f] for each figure that may be below the truth in a run
 * described by @in, clear it for the others. */
void quality_lower_bounds(const struct tp_quality_in *in, bool lower[TP_FIG__COUNT]);

#endif
