/* SPDX-License-Identifier: MIT */
/* jobs.h: `tpmon report --by=job`: the tasks of one batch job (the
 * summary's job: SLURM_JOB_ID or -V job:NAME; sacct's JobID, its steps
 * folded in) merged across hosts and tasks.  Clocks of different hosts
 * are never compared: a node's span is its own first start to its own
 * last end, and the job's wall time is its longest node span. */
#ifndef TPMON_REPORT_JOBS_H
#define TPMON_REPORT_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "report/read/store.h"

/* One node (host) of a job. */
struct rp_job_node {
	const char *host;	/* borrowed from a task, or NULL: unknown */
	size_t tasks;
	double cpu_time;	/* s, summed over its tasks that gave one */
	double memory;		/* MB: the largest sum of the peaks of its
				 * tasks running at once (an upper bound of
				 * the node's peak), 0 when none gave one */
	double cores;		/* the same of the cores each task asked for
				 * (its engine's allocation), else used */
	double span;		/* s: last end - first start on its clock; NAN */
};

struct rp_job {
	const char *name;	/* borrowed from a task */
	struct rp_job_node *node;	/* owned, by host name */
	size_t nodes, tasks;
	size_t no_cpu;		/* tasks without a CPU time */
	double cpu_time;	/* s, summed */
	double wall;		/* s: the longest node span; NAN unknown */
	double cores;		/* summed over the nodes */
	bool cores_asked;	/* every task's cores were its allocation */
	double efficiency;	/* cpu_time / (cores x wall); NAN unknown */
};

/* The jobs of @st's tasks, sorted by name, into *@out (owned: free with
 * rp_jobs_free()); returns their number.  *@nojob gets the number of
 * tasks that name no job (left out). */
size_t rp_jobs_build(const struct rp_store *st, struct rp_job **out, size_t *nojob);

/* Write the @n jobs @j as the terminal report of --by=job (untrusted
 * names shown escaped).  0, or -1 when @f fails. */
int rp_jobs_text(FILE *f, const struct rp_job *j, size_t n, size_t nojob);

void rp_jobs_free(struct rp_job *j, size_t n);

#endif
