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
#include "basic/resources.h"

/* The figures that can be lower bounds: the resources (enum tp_res, the
 * same numbers), then the summary's other figures. */
enum tp_fig {
	TP_FIG_CORES_AVG = TP_RES__COUNT,
	TP_FIG_MEMORY_PSS,
	TP_FIG_GPU_CORES,
	TP_FIG_GPU_CORES_AVG,
	TP_FIG_GPU_TIME,
	TP_FIG_RCHAR,
	TP_FIG_WCHAR,
	TP_FIG_SYSCR,
	TP_FIG_SYSCW,
	TP_FIG_READ_BYTES,
	TP_FIG_WRITE_BYTES,
	TP_FIG_MAX_CONCURRENT_THREADS,
	TP_FIG__COUNT
};

/* How the tree was followed. */
enum tp_tracked {
	TP_TRACKED_PTRACE,	/* started by tpmon, traced from its birth */
	TP_TRACKED_ATTACH,	/* --pid: traced from the attach on */
	TP_TRACKED_POLL,	/* /proc scans at each sample */
	TP_TRACKED_CGROUP,	/* --tracking=cgroup: the cgroup's members */
};

/* What the run knows of its own measurement. */
struct tp_quality_in {
	enum tp_tracked tracked;
	/* the tracker may have missed processes it could not see born
	 * (--tracking=cgroup without the proc connector, or events lost;
	 * --pid on a tree that kept forking through the attach's scans) */
	bool counts_partial;
	/* an enclosing tpmon traced the whole task: its totals (CPU time,
	 * I/O, processes and their peak) replace ours */
	bool outer_whole;
	bool cgroup_cpu;		/* the task's cgroup's cpu.stat was read */
	bool cgroup_io;			/* its io.stat bytes were read: the reads */
	bool net_exact;			/* every socket of the tree was seen (net.h) */
	/* poll as root: the kernel's records told every birth and end, with
	 * each task's final CPU time and I/O (exitrec.h) */
	bool exit_records;
	bool disk_partial;		/* the disk walk could not read everything */
};

/* The summary's name of figure @f. */
const char *quality_fig_name(enum tp_fig f);

/* Set @lower[f] for each figure that may be below the truth in a run
 * described by @in, clear it for the others. */
void quality_lower_bounds(const struct tp_quality_in *in, bool lower[TP_FIG__COUNT]);

#endif
