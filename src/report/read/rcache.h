/* SPDX-License-Identifier: MIT */
/* rcache.h: `tpmon report --cache=FILE`: the tasks read from summary
 * files, each with the file's size, mtime and inode, kept between
 * reports, so that a report over a directory that grew reads only the
 * new and changed files.  The file is checked whole (its version, its
 * inputs, a checksum, every value as a summary's) and ignored with a
 * warning when anything is off: the report then reads every file. */
#ifndef TPMON_REPORT_RCACHE_H
#define TPMON_REPORT_RCACHE_H

#include <stdbool.h>
#include <sys/stat.h>
#include "report/read/rtask.h"

/* The largest cache file read. */
#define RP_CACHE_MAX (1024UL << 20)

struct rp_cache;

/* The cache kept in @path for the report of @inputs (@n of them): its
 * entries when the file holds a valid cache for these inputs, none
 * (after one warning when the file exists but is not one) otherwise.
 * Free with rp_cache_free(). */
struct rp_cache *rp_cache_open(const char *path, char *const *inputs, int n);

/* The task kept for the summary @path (read as @full, see readpool.h)
 * when the file read for it still has the size, mtime and inode in @sb:
 * filled into @t (strings copied) with *@from_full; true.  Safe from
 * several threads at once (it only reads). */
bool rp_cache_get(const struct rp_cache *c, const char *path, int full,
		  const struct stat *sb, struct rp_task *t, bool *from_full);

/* Keep @t (copied) for the next report (one thread at a time). */
void rp_cache_put(struct rp_cache *c, const char *path, int full, bool from_full,
		  const struct stat *sb, const struct rp_task *t);

/* Write what was put to the cache file (a temporary file renamed over
 * it).  0, or -1 after a warning.  The cache read before is let go
 * first: rp_cache_get() finds nothing after it. */
int rp_cache_save(struct rp_cache *c);

void rp_cache_free(struct rp_cache *c);

#endif
