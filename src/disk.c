/* disk.c: directory footprint.  Each file counts the larger of its
 * allocated blocks and its apparent size, so neither errs low: 100,000
 * one-byte files use 400 MB of blocks, and a sparse 20 GB file counts
 * 20 GB (it may fill in, and the engines size later tasks on it, as on
 * resource_monitor's apparent sizes).  Hard links are counted once.  Runs in its own thread: it
 * only reads the file system and never touches ptrace. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "disk.h"
#include "error.h"
#include "xmalloc.h"

struct inode_set {
	uint64_t *keys;
	size_t n, cap;
};

struct tp_disk {
	char **dirs;
	double period;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, want_walk, have;
	bool abort_walk;		/* read unlocked by walk_dir(): atomics */
	unsigned long started, done;	/* walks begun, last one completed */
	double mb, when;
	long files;
};

/* Remember a multiply-linked inode; true if it was already counted. */
static bool seen_before(struct inode_set *s, dev_t dev, ino_t ino)
{
	uint64_t key = ((uint64_t)dev << 40) ^ (uint64_t)ino;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->keys[i] == key)
			return true;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->keys = xreallocarray(s->keys, s->cap, sizeof(*s->keys));
	}
	s->keys[s->n++] = key;
	return false;
}

/* What a file counts: the larger of its blocks and its apparent size
 * (directories: their blocks). */
static uint64_t file_bytes(const struct stat *st)
{
	uint64_t blocks = (uint64_t)st->st_blocks * 512;

	if (S_ISREG(st->st_mode) && st->st_size > 0 && (uint64_t)st->st_size > blocks)
		return (uint64_t)st->st_size;
	return blocks;
}

static void walk_dir(struct tp_disk *d, int dfd, uint64_t *bytes, long *files,
		     struct inode_set *links, int depth)
{
	DIR *dir = fdopendir(dfd);
	struct dirent *de;

	if (!dir) {
		close(dfd);
		return;
	}
	while ((de = readdir(dir))) {
		struct stat st;

		if (__atomic_load_n(&d->abort_walk, __ATOMIC_RELAXED))
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (st.st_nlink > 1 && !S_ISDIR(st.st_mode) &&
		    seen_before(links, st.st_dev, st.st_ino))
			continue;
		*bytes += file_bytes(&st);
		if (!S_ISDIR(st.st_mode)) {
			(*files)++;
			continue;
		}
		if (depth < 256) {
			int sub = openat(dirfd(dir), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub >= 0)
				walk_dir(d, sub, bytes, files, links, depth + 1);
		}
	}
	closedir(dir);
}

static void walk_all(struct tp_disk *d, double *mb, long *files)
{
	uint64_t bytes = 0;
	struct inode_set links = { NULL, 0, 0 };
	char **dir;

	*files = 0;
	for (dir = d->dirs; *dir; dir++) {
		int fd = open(*dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd >= 0)
			walk_dir(d, fd, &bytes, files, &links, 0);
	}
	free(links.keys);
	*mb = (double)bytes / (1024.0 * 1024.0);
}

static void wait_period(struct tp_disk *d, double secs)
{
	struct timespec ts;
	double until;

	clock_gettime(CLOCK_REALTIME, &ts);
	until = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + secs;
	ts.tv_sec = (time_t)until;
	ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
	while (!d->stop && !d->want_walk)
		if (pthread_cond_timedwait(&d->cond, &d->lock, &ts) == ETIMEDOUT)
			break;
}

static void *disk_thread(void *arg)
{
	struct tp_disk *d = arg;
	double mb;
	long files;

	pthread_mutex_lock(&d->lock);
	while (!d->stop) {
		double t0, took;
		unsigned long mine = ++d->started;

		d->want_walk = false;
		__atomic_store_n(&d->abort_walk, false, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&d->lock);
		t0 = clock_mono();
		walk_all(d, &mb, &files);
		took = clock_mono() - t0;
		pthread_mutex_lock(&d->lock);
		if (!__atomic_load_n(&d->abort_walk, __ATOMIC_RELAXED)) {
			d->mb = mb;
			d->files = files;
			d->when = clock_mono();
			d->have = true;
			d->done = mine;
		}
		pthread_cond_broadcast(&d->cond);
		if (d->want_walk)
			continue;	/* asked for a fresh walk: no pause */
		/* a slow walk waits longer, so walking costs at most ~20% */
		wait_period(d, took * 4 > d->period ? took * 4 : d->period);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

int disk_check_dirs(const char *const *dirs)
{
	struct stat st;

	for (; *dirs; dirs++)
		if (stat(*dirs, &st) < 0) {
			perror_msg("--measure-dir %s", *dirs);
			return -1;
		} else if (!S_ISDIR(st.st_mode)) {
			error_msg("--measure-dir %s: not a directory", *dirs);
			return -1;
		}
	return 0;
}

struct tp_disk *disk_start(const char *const *dirs, double period)
{
	struct tp_disk *d = xcalloc(1, sizeof(*d));
	size_t n = 0, i;
	sigset_t all, old;
	int err;

	while (dirs[n])
		n++;
	d->dirs = xcalloc(n + 1, sizeof(char *));
	for (i = 0; i < n; i++)
		d->dirs[i] = xstrdup(dirs[i]);
	d->period = period;
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->cond, NULL);
	/* the walker must never take the monitor's signals */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&d->thread, NULL, disk_thread, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		errno = err;
		perror_msg("cannot start the disk walker");
		for (i = 0; i < n; i++)
			free(d->dirs[i]);
		free(d->dirs);
		free(d);
		return NULL;
	}
	return d;
}

bool disk_latest(struct tp_disk *d, double *mb, long *files, double *when)
{
	bool have;

	pthread_mutex_lock(&d->lock);
	have = d->have;
	*mb = d->mb;
	*files = d->files;
	*when = d->when;
	pthread_mutex_unlock(&d->lock);
	return have;
}

void disk_final(struct tp_disk *d, double *mb, long *files)
{
	unsigned long target;

	pthread_mutex_lock(&d->lock);
	/* a walk in progress began before the task's last write: abort it
	 * and wait for one that begins now */
	target = d->started + 1;
	d->want_walk = true;
	__atomic_store_n(&d->abort_walk, true, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&d->cond);
	while (d->done < target && !d->stop)
		pthread_cond_wait(&d->cond, &d->lock);
	*mb = d->mb;
	*files = d->files;
	pthread_mutex_unlock(&d->lock);
}

void disk_stop(struct tp_disk *d)
{
	char **dir;

	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	d->stop = true;
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
	pthread_join(d->thread, NULL);
	for (dir = d->dirs; *dir; dir++)
		free(*dir);
	free(d->dirs);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	free(d);
}
