/* SPDX-License-Identifier: MIT */
/* foreign.h: the records of other tools that `tpmon report` reads beside
 * summaries and transaction logs (Nextflow traces, Snakemake benchmark
 * files, sacct --parsable2), recognised by their first line. */
#ifndef TPMON_REPORT_FOREIGN_H
#define TPMON_REPORT_FOREIGN_H

#include <stddef.h>
#include <stdio.h>
#include "report/read/store.h"

enum rp_format {
	RP_F_NONE,		/* none of these */
	RP_F_NEXTFLOW,
	RP_F_SNAKEMAKE,		/* TSV */
	RP_F_SNAKEMAKE_JSONL,
	RP_F_SACCT,
};

/* What one file gave. */
struct rp_foreign_counts {
	long tasks;		/* tasks added */
	long bad;		/* lines that are no record */
	long too_long;		/* lines longer than RP_TABLE_MAX_LINE, skipped */
	long unended;		/* records of tasks that did not end there */
};

/* The format whose first line @line (without newline) is, or RP_F_NONE. */
enum rp_format rp_foreign_detect(const char *line);

/* The format's name for people: "Nextflow trace". */
const char *rp_foreign_name(enum rp_format fmt);

/* Parse the whole text @text (@len bytes, need not end in a newline) of
 * a file named @path into @st; its format from its first line.  Pure.
 * Returns the format read (RP_F_NONE: not one of these, nothing added). */
enum rp_format rp_foreign_parse_text(struct rp_store *st, const char *path,
				     const char *text, size_t len,
				     struct rp_foreign_counts *c);

/* Read the rest of @f, whose first line @first (already read) is of
 * format @fmt, into @st, until @st holds @max_tasks tasks.  Lines are
 * read at most RP_TABLE_MAX_LINE long; longer ones are skipped and
 * counted. */
void rp_foreign_read(struct rp_store *st, FILE *f, const char *path,
		     enum rp_format fmt, char *first, size_t max_tasks,
		     struct rp_foreign_counts *c);

#endif
