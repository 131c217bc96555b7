/* SPDX-License-Identifier: MIT */
/* rtask.h: one task as the report sees it (the resources it used, how it
 * ended, where it came from) and the table of the resources it reports. */
#ifndef TPMON_REPORT_RTASK_H
#define TPMON_REPORT_RTASK_H

#include <stdbool.h>
#include "basic/figtable.h"

/* The resources a report shows, in the order it shows them: RP_CORES,
 * RP_MEMORY... (basic/figtable.h's TP_REPORT_FIGURES). */
#define RP_RES_ENUM(name, fig, kind, optional, bucket) RP_##name,
enum rp_res {
	TP_REPORT_FIGURES(RP_RES_ENUM)
	RP_RES__COUNT
};
#undef RP_RES_ENUM

struct rp_res_info {
	int fig;		/* enum tp_fig, its row: summary field ("memory"), unit of the
				 * values ("MB"), CSV column ("memory_MB") */
	enum tp_unit_kind kind;	/* how a [value, unit] pair converts */
	bool optional;		/* shown only when some task has a value */
	double bucket;		/* cctools' histogram bucket size, 0: none */
};

const struct rp_res_info *rp_res_info(enum rp_res r);

/* The row of the table of figures (basic/figtable.h) of @r. */
const struct tp_fig_info *rp_res_fig(enum rp_res r);

/* What an engine gave the task (a transaction log's RUNNING line). */
enum rp_given { RP_G_CORES, RP_G_MEMORY, RP_G_DISK, RP_G_GPUS, RP_G__COUNT };

/* The report resource of @g (for its name and unit) and its CSV column,
 * "alloc_memory_MB". */
enum rp_res rp_given_res(enum rp_given g);
const char *rp_given_csv(enum rp_given g);

/* How a task ended; RP_RUNNING: it has not (a checkpointed summary,
 * "partial": true or exit_type "running"), its figures are peaks so far. */
enum rp_end { RP_SUCCEEDED, RP_EXHAUSTED, RP_FAILED, RP_RUNNING };

/* Where a task was read from: what its figures mean depends on it (the
 * report's notes say how). */
enum rp_kind {
	RP_K_SUMMARY,		/* a tpmon or resource_monitor summary */
	RP_K_TXNLOG,		/* a Work Queue or TaskVine transaction log */
	RP_K_NEXTFLOW,		/* a Nextflow trace file */
	RP_K_SNAKEMAKE,		/* a Snakemake benchmark file */
	RP_K_SACCT,		/* Slurm's sacct --parsable2 */
	RP_K__COUNT
};

struct rp_task {
	double v[RP_RES__COUNT];	/* NAN when unknown */
	double given[RP_G__COUNT];	/* allocated by the engine; NAN unknown */
	double req_wall_time;	/* the wall time requested (a limit), s; NAN unknown */
	/* the summary's retry, what to ask for next time after a limit or an
	 * OOM kill: memory (MB) or wall time (s); NAN when it gave none */
	double retry_memory, retry_wall_time;
	/* what the task read as input, MB; NAN unknown: a summary's
	 * input_size, a Nextflow trace's rchar, Snakemake's input_size_mb
	 * (--benchmark-extended); --recommend=input fits requests on it */
	double input_mb;
	/* the strings: owned, or the store's when @pooled (rp_store_seal()) */
	char *category;		/* or NULL: "default" then */
	char *command;		/* or NULL */
	char *exit_type;	/* or NULL (the summary had none) */
	char *host;		/* or NULL */
	char *cause;		/* or NULL: the summary's end.cause */
	char *detail;		/* or NULL: end.detail, one sentence */
	char *notes;		/* or NULL: the notes' codes, ", " between */
	char *notes_text;	/* or NULL: "code: text" each, "; " between */
	char *job;		/* or NULL: the batch job (the summary's job,
				 * SLURM_JOB_ID or -V job:; sacct's JobID) */
	char *task_id;		/* or NULL: the record's own id of the task
				 * (Nextflow's hash; summaries have none, and
				 * --cache keeps none) */
	size_t nnotes;		/* how many notes the summary gave */
	const char *source;	/* borrowed from the store's list of sources */
	double started, ended;	/* seconds since the epoch; NAN unknown */
	long exit_status;	/* -1 when unknown */
	enum rp_kind kind;
	enum rp_end end;
	bool normal;		/* enters cctools' histograms: exit_type absent or "normal" */
	bool partial;		/* the summary said "partial": true */
	bool pooled;		/* the strings are the store's, not owned */
};

/* How a person finds task @t, a new string (untrusted text: each writer
 * escapes it): a Nextflow task's name (with its tag) and hash,
 * "align (s1) [40/936c81]"; else its category and command, "align:
 * bwa mem ..."; else its category or its record's path. */
char *rp_task_name_dup(const struct rp_task *t);

/* Is @mb an input size a fit may use: finite, from 0 to 1 PB (more is
 * a corrupt record)? */
bool rp_input_mb_usable(double mb);

/* @t empty: every value unknown (NAN), no strings, status unknown. */
void rp_task_init(struct rp_task *t);

/* Free what @t owns (not @t itself; not the strings when pooled). */
void rp_task_clear(struct rp_task *t);

/* Set @t->end and @t->normal from its exit_type and exit_status. */
void rp_task_classify(struct rp_task *t);

#endif
