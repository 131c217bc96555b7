/* SPDX-License-Identifier: MIT */
/* readpool.c: summaries read on threads, merged in order (readpool.h).
 * Files are queued in batches of BATCH.  Two batches take turns: while
 * the threads read one, the calling thread merges the one before it into
 * the store and walks on to fill the next, then joins in reading what is
 * left.  Each task is kept in its batch's slot, and the slots are merged
 * in order, so the output does not depend on the threads. */
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
/* The largest summary the threads read (tpmon's are a few kB; up to
 * RP_SUMMARY_MAX, the reader's own path reads them) */
#define QUICK_MAX (1 << 20)
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

struct batch {
	struct item items[BATCH];
	size_t n;
	atomic_size_t next;	/* the next item a thread takes */
	size_t done;		/* items read (under the pool's lock) */
	int active;		/* threads reading it (under the lock) */
};

struct rp_pool {
	struct rp_store *st;
	rp_pool_slow_fn slow;
	struct rp_cache *cache;
	int jobs;
	struct batch batches[2];
	struct batch *fill;	/* the one the walk queues into */
	struct batch *busy;	/* the one being read, or NULL */
	/* the threads besides the caller's */
	pthread_t th[RP_JOBS_MAX];
	int nth;
	pthread_mutex_t lock;
	pthread_cond_t work;	/* a batch was handed out, or quit */
	pthread_cond_t done;	/* a batch's last item was read */
	unsigned long gen;	/* how many batches were handed out */
	bool quit;
	int dir_src;		/* rp_pool_dir()'s, borrowed; -1: none */
	int dir_dup;		/* its copy for the batch being filled; -1: none yet */
	/* progress */
	bool tty;
	bool shown;
	double t0, last, done_share;
	size_t files;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg);

struct rp_pool *rp_pool_new(struct rp_store *st, int jobs, rp_pool_slow_fn slow,
			    struct rp_cache *cache)
{
	struct rp_pool *p = xcalloc(1, sizeof(*p));
	int j;

	p->jobs = parfor_jobs(jobs);
	p->st = st;
	p->slow = slow;
	p->cache = cache;
	p->fill = &p->batches[0];
	p->dir_src = p->dir_dup = -1;
	p->tty = isatty(STDERR_FILENO);
	p->t0 = p->last = now();
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	/* (fewer threads when one cannot be made: the caller reads too) */
	for (j = 1; j < p->jobs; j++)
		if (pthread_create(&p->th[p->nth], NULL, worker, p) == 0)
			p->nth++;
	return p;
}

/* A thread's buffer for the files it reads, kept from one to the next. */
struct text {
	char *buf;
	size_t cap;
};

/* The task of @it from the file @path: the cache's, when it has one for
 * the file as it is now, else the scanner's, read into @txt.  True when
 * either took it. */
static bool scan_file(const struct rp_pool *p, struct item *it, const char *path,
		      struct text *txt)
{
	struct rp_task *t = &it->task;
	const char *base = strrchr(path, '/'), *name = it->dirfd >= 0 && base ? base + 1 : path;
	int dirfd = it->dirfd >= 0 && base ? it->dirfd : AT_FDCWD;
	struct stat sb;
	long len;

	if (p->cache) {
		it->stamped = fstatat(dirfd, name, &sb, 0) == 0;
		if (it->stamped)
			rp_cache_stamp_of(&it->now, &sb);
		/* the same device, inode, size and mtime: not read again */
		if (it->stamped && it->cached && memcmp(&it->now, &it->was, sizeof(it->now)) == 0)
			return true;
	}
	rp_task_init(t);	/* (a cached task's strings are the store's) */
	/* (whatever is not a summary read whole, the reader's own path
	 * reads again, and says why: a file beyond QUICK_MAX too, so that a
	 * huge one is refused by its size, not read) */
	len = rp_infile_quickat(dirfd, name, QUICK_MAX, &txt->buf, &txt->cap);
	return len >= 0 && rp_sumscan_fill(t, txt->buf, (size_t)len) == 0;
}

static void read_item(const struct rp_pool *p, struct item *it, struct text *txt)
{
	size_t n = strlen(it->path);

	if (it->full && n > strlen(SUMMARY_EXT)) {
		char *other = xasprintf("%.*s%s", (int)(n - strlen(SUMMARY_EXT)), it->path,
					FULL_EXT);

		it->ok = it->from_full = scan_file(p, it, other, txt);
		free(other);
		return;		/* declined: the reader says why and falls back */
	}
	it->ok = scan_file(p, it, it->path, txt);
}

/* Read the items of @b that no thread has taken yet; then count them
 * as done, and wake the caller when they were the last. */
static void read_batch(struct rp_pool *p, struct batch *b)
{
	struct text txt = { NULL, 0 };
	size_t i, k = 0;

	while ((i = atomic_fetch_add(&b->next, 1)) < b->n) {
		read_item(p, &b->items[i], &txt);
		k++;
	}
	free(txt.buf);
	pthread_mutex_lock(&p->lock);
	b->done += k;
	b->active--;
	if (b->done == b->n && b->active == 0)
		pthread_cond_broadcast(&p->done);
	pthread_mutex_unlock(&p->lock);
}

/* A thread of the pool: each batch handed out, read until none is left,
 * until the pool quits. */
static void *worker(void *arg)
{
	struct rp_pool *p = arg;
	unsigned long seen = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct batch *b;

		while (!p->quit && (!p->busy || p->gen == seen))
			pthread_cond_wait(&p->work, &p->lock);
		if (p->quit)
			break;
		b = p->busy;
		seen = p->gen;
		b->active++;
		pthread_mutex_unlock(&p->lock);
		read_batch(p, b);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
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
	if (p->done_share > 0.01 && p->done_share < 1)
		fprintf(stderr, ", about %.0f s left",
			el * (1 - p->done_share) / p->done_share);
	fputs("\033[K", stderr);
	p->shown = true;
}

void rp_pool_progress(struct rp_pool *p, double done)
{
	p->done_share = done;
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
		const struct rp_task *t = rp_store_push(p->st, src ? src : it->path, &it->task);

		if (p->cache && it->stamped)
			rp_cache_put(p->cache, it->path, it->full, &it->now, t);
		free(src);
	} else {
		rp_task_clear(&it->task);
	}
	free(it->path);
}

/* Hand the batch being filled out to the threads; the other one is
 * filled from now on (it is empty: merged, or never used). */
static void hand_out(struct rp_pool *p)
{
	struct batch *b = p->fill;

	atomic_store(&b->next, 0);
	b->done = 0;
	b->active = 0;
	pthread_mutex_lock(&p->lock);
	p->busy = b;
	p->gen++;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	p->fill = b == &p->batches[0] ? &p->batches[1] : &p->batches[0];
	p->dir_dup = -1;	/* (the next batch's items get their own copy) */
}

/* Read what is left of the batch handed out, and wait until no thread
 * is in it: it is the caller's alone then. */
static struct batch *drain(struct rp_pool *p)
{
	struct batch *b = p->busy;

	pthread_mutex_lock(&p->lock);
	b->active++;
	pthread_mutex_unlock(&p->lock);
	read_batch(p, b);
	pthread_mutex_lock(&p->lock);
	while (b->done < b->n || b->active > 0)
		pthread_cond_wait(&p->done, &p->lock);
	p->busy = NULL;
	pthread_mutex_unlock(&p->lock);
	return b;
}

/* The drained batch @b into the store, in order; empty after. */
static void merge_batch(struct rp_pool *p, struct batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		merge(p, &b->items[i]);
		if (b->items[i].own_fd)
			close(b->items[i].dirfd);
	}
	p->files += b->n;
	b->n = 0;
	progress_show(p);
}

/* The batch being filled is full: the one handed out before it is read
 * to its end, this one handed out, and the earlier one merged while the
 * threads read this one. */
static void rotate(struct rp_pool *p)
{
	struct batch *prev = p->busy ? drain(p) : NULL;

	hand_out(p);
	if (prev)
		merge_batch(p, prev);
}

void rp_pool_flush(struct rp_pool *p)
{
	if (p->busy)
		merge_batch(p, drain(p));
	if (p->fill->n > 0) {
		hand_out(p);
		merge_batch(p, drain(p));
	}
}

void rp_pool_add(struct rp_pool *p, const char *path, int full)
{
	struct item *it;

	if (p->fill->n == BATCH)
		rotate(p);
	it = &p->fill->items[p->fill->n++];
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
	int j;

	if (!p)
		return;
	rp_pool_flush(p);
	progress_clear(p);
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (j = 0; j < p->nth; j++)
		pthread_join(p->th[j], NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free(p);
}
