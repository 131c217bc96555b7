/* SPDX-License-Identifier: MIT */
/* runsum.h: the whole run at a glance (the page's first lines): tasks by
 * how they ended, core hours and memory GB hours used and allocated, the
 * time span; and the usage of one task, which the footprints add up. */
#ifndef TPMON_REPORT_RUNSUM_H
#define TPMON_REPORT_RUNSUM_H

#include <stddef.h>
#include "report/analyse/analysis.h"

/* Core hours and memory GB hours, kept apart (never added together). */
struct rp_usage {
	double core_h;		/* CPU time, or cores x wall time, in hours */
	double mem_gbh;		/* peak memory (GB) x wall time (h) */
};

struct rp_runsum {
	size_t tasks, succeeded, failed, exhausted, running, notes;
	struct rp_usage used;	/* by every task with a wall time */
	struct rp_usage alloc;	/* allocated, where a record said; NAN: none did */
	double first, last;	/* earliest start, latest end (epoch s); NAN unknown */
};

/* The usage of task @t: what it is known to have used (0 for what is
 * unknown). */
struct rp_usage rp_task_usage(const struct rp_task *t);

/* The memory GB hours that cctools' max seen allocation of group @c
 * leaves unused: (allocation - peak) x wall time, summed over its tasks
 * that ended normally at or under it; 0 without an allocation. */
double rp_group_waste_gbh(const struct rp_store *st, const struct rp_cat *c);

/* Call @fn for each task of the @n groups @c that failed or was stopped
 * at a limit, in the groups' order, at most @max times; returns how many
 * there are. */
size_t rp_runsum_failed(const struct rp_store *st, const struct rp_cat *c, size_t n,
			size_t max, void (*fn)(void *ctx, const struct rp_cat *c,
					       const struct rp_task *t), void *ctx);

/* The summary of the @n analysed groups @c of @st. */
void rp_runsum_compute(const struct rp_store *st, const struct rp_cat *c, size_t n,
		       struct rp_runsum *out);

#endif
