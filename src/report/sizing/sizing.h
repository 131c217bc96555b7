/* SPDX-License-Identifier: MIT */
/* sizing.h: from measurements to requests.  A recommendation per group
 * (cores, memory, disk, wall time) by a strategy (max, quantile:Q, or
 * cctools' max throughput and min waste first allocations) and a replay
 * of the recorded tasks under it with the engine's retry: pure
 * computation on read/ and analyse/ (sizing.c, recommend.c, replay.c).
 * Their writers are write/'s (sizing_out.h), their charts gnuplot/'s
 * (boxplots.h). */
#ifndef TPMON_REPORT_SIZING_H
#define TPMON_REPORT_SIZING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "report/analyse/analysis.h"
#include "report/analyse/runsum.h"
#include "report/read/store.h"

enum rp_strategy { RP_S_MAX, RP_S_QUANTILE, RP_S_THROUGHPUT, RP_S_WASTE, RP_S__COUNT };

struct rp_strat {
	enum rp_strategy s;
	double q;		/* quantile:Q, 0 < Q < 1 */
};

/* Values no task can have: a record that says so is corrupt. */
#define RP_ABSURD_MB (1024.0 * 1024 * 1024)	/* 1 PB */
#define RP_ABSURD_CORES 100000.0
#define RP_ABSURD_SECONDS (366.0 * 86400)	/* a year */

/* Retries of the quantile and max strategies (nf-core's maxRetries). */
#define RP_RETRIES 2

enum rp_engine { RP_E_NEXTFLOW, RP_E_SNAKEMAKE, RP_E_SLURM, RP_E_TASKVINE,
		 RP_E_WORKQUEUE, RP_E__COUNT };

struct rp_emit {
	enum rp_engine engine;
	const char *path;	/* borrowed from argv */
};

#define RP_EMIT_MAX 16

struct rp_sizing_opts {
	bool on;		/* --recommend given */
	struct rp_strat strat;
	double margin;		/* --margin, a share: 0.2 is 20% */
	struct rp_emit emit[RP_EMIT_MAX];
	size_t nemit;
};

/* Why tasks of a group were left out of its recommendation. */
struct rp_excluded {
	size_t failed;		/* failed or stopped at a limit */
	size_t no_memory;	/* no memory figure */
	size_t absurd;		/* a value no task can have */
};

/* One group's recommendation; -1: none (no value, or the engine's
 * default).  has is false when no task could be used. */
struct rp_rec {
	struct rp_strat strat;
	bool has;
	bool fallback;		/* quantile on too few tasks: max instead */
	size_t used;		/* tasks the recommendation comes from */
	size_t need;		/* tasks a quantile needs (fallback) */
	int64_t cores, memory, disk, wall_time;	/* cores, MB, MB, s */
	int64_t retry[RP_A__COUNT];	/* cctools' retry: its max allocation */
	bool retry_memory_only;	/* every failure of the group an OOM kill (its
				 * summaries' ending.cause): a retry raises memory only */
	struct rp_excluded ex;
	/* what tasks stopped at a limit showed they need (their summaries'
	 * retry): the requests are at least these; -1: none */
	int64_t floor_memory, floor_wall_time;
	size_t taught;		/* tasks with a retry */
	bool raised;		/* a request was raised to a floor */
	bool from_retry;	/* no usable task: the requests are the floors */
};

/* Totals of a replay of tasks under requests. */
struct rp_tally {
	size_t tasks, fit, exceeded, failed;	/* failed: not even on retry */
	double mem_alloc, mem_used;	/* MB hours */
	double core_alloc, core_used;	/* core hours */
};

struct rp_replay {
	struct rp_tally rec;	/* under the recommendation */
	size_t req_tasks;	/* tasks whose original request is known */
	struct rp_tally req;	/* under the original requests (those tasks) */
	struct rp_tally rec_same;	/* under the recommendation, same tasks */
};

/* Everything the outputs show: per strategy (the chosen one first), per
 * group, and the totals. */
struct rp_sizing {
	struct rp_sizing_opts opts;
	size_t nstrat;
	struct rp_strat strat[RP_S__COUNT];
	size_t ng;
	struct rp_rec *rec[RP_S__COUNT];	/* [strategy][group], owned */
	struct rp_replay *rep[RP_S__COUNT];	/* [strategy][group], owned */
	struct rp_replay total[RP_S__COUNT];
};

/* --recommend=STRATEGY into @s: max, quantile:Q, throughput, waste.
 * 0, or -1 with the reason in @why. */
int rp_strat_parse(const char *arg, struct rp_strat *s, char *why, size_t len);
/* "max", "quantile:0.95", ...  Returns @buf. */
const char *rp_strat_name(char *buf, size_t len, const struct rp_strat *s);
/* --emit=ENGINE:FILE into @o. 0, or -1 with the reason in @why. */
int rp_emit_parse(const char *arg, struct rp_sizing_opts *o, char *why, size_t len);
/* --margin=SHARE (0.2 or 20%). 0, or -1 with the reason in @why. */
int rp_margin_parse(const char *arg, double *m, char *why, size_t len);

/* Is a task usable for a recommendation?  0 yes, else why not (1 failed,
 * 2 no memory, 3 absurd). */
int rp_task_usable(const struct rp_task *t);

/* Did task @t end short of what it needed, with a retry that says how
 * much (a task stopped at a limit, or killed for memory)? */
bool rp_task_taught(const struct rp_task *t);

/* The recommendation for group @c (analysed, with cctools' allocations)
 * by @s.  @max: --max per allocated resource, < 0 none. */
void rp_recommend(const struct rp_store *st, const struct rp_cat *c,
		  const struct rp_strat *s, double margin,
		  const double max[RP_A__COUNT], struct rp_rec *r);

/* Engine rounding: memory (MB) up to a step, wall time (s) up to whole
 * minutes, cores up to a whole core (within 0.1 of one: down to it). */
int64_t rp_round_memory(double mb);
int64_t rp_round_time(double s);
int64_t rp_round_cores(double cores);

/* Replay group @c's usable tasks under @r (and its strategy's retry);
 * @retry_max: the allocation of a retry for cctools' strategies. */
void rp_replay(const struct rp_store *st, const struct rp_cat *c,
	       const struct rp_rec *r, const double max[RP_A__COUNT],
	       struct rp_replay *out);

/* Compute everything for the @n analysed groups, on @jobs threads (0:
 * one a core; the same results with any number).  Free with
 * rp_sizing_free(). */
void rp_sizing_compute(struct rp_sizing *z, const struct rp_sizing_opts *o,
		       const struct rp_store *st, const struct rp_cat *c, size_t n,
		       const double max[RP_A__COUNT], int jobs);
void rp_sizing_free(struct rp_sizing *z);

/* Footprint of group @c: core hours and memory GB hours of its tasks,
 * apart (tasks with absurd figures left out). */
struct rp_usage rp_footprint(const struct rp_store *st, const struct rp_cat *c);

/* The order of footprints, largest first: core hours, then memory GB
 * hours.  <0 when @a comes first. */
int rp_footprint_cmp(const struct rp_usage *a, const struct rp_usage *b);

#endif
