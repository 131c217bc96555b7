/* SPDX-License-Identifier: MIT */
/* readpool.c: summaries read on threads, merged in order (readpool.h).
 * Files are queued in batches of BATCH.  Two batches take turns: while
 * the threads read one, the calling thread merges the one before it into
 * the store and walks on to fill the next, then joins in reading what is
 * left.  A thread takes up to RP_BATCHREAD_SLOTS files at a time, read
 * together (batchread.h).  Each task is kept in its batch's slot, and
 * the slots are merged in order, so the output does not depend on the
 * threads. */
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
#include "report/files/batchread.h"
#include "report/files/infile.h"
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

/* What a thread reads with, kept from one batch to the next: its
 * batch reader, and a buffer for a summary larger than its slots */
struct reading {
	struct rp_batchread *br;
	char *buf;
	size_t cap;
};

struct rp_pool {
	struct rp_store *st;
	rp_pool_slow_fn slow;
	struct rp_cache *cache;
	int jobs;
	size_t slots;		/* the files a thread reads at a time */
	struct batch batches[2];
	struct batch *fill;	/* the one the walk queues into */
	struct batch *busy;	/* the one being read, or NULL */
	/* the threads besides the caller's */
	pthread_t th[RP_JOBS_MAX];
	int nth;
	struct reading own;	/* the caller's */
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

static void reading_init(struct reading *rd, size_t slots)
{
	rd->br = rp_batchread_new(slots);
	rd->buf = NULL;
	rd->cap = 0;
}

static void reading_clear(struct reading *rd)
{
	rp_batchread_free(rd->br);
	free(rd->buf);
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
	/* (a thread alone reads one file at a time, plainly, into one
	 * buffer: through the ring its system time doubled, and 64 buffers
	 * in turn cost its cache; 100k summaries took 1.9-3.0 s, not 1.6) */
	p->slots = p->jobs > 1 ? rp_batchread_slots_for(p->jobs) : 1;
	reading_init(&p->own, p->slots);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	/* (fewer threads when one cannot be made: the caller reads too) */
	for (j = 1; j < p->jobs; j++)
		if (pthread_create(&p->th[p->nth], NULL, worker, p) == 0)
			p->nth++;
	return p;
}

/* Whether the cache's task of @it is the file @dirfd/@name as it is now
 * (the same device, inode, size, mtime and ctime: not read again); the file's
 * stamp is kept in @it for the cache */
static bool cache_fresh(const struct rp_pool *p, struct item *it, int dirfd, const char *name)
{
	struct stat sb;

	if (!p->cache)
		return false;
	it->stamped = fstatat(dirfd, name, &sb, 0) == 0;
	if (it->stamped)
		rp_cache_stamp_of(&it->now, &sb);
	return it->stamped && it->cached && memcmp(&it->now, &it->was, sizeof(it->now)) == 0;
}

/* The file item @it is read from (X.tpmon.json beside X.summary when
 * it->full), in *@other when it is not it->path (the caller frees it) */
static const char *item_file(const struct item *it, char **other)
{
	size_t n = strlen(it->path);

	*other = NULL;
	if (it->full && n > strlen(SUMMARY_EXT))
		*other = xasprintf("%.*s%s", (int)(n - strlen(SUMMARY_EXT)), it->path, FULL_EXT);
	return *other ? *other : it->path;
}

/* @it's task from the text the reader read of it (@len: its length, or
 * what rp_batchread_run() said instead): the scanner's, or none (the
 * reader's own path reads the file again, and says why: a file beyond
 * QUICK_MAX too, so that a huge one is refused by its size, not read) */
static bool scan_text(struct item *it, struct reading *rd, size_t slot, long len,
		      int dirfd, const char *name)
{
	char *text = rp_batchread_text(rd->br, slot);

	if (len == RP_BATCHREAD_LARGER) {
		len = rp_infile_quickat(dirfd, name, QUICK_MAX, &rd->buf, &rd->cap);
		text = rd->buf;
	}
	return len >= 0 && rp_sumscan_fill(&it->task, text, (size_t)len) == 0;
}

/* The tasks of the @m items @items (at most p->slots): the
 * cache's, when it has one for the file as it is now, else the
 * scanner's, the files read together */
static void read_chunk(const struct rp_pool *p, struct item *items, size_t m,
		       struct reading *rd)
{
	int dirfds[RP_BATCHREAD_SLOTS] = { 0 };
	const char *names[RP_BATCHREAD_SLOTS] = { NULL };
	char *others[RP_BATCHREAD_SLOTS];
	long lens[RP_BATCHREAD_SLOTS];
	size_t at[RP_BATCHREAD_SLOTS], j, k = 0;

	for (j = 0; j < m; j++) {
		struct item *it = &items[j];
		const char *path = item_file(it, &others[j]);
		const char *base = strrchr(path, '/');
		bool in_dir = it->dirfd >= 0 && base;
		int dirfd = in_dir ? it->dirfd : AT_FDCWD;
		const char *name = in_dir ? base + 1 : path;

		if (cache_fresh(p, it, dirfd, name)) {
			it->ok = true;
			it->from_full = others[j] != NULL;
			continue;
		}
		rp_task_init(&it->task);	/* (a cached task's strings are the store's) */
		dirfds[k] = dirfd;
		names[k] = name;
		at[k++] = j;
	}
	rp_batchread_run(rd->br, k, dirfds, names, lens);
	for (j = 0; j < k; j++) {
		struct item *it = &items[at[j]];

		/* (declined: the reader says why, and falls back from
		 * X.tpmon.json to X.summary) */
		it->ok = scan_text(it, rd, j, lens[j], dirfds[j], names[j]);
		it->from_full = it->ok && others[at[j]] != NULL;
	}
	for (j = 0; j < m; j++)
		free(others[j]);
}

/* Read the items of @b that no thread has taken yet, a chunk at a time;
 * then count them as done, and wake the caller when they were the
 * last. */
static void read_batch(struct rp_pool *p, struct batch *b, struct reading *rd)
{
	size_t i, k = 0;

	while ((i = atomic_fetch_add(&b->next, p->slots)) < b->n) {
		size_t m = b->n - i < p->slots ? b->n - i : p->slots;

		read_chunk(p, &b->items[i], m, rd);
		k += m;
	}
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
	struct reading rd;

	reading_init(&rd, p->slots);
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
		read_batch(p, b, &rd);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	reading_clear(&rd);
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
	read_batch(p, b, &p->own);
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
	/* (the task is set only where it is read: read_chunk()) */
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
	reading_clear(&p->own);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free(p);
}
