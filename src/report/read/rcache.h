/* SPDX-License-Identifier: MIT */
/* rcache.h: `tpmon report --cache=FILE`: the tasks read from summary
 * files, each with the file's device, inode, size and mtime, kept between
 * reports, so that a report over a directory that grew reads only the
 * new and changed files.  The file is read as a stream, in the order the
 * walk meets the files, and never whole: its checksums are checked in a
 * first pass, every value as a summary's when it is taken; anything off
 * and it is ignored with a warning (the report then reads every file).
 * The new cache is written as the report goes, to a temporary file that
 * replaces the old one at the end. */
#ifndef TPMON_REPORT_RCACHE_H
#define TPMON_REPORT_RCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "report/read/rtask.h"
#include "report/read/store.h"

/* The largest cache file read. */
#define RP_CACHE_MAX (16ULL << 30)

struct rp_cache;

/* What identifies the file a task was read from: its whole identity, so
 * that a file changed in place at the same size with its mtime put back
 * (touch -r) is read again (its ctime, which no user sets, moved). */
struct rp_cache_stamp {
	uint64_t dev, ino, size, sec, nsec, csec, cnsec;
};

/* The stamp of the file whose stat() is @sb. */
void rp_cache_stamp_of(struct rp_cache_stamp *s, const struct stat *sb);

/* The cache kept in @path for the report of @inputs (@n of them): its
 * entries when the file holds a valid cache for these inputs, none
 * (after one warning when the file exists but is not one) otherwise; the
 * new cache begun beside it.  Free with rp_cache_free(). */
struct rp_cache *rp_cache_open(const char *path, char *const *inputs, int n);

/* The walk goes on with input number @i (of those rp_cache_open() was
 * given). */
void rp_cache_input(struct rp_cache *c, int i);

/* The entry kept for the summary @path (read as @full, see readpool.h),
 * if any: its task into @t (the strings interned in @st), the stamp of
 * the file it was read from into @stamp; true.  Called with the paths in
 * the walk's order (the cache's own: input by input, see
 * rp_cache_input()), by one thread: entries before @path are passed over
 * for good. */
bool rp_cache_find(struct rp_cache *c, struct rp_store *st, const char *path, int full,
		   struct rp_cache_stamp *stamp, struct rp_task *t);

/* Keep @t, sealed in the store (its strings interned), read from a file
 * stamped @stamp, for the next report (one thread, in the walk's order). */
void rp_cache_put(struct rp_cache *c, const char *path, int full,
		  const struct rp_cache_stamp *stamp, const struct rp_task *t);

/* Put the new cache in place of the old (renamed over it; a link is
 * followed, a device or a FIFO never replaced).  0, or -1 after a
 * warning (none for a device or a FIFO: the load said). */
int rp_cache_save(struct rp_cache *c);

/* Free; a new cache not saved is removed. */
void rp_cache_free(struct rp_cache *c);

/* For tests that build caches by hand (the fuzzer): write to @path a
 * cache of the inputs @inputs whose one block is the @len bytes at
 * @body, with @count entries: valid checksums around whatever it holds.
 * 0 or -1 (errno). */
int rp_cache_forge(const char *path, char *const *inputs, int n, const void *body,
		   size_t len, uint64_t count);

#endif
