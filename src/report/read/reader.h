/* SPDX-License-Identifier: MIT */
/* reader.h: the report's inputs (summary files, directories of them,
 * transaction logs, other tools' records) read into a store, and one
 * summary file read for `tpmon plot`. */
#ifndef TPMON_REPORT_READER_H
#define TPMON_REPORT_READER_H

#include <jansson.h>
#include "report/read/rcache.h"
#include "report/read/store.h"

/* What one input may cost: a summary file's size in bytes, how deep
 * directories are searched (how many tasks a report holds in all is
 * RP_TASKS_MAX, store.h; a transaction log's lines are bounded in
 * txnlog.h). */
#define RP_SUMMARY_MAX (8 << 20)
#define RP_DIR_DEPTH_MAX 64

/* Read @path into @st: a directory is searched recursively (in name
 * order, symbolic links not followed) for *.summary and *.tpmon.json; a
 * file is a summary when it starts with '{', else a transaction log.
 * X.tpmon.json is read instead of X.summary when both exist.  A bad file
 * (not a regular file, too large, not JSON, nested too deep, a measure
 * that is not finite, negative or in an unknown unit, a directory too
 * deep) is skipped with a one-line warning (counted in st->skipped).
 * A directory's summaries are read on @jobs threads (0: one a core;
 * readpool.h), the tasks stored in the same order whatever @jobs; with
 * @cache (or NULL), a summary unchanged since it was cached is not read.
 * Returns 0, or -1 after an error message (missing input, directory
 * without summaries). */
int rp_read_input(struct rp_store *st, const char *path, int jobs,
		  struct rp_cache *cache);

/* The summary file @path as a JSON object, read and checked as the
 * report reads one (a regular file of at most RP_SUMMARY_MAX bytes,
 * rp_summary_parse()): a new reference, or NULL with the reason in @why
 * (the caller's one warning).  For `tpmon plot`, which needs fields that a
 * report task does not keep (limits, the stop). */
json_t *rp_summary_load(const char *path, char *why, size_t whylen);

#endif
