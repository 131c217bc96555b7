/* SPDX-License-Identifier: MIT */
/* firstalloc.h: the first allocation that cctools' category code
 * (dttools/src/category.c) would choose for one resource of a category,
 * in its three automatic modes, computed the same way from the same
 * measurements: histograms of the tasks that ended normally, buckets of a
 * fixed size keyed by their upper end, each bucket's count and wall-time
 * sum, a top value from every task, strict comparisons, buckets below 1
 * skipped, a cap at the top value and a final rounding up.  Pure. */
#ifndef TPMON_REPORT_ALLOC_H
#define TPMON_REPORT_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rp_mode { RP_MAX_THROUGHPUT, RP_MIN_WASTE, RP_MAX_SEEN, RP_MODE__COUNT };

/* JSON key of a mode: "max_throughput", "min_waste", "max". */
const char *rp_mode_key(enum rp_mode m);
/* Words for people: "max throughput", ... */
const char *rp_mode_label(enum rp_mode m);

/* One task's measurement of the resource.  NAN means unknown (cctools' -1). */
struct rp_sample {
	double value;
	double wall_time;	/* s */
	bool normal;		/* exit_type absent or "normal" */
};

/* Allocations of the @n samples, in task order, for buckets of @bucket
 * units; @max_explicit is the user's maximum (--max), or < 0 for none.
 * out[mode] is the allocation, or -1 where cctools gives none (no task
 * ended normally, or no task has a value). */
void rp_alloc_compute(const struct rp_sample *s, size_t n, double bucket,
		      double max_explicit, int64_t out[RP_MODE__COUNT]);

/* cctools' rounding of @v up to the end of its bucket. */
double rp_alloc_round_up(double v, double bucket);

#endif
