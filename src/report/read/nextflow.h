/* SPDX-License-Identifier: MIT */
/* nextflow.h: Nextflow trace files (trace.txt: tab-separated, a header
 * line naming the fields, '-' for missing; values formatted as "1.2 GB",
 * "35.0%", "1m 3s", "850ms", "2024-01-02 03:04:05.678", or raw with
 * trace.raw = true: bytes, milliseconds, epoch milliseconds). */
#ifndef TPMON_REPORT_NEXTFLOW_H
#define TPMON_REPORT_NEXTFLOW_H

#include <stdbool.h>
#include "report/read/store.h"

struct rp_nextflow;

/* Is @header (the first line, without newline) a trace header: tabs, a
 * field naming the task (name, process, task_id or hash) and one with a
 * measure or its state (realtime, %cpu, peak_rss, status, duration)? */
bool rp_nextflow_detect(const char *header);

/* A reader of the rows under @header, or NULL when it is none. */
struct rp_nextflow *rp_nextflow_new(const char *header);
void rp_nextflow_free(struct rp_nextflow *nf);

/* Row @line (modified in place): a task added to @st (returns 1), a task
 * that did not end here (CACHED, still running: 0), or a row that is not
 * a task (-1). */
int rp_nextflow_row(struct rp_nextflow *nf, struct rp_store *st,
		    const char *path, char *line);

/* Nextflow's value formats, pure: 0 and the value, or -1 (missing or not
 * a value of the kind).  A duration ("850ms", "12.3s", "1h 2m 3s", or
 * raw milliseconds) in seconds; a memory size ("1.2 GB", "512 KB", units
 * of 1024, or raw bytes) in MB (2^20 bytes); a percentage ("35.0%" or raw
 * "35.0"); a date ("yyyy-MM-dd HH:mm:ss.SSS", local time, or raw epoch
 * milliseconds) in seconds since the epoch. */
int rp_nf_duration(const char *s, double *sec);
int rp_nf_memory(const char *s, double *mb);
int rp_nf_percent(const char *s, double *pct);
int rp_nf_date(const char *s, double *epoch);

#endif
