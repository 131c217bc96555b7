/* SPDX-License-Identifier: MIT */
/* sizing.h: from measurements to requests.  A recommendation per group
 * (cores, memory, disk, wall time) by a strategy (max, quantile:Q,
 * cctools' max throughput and min waste first allocations, or input:
 * memory and wall time as a line on the input size) and a replay of the
 * recorded tasks under it with the engine's retry: pure computation on
 * read/ and analyse/ (sizing.c, recommend.c, replay.c, byinput.c,
 * inputfit.c).
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

enum rp_strategy { RP_S_MAX, RP_S_QUANTILE, RP_S_THROUGHPUT, RP_S_WASTE, RP_S_INPUT,
		   RP_S__COUNT };

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

/* --recommend=input: a line needs this many tasks with an input size,
 * and a Spearman rank correlation of the peak with the input at least
 * this; it is fitted on the last RP_INPUT_WINDOW of them (Theil-Sen is
 * quadratic).  A retry asks RP_INPUT_GROWTH times the failed attempt's
 * peak (under a limit, the limit it reached), as a summary's retry
 * does.  The margins a replay may choose. */
#define RP_INPUT_MIN_TASKS 5
#define RP_INPUT_MIN_RHO 0.5
#define RP_INPUT_WINDOW 200
#define RP_INPUT_GROWTH 1.5
#define RP_INPUT_NMARGINS 8
extern const double rp_input_margins[RP_INPUT_NMARGINS];

/* The resources a request on the input size covers. */
enum rp_line_res { RP_L_MEMORY, RP_L_WALL_TIME, RP_L__COUNT };

/* One resource's request on the input size: slope * input + icpt, times
 * 1 + margin, rounded as requests are, within [lo, hi]. */
struct rp_line {
	bool on;		/* fitted; else @why says why not */
	const char *why;	/* static text, NULL when on */
	double slope, icpt;	/* MB or s per MB of input; MB or s */
	double rho;		/* Spearman's; NAN when not computed */
	double margin;		/* the share the replay chose */
	int64_t lo, hi;		/* floor (the least peak) and cap (max's request) */
	size_t n;		/* tasks with an input size */
};

enum rp_engine { RP_E_NEXTFLOW, RP_E_SNAKEMAKE, RP_E_SLURM, RP_E_TASKVINE,
		 RP_E_WORKQUEUE, RP_E_HTCONDOR, RP_E__COUNT };

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
	const char *replay_csv;	/* --replay-csv, borrowed from argv */
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
	/* --recommend=input: memory and wall time on the input size; the
	 * fixed requests above are max's (the fallback, and the cap) */
	struct rp_line line[RP_L__COUNT];
	double margin;		/* --margin, of max's requests (the caps) */
};

/* Totals of a replay of tasks under requests. */
struct rp_tally {
	size_t tasks, fit, exceeded, failed;	/* failed: not even on retry */
	size_t attempts_failed;	/* tries that did not fit */
	double lost_h;		/* their charged hours (wall time lost) */
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

/* What one task used, and what it needs to fit (the same, but for a
 * task stopped at a limit: its retry). */
struct rp_use {
	double mem, disk, wall, core_h;
	double need_mem, need_wall;
	bool taught;
};

/* What one try gives. */
struct rp_give {
	double cores, mem, disk, wall;	/* < 0: no limit */
};

/* @t's use in a replay. */
struct rp_use rp_use_of(const struct rp_task *t);

/* Charge try @k (1, 2, ...; 0: a record's own request) of @u under @g to
 * @t; true when it fits (a taught task never fits its first try). */
bool rp_charge(struct rp_tally *t, const struct rp_use *u, const struct rp_give *g, int k);

/* Charge task @task (its use @u) under the request its record carries,
 * without retry, to @t. */
void rp_replay_requested(struct rp_tally *t, const struct rp_use *u, const struct rp_task *task);

/* --recommend=input: group @c's lines on the input size into @r (whose
 * fixed requests are max's), each margin chosen by an online replay. */
void rp_input_fit(const struct rp_store *st, const struct rp_cat *c, struct rp_rec *r,
		  const double max[RP_A__COUNT]);

/* The online replay of group @c under @r (a fitted line): each task's
 * first request from the tasks that ended before it started, a retry
 * RP_INPUT_GROWTH times the failed try's (within --max's @max). */
void rp_replay_input(const struct rp_store *st, const struct rp_cat *c,
		     const struct rp_rec *r, const double max[RP_A__COUNT],
		     struct rp_replay *out);

/* The first request of @l for an input of @input_mb (NAN: unknown):
 * @fixed when the line is off or the input unknown or absurd; else
 * within [lo, hi].  @mem: memory (MB), else wall time (s). */
int64_t rp_line_request(const struct rp_line *l, double input_mb, int64_t fixed, bool mem);

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
