/* SPDX-License-Identifier: MIT */
/* sacct.h: Slurm's accounting records as `sacct --parsable2` (or
 * --parsable) prints them: '|'-separated, a header of field names, one
 * line per job and one per step (123, 123.batch, 123.extern, 123.0; an
 * array task 123_4 and its steps 123_4.batch).  A job is one task: its
 * own line gives the name, state, elapsed time, CPU time, allocation,
 * node list, start and end; its steps' MaxRSS give the memory. */
#ifndef TPMON_REPORT_SACCT_H
#define TPMON_REPORT_SACCT_H

#include <stdbool.h>
#include "report/read/store.h"

struct rp_sacct;

/* Is @header (a first line, without newline) sacct's: '|'-separated with
 * a JobID or JobIDRaw field? */
bool rp_sacct_detect(const char *header);

/* A reader of the lines under @header, or NULL when it is none. */
struct rp_sacct *rp_sacct_new(const char *header);
void rp_sacct_free(struct rp_sacct *sa);

/* Line @line (modified in place): a job added to @st (1), a step merged
 * into its job or a job not ended (pending, running: 0), or a line that
 * is neither (-1). */
int rp_sacct_row(struct rp_sacct *sa, struct rp_store *st, const char *path,
		 char *line);

/* sacct's formats, pure; 0 and the value, or -1.  A time "[D-][HH:]MM:SS"
 * with an optional fraction (Elapsed, TotalCPU "MM:SS.mmm") in seconds; a
 * size with an optional unit K, M, G, T, P (powers of 1024; no unit:
 * bytes) in MB, and for ReqMem the suffix c (per CPU) or n (per node) of
 * Slurm before 21.08 in *@per (0 none, 'c', 'n'; may be NULL where no
 * suffix is allowed); a date "YYYY-MM-DDTHH:MM:SS" (local time) in
 * seconds since the epoch. */
int rp_sacct_time(const char *s, double *sec);
int rp_sacct_size(const char *s, double *mb, int *per);
int rp_sacct_date(const char *s, double *epoch);

#endif
