/* SPDX-License-Identifier: MIT */
/* readpool.c: summaries read on threads, merged in order (readpool.h).
 * The queue is a batch of BATCH files: the threads take the next file by
 * an atomic counter, each task is kept in the batch's slot, and the
 * calling thread merges the slots in order once all are read. */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "report/read/readpool.h"
#include "report/read/infile.h"
#include "report/read/reader.h"
#include "report/read/sumscan.h"
#include "basic/xmalloc.h"

#define BATCH 2048
#define SUMMARY_EXT ".summary"
#define FULL_EXT ".tpmon.json"

struct item {
	char *path;		/* owned */
	int dirfd;		/* the directory the file is in, or -1 */
	bool own_fd;		/* dirfd is this item's to close */
	int full;		/* read X.tpmon.json beside it instead */
	bool ok;		/* task read by the scanner or taken from the cache */
	bool from_full;		/* ... from X.tpmon.json */
	bool cached;		/* task holds the cache's entry for the file... */
	struct rp_cache_stamp was;	/* ... read when it was stamped so */
	bool stamped;		/* now holds the file's stat() before it was read */
	struct rp_cache_stamp now;
	struct rp_task task;
};

struct rp_pool {
	struct rp_store *st;
	rp_pool_slow_fn slow;
	struct rp_cache *cache;
	int jobs;
	struct item items[BATCH];
	size_t n;
	atomic_size_t next;
	int dir_src;		/* rp_pool_dir()'s, borrowed; -1: none */
	int dir_dup;		/* its copy for this batch; -1: none yet */
	/* progress */
	bool tty;
	bool shown;
	double t0, last, done;
	size_t files;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct rp_pool *rp_pool_new(struct rp_store *st, int jobs, rp_pool_slow_fn slow,
			    struct rp_cache *cache)
{
	struct rp_pool *p = xcalloc(1, sizeof(*p));

	if (jobs <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (int)n : 1;
	}
	p->jobs = jobs > RP_JOBS_MAX ? RP_JOBS_MAX : jobs;
	p->st = st;
	p->slow = slow;
	p->cache = cache;
	p->dir_src = p->dir_dup = -1;
	p->tty = isatty(STDERR_FILENO);
	p->t0 = p->last = now();
	return p;
}

/* The task of @it from the file @path: the cache's, when it has one for
 * the file as it is now, else the scanner's.  True when either took it. */
static bool scan_file(const struct rp_pool *p, struct item *it, const char *path)
{
	struct rp_task *t = &it->task;
	const char *base = strrchr(path, '/'), *name = it->dirfd >= 0 && base ? base + 1 : path;
	int dirfd = it->dirfd >= 0 && base ? it->dirfd : AT_FDCWD;
	char why[256], *text;
	struct stat sb;
	size_t len = 0;
	bool ok;

	if (p->cache) {
		it->stamped = fstatat(dirfd, name, &sb, 0) == 0;
		if (it->stamped)
			rp_cache_stamp_of(&it->now, &sb);
		/* the same device, inode, size and mtime: not read again */
		if (it->stamped && it->cached && memcmp(&it->now, &it->was, sizeof(it->now)) == 0)
			return true;
	}
	rp_task_init(t);	/* (a cached task's strings are the store's) */
	text = rp_infile_slurpat(dirfd, name, RP_SUMMARY_MAX, "a summary", &len, why,
				 sizeof(why));
	ok = text && rp_sumscan_fill(t, text, len) == 0;
	free(text);
	return ok;
}

static void read_item(const struct rp_pool *p, struct item *it)
{
	size_t n = strlen(it->path);

	if (it->full && n > strlen(SUMMARY_EXT)) {
		char *other = xasprintf("%.*s%s", (int)(n - strlen(SUMMARY_EXT)), it->path,
					FULL_EXT);

		it->ok = it->from_full = scan_file(p, it, other);
		free(other);
		return;		/* declined: the reader says why and falls back */
	}
	it->ok = scan_file(p, it, it->path);
}

static void *worker(void *arg)
{
	struct rp_pool *p = arg;
	size_t i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->n)
		read_item(p, &p->items[i]);
	return NULL;
}

/* Clear the progress line before anything else is written to stderr. */
static void progress_clear(struct rp_pool *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
}

static void progress_show(struct rp_pool *p)
{
	double t = now(), el = t - p->t0;

	if (!p->tty || el < 1 || t - p->last < 0.25)
		return;
	p->last = t;
	fprintf(stderr, "\rtpmon: report: %zu files read, %.0f/s", p->files, p->files / el);
	if (p->done > 0.01 && p->done < 1)
		fprintf(stderr, ", about %.0f s left", el * (1 - p->done) / p->done);
	fputs("\033[K", stderr);
	p->shown = true;
}

void rp_pool_progress(struct rp_pool *p, double done)
{
	p->done = done;
}

/* The slot @it into the store, or the reader's own path when the scanner
 * declined it. */
static void merge(struct rp_pool *p, struct item *it)
{
	if (!it->ok) {
		progress_clear(p);
		p->slow(p->st, it->path, it->full);
	} else if (p->st->n < RP_TASKS_MAX) {
		char *src = it->from_full ?
			    xasprintf("%.*s%s", (int)(strlen(it->path) - strlen(SUMMARY_EXT)),
				      it->path, FULL_EXT) : NULL;
		struct rp_task *t = rp_store_add(p->st, src ? src : it->path);
		const char *source = t->source;

		*t = it->task;
		t->source = source;
		rp_store_seal(p->st);
		if (p->cache && it->stamped)
			rp_cache_put(p->cache, it->path, it->full, &it->now, t);
		free(src);
	} else {
		rp_task_clear(&it->task);
	}
	free(it->path);
}

void rp_pool_flush(struct rp_pool *p)
{
	pthread_t th[RP_JOBS_MAX];
	int nth = 0, j;
	size_t i;

	atomic_store(&p->next, 0);
	for (j = 1; j < p->jobs && (size_t)j < p->n; j++)
		if (pthread_create(&th[nth], NULL, worker, p) == 0)
			nth++;
	worker(p);
	for (j = 0; j < nth; j++)
		pthread_join(th[j], NULL);
	for (i = 0; i < p->n; i++) {
		merge(p, &p->items[i]);
		if (p->items[i].own_fd)
			close(p->items[i].dirfd);
	}
	p->dir_dup = -1;
	p->files += p->n;
	p->n = 0;
	progress_show(p);
}

void rp_pool_add(struct rp_pool *p, const char *path, int full)
{
	struct item *it;

	if (p->n == BATCH)
		rp_pool_flush(p);
	it = &p->items[p->n++];
	it->own_fd = false;
	if (p->dir_src >= 0 && p->dir_dup < 0) {
		/* (-1 when out of descriptors: the path is opened then) */
		p->dir_dup = fcntl(p->dir_src, F_DUPFD_CLOEXEC, 3);
		it->own_fd = p->dir_dup >= 0;
	}
	it->dirfd = p->dir_dup;
	it->path = xstrdup(path);
	it->full = full;
	it->ok = it->from_full = it->stamped = false;
	/* (the task is set only where it is read: scan_file()) */
	it->cached = p->cache &&
		     rp_cache_find(p->cache, p->st, path, full, &it->was, &it->task);
}

void rp_pool_dir(struct rp_pool *p, int dirfd)
{
	p->dir_src = dirfd;
	p->dir_dup = -1;
}

void rp_pool_free(struct rp_pool *p)
{
	if (!p)
		return;
	rp_pool_flush(p);
	progress_clear(p);
	free(p);
}
