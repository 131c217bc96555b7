/* SPDX-License-Identifier: MIT */
/* readpool.h: summary files read and scanned on a small pool of threads
 * (sumscan.h), their tasks merged into the store in the order they were
 * queued, so that the report is the same, byte for byte, with any number
 * of threads.  A file the scanner declines is read again on the calling
 * thread by the reader's own path (jansson, its warnings).  While it
 * runs long, a progress line on a terminal's stderr. */
#ifndef TPMON_REPORT_READPOOL_H
#define TPMON_REPORT_READPOOL_H

#include "basic/parfor.h"
#include "report/read/rcache.h"
#include "report/read/store.h"

/* The most threads --jobs may ask for: parfor's (the analysis's too). */
#define RP_JOBS_MAX PARFOR_JOBS_MAX

/* How the reader reads one summary itself: X.summary at @path, or
 * X.tpmon.json beside it first when @full (reader.c's read_summary()). */
typedef void (*rp_pool_slow_fn)(struct rp_store *st, const char *path, int full);

struct rp_pool;

/* A pool filling @st (borrowed) on @jobs threads (the caller's among
 * them; 0: as many as there are cores), @slow for the files it declines;
 * with @cache (borrowed, or NULL), a file unchanged since the cache was
 * written is not read, and each task read is put in the cache.  Free
 * with rp_pool_free(). */
struct rp_pool *rp_pool_new(struct rp_store *st, int jobs, rp_pool_slow_fn slow,
			    struct rp_cache *cache);

/* The files queued from now on are in the open directory @dirfd
 * (borrowed: the pool keeps a copy of it while it needs one; -1: none),
 * and are opened relative to it. */
void rp_pool_dir(struct rp_pool *p, int dirfd);

/* Queue the summary @path (copied), read as @slow would read it with
 * @full.  Read and merged at the latest by the next rp_pool_flush(). */
void rp_pool_add(struct rp_pool *p, const char *path, int full);

/* Read everything queued and merge it into the store, in order. */
void rp_pool_flush(struct rp_pool *p);

/* How much of the input the walk has passed, 0 to 1 (for the estimate
 * of the time left). */
void rp_pool_progress(struct rp_pool *p, double done);

/* Flush, clear the progress line, free. */
void rp_pool_free(struct rp_pool *p);

#endif
