/* SPDX-License-Identifier: MIT */
/* analysis.h: what the report says about one group of tasks: counts by
 * how they ended, figures per resource, cctools' first allocations and
 * how well the tasks fit them. */
#ifndef TPMON_REPORT_ANALYSIS_H
#define TPMON_REPORT_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "report/analyse/firstalloc.h"
#include "report/analyse/stats.h"
#include "report/read/store.h"

/* The resources cctools allocates automatically. */
enum rp_ares { RP_A_CORES, RP_A_MEMORY, RP_A_DISK, RP_A__COUNT };

/* The report resource of an allocated resource. */
enum rp_res rp_ares_res(enum rp_ares a);

struct rp_fit {
	double share;	/* of the tasks with a value, those at or under the allocation */
	double waste;	/* of the allocation x wall time given to those tasks, the unused part */
};

struct rp_cat {
	const struct rp_group *group;
	size_t tasks, succeeded, exhausted, failed;
	size_t running;		/* not ended: their figures are peaks so far */
	size_t notes;		/* the summaries' notes, all tasks together */
	bool shown[RP_RES__COUNT];	/* optional resources only with values */
	struct rp_stats stats[RP_RES__COUNT];
	int64_t alloc[RP_MODE__COUNT][RP_A__COUNT];	/* -1: none */
	struct rp_fit fit[RP_MODE__COUNT][RP_A__COUNT];	/* NAN: none */
};

/* Analyse group @g of @st into @c, in parts that may run side by side on
 * threads: rp_analyse_begin(), then each part below RP_ANALYSE_PARTS
 * once, in any order (the ends counted, each resource's figures, each
 * allocation).  @max[a] is the --max of resource a, < 0 none. */
#define RP_ANALYSE_PARTS (1 + RP_RES__COUNT + RP_A__COUNT)
void rp_analyse_begin(const struct rp_group *g, struct rp_cat *c);
void rp_analyse_part(const struct rp_store *st, const struct rp_group *g,
		     const double max[RP_A__COUNT], struct rp_cat *c, int part);

/* Share and waste of allocation @alloc for the @n samples @s. */
struct rp_fit rp_fit_compute(const struct rp_sample *s, size_t n, double alloc);

#endif
