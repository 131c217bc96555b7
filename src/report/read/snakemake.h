/* SPDX-License-Identifier: MIT */
/* snakemake.h: Snakemake benchmark files (a rule's `benchmark:`), as TSV
 * (header "s h:m:s max_rss max_vms max_uss max_pss io_in io_out mean_load
 * cpu_time", tab-separated, then one row per run: several with repeat())
 * and as JSON Lines (one object per run, the same keys), both possibly
 * with the extended columns (jobid, rule_name, wildcards, params, threads,
 * resources, input_size_mb).  "NA" where Snakemake collected nothing, "-"
 * for a figure it could not read. */
#ifndef TPMON_REPORT_SNAKEMAKE_H
#define TPMON_REPORT_SNAKEMAKE_H

#include <stdbool.h>
#include "report/read/store.h"

struct rp_snakemake;

/* Is @line (a first line, without newline) a TSV benchmark header, or
 * (@jsonl) a benchmark record as JSON? */
bool rp_snakemake_detect(const char *line, bool *jsonl);

/* A reader of the rows of a TSV file under @header (NULL: JSON Lines,
 * every line a row), or NULL when @header is no benchmark header. */
struct rp_snakemake *rp_snakemake_new(const char *header);
void rp_snakemake_free(struct rp_snakemake *sm);

/* Row @line (modified in place) of the benchmark file @path: a task added
 * to @st (1), or a row that is not a run (-1).  Its category is the rule:
 * the rule_name field when the file has it, else from @path (see
 * rp_snakemake_rule()). */
int rp_snakemake_row(struct rp_snakemake *sm, struct rp_store *st,
		     const char *path, char *line);

/* The rule of a benchmark file at @path, as Snakemake users lay them out:
 * the name of the file's directory (benchmarks/RULE/SAMPLE.tsv), unless
 * that is benchmark(s) or bench or there is none; then the file name
 * without its extensions (benchmarks/RULE.tsv, RULE.benchmark.txt).
 * Newly allocated. */
char *rp_snakemake_rule(const char *path);

/* Snakemake's h:m:s column ("0:01:02", "1 day, 2:03:04") in seconds; 0,
 * or -1 when it is none. */
int rp_smk_hms(const char *s, double *sec);

/* Snakemake's input_size_mb (--benchmark-extended) in MB: a number, or
 * Snakemake 8's Python dict of each input file's MB ({'a.bam': 1.5}),
 * summed; NAN when it is neither, or a size is negative or not finite. */
double rp_smk_input_mb(const char *s);

#endif
