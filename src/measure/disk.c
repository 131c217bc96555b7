/* SPDX-License-Identifier: MIT */
/* disk.c: directory footprint.  Each file counts the larger of its
 * allocated blocks and its apparent size, so neither errs low: 100,000
 * one-byte files use 400 MB of blocks, and a sparse 20 GB file counts
 * 20 GB (it may fill in, and the engines size later tasks on it, as on
 * resource_monitor's apparent sizes).  Hard links are counted once.  The
 * walk has no depth limit and keeps one directory open at a time.  Runs
 * in its own thread: it only reads the file system and never touches
 * ptrace.  Each directory walked gets an inotify watch first, so that the
 * end knows whether anything changed since the last walk began (then
 * that walk is the footprint, and the end walks nothing); a walk past its
 * bound of entries stops: the tree is not the task's own, and its
 * footprint stays unknown. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "basic/clock.h"
#include "measure/disk.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"

/* A set of (device, inode) pairs, open addressing. */
struct inode_set {
	uint64_t *keys;		/* 0: empty slot */
	size_t n, cap;
};

/* What one walk found. */
struct walk {
	struct tp_disk *d;
	uint64_t bytes;
	long files;
	bool partial;		/* something could not be read */
	bool unwatched;		/* a directory got no inotify watch */
	bool bounded;		/* the first walk: max_entries holds */
	bool over;		/* more entries than max_entries: stopped */
	unsigned long entries;
	struct inode_set links;	/* multiply-linked files counted */
	struct inode_set dirs;	/* directories entered */
};

/* One directory on the path from the walked root to the current one. */
struct frame {
	dev_t dev;
	ino_t ino;
	char *name;		/* in its parent (NULL for the root) */
	char **subdirs;		/* still to walk */
	size_t n, next, cap;
};

struct tp_disk {
	char **dirs;
	double period;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, want_walk, have;
	bool abort_walk;		/* read unlocked by the walk: atomics */
	unsigned long started, done;	/* walks begun, last one completed */
	double mb, when;
	long files;
	bool partial, warned;
	int ino_fd;			/* inotify of the walked directories, or -1 */
	unsigned long watches;		/* the highest wd: at most DISK_MAX_WATCHES */
	unsigned long max_entries;	/* a walk's bound (0: none) */
	bool over;			/* a walk passed it: no figures */
	bool watched;			/* the latest walk watched every directory */
	int nice_beside;		/* the walker's nice value while the task runs */
	pid_t tid;			/* the walker's thread id (0 until it runs) */
};

/* inotify watches one run may add: each costs the kernel about 1 KB,
 * and the user's limit (fs.inotify.max_user_watches) is shared */
#define DISK_MAX_WATCHES 8192
/* What changes a footprint, in a directory or in the files it holds. */
#define DISK_WATCH_MASK (IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | \
			 IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)

static uint64_t inode_key(dev_t dev, ino_t ino)
{
	uint64_t k = ((uint64_t)dev << 40) ^ (uint64_t)ino;

	return k ? k : 1;
}

/* Add (@dev, @ino); true if it was already there. */
static bool seen_before(struct inode_set *s, dev_t dev, ino_t ino)
{
	uint64_t key = inode_key(dev, ino);
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct inode_set bigger = { NULL, 0, s->cap ? s->cap * 2 : 256 };

		bigger.keys = xcalloc(bigger.cap, sizeof(uint64_t));
		for (i = 0; i < s->cap; i++)
			if (s->keys[i]) {
				size_t j = (size_t)(s->keys[i] * 0x9e3779b97f4a7c15ull) & (bigger.cap - 1);

				while (bigger.keys[j])
					j = (j + 1) & (bigger.cap - 1);
				bigger.keys[j] = s->keys[i];
			}
		bigger.n = s->n;
		free(s->keys);
		*s = bigger;
	}
	for (i = (size_t)(key * 0x9e3779b97f4a7c15ull) & (s->cap - 1); s->keys[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->keys[i] == key)
			return true;
	s->keys[i] = key;
	s->n++;
	return false;
}

static bool aborted(const struct walk *w)
{
	return w->over || __atomic_load_n(&w->d->abort_walk, __ATOMIC_RELAXED);
}

/* Watch the directory @fd before it is read: a change after this is
 * queued, one before it is seen by the read. */
static void watch_dir(struct walk *w, int fd)
{
	struct tp_disk *d = w->d;
	char path[64];
	int wd;

	if (d->ino_fd < 0 || d->watches >= DISK_MAX_WATCHES) {
		w->unwatched = true;
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	wd = inotify_add_watch(d->ino_fd, path, DISK_WATCH_MASK);
	if (wd < 0)
		w->unwatched = true;
	else if ((unsigned long)wd > d->watches)
		d->watches = (unsigned long)wd;	/* a directory watched again keeps its wd */
}

/* One more entry; false (the walk stops) past the bound. */
static bool within_bound(struct walk *w)
{
	if (w->bounded && ++w->entries > w->d->max_entries)
		w->over = true;
	return !w->over;
}

/* Something could not be read: the figures become lower bounds.  A file
 * or directory that vanished meanwhile is no loss. */
static void lost_always(struct walk *w, const char *what, int err)
{
	w->partial = true;
	if (!__atomic_exchange_n(&w->d->warned, true, __ATOMIC_RELAXED))
		error_msg("disk walk: cannot read %s: %s (disk and total_files are lower bounds)",
			  what, strerror(err));
}

static void lost(struct walk *w, const char *what, int err)
{
	if (err != ENOENT)
		lost_always(w, what, err);
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

/* The footprint of one entry (a file with several links counts once). */
static void count_entry(struct walk *w, const struct stat *st)
{
	/* a file written through a link elsewhere tells no watch here */
	if (st->st_nlink > 1 && !S_ISDIR(st->st_mode))
		w->unwatched = true;
	if (st->st_nlink > 1 && !S_ISDIR(st->st_mode) &&
	    seen_before(&w->links, st->st_dev, st->st_ino))
		return;
	w->bytes += file_bytes(st);
	if (!S_ISDIR(st->st_mode))
		w->files++;
}

static void frame_add_subdir(struct frame *f, const char *name)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 8;
		f->subdirs = xreallocarray(f->subdirs, f->cap, sizeof(char *));
	}
	f->subdirs[f->n++] = xstrdup(name);
}

static void frame_free(struct frame *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->subdirs[i]);
	free(f->subdirs);
	free(f->name);
}

/* Count every entry of directory @fd and list its subdirectories in @f;
 * @fd stays open. */
static void scan(struct walk *w, int fd, struct frame *f)
{
	int copy;
	DIR *dir;

	watch_dir(w, fd);
	copy = dup(fd);
	dir = copy >= 0 ? fdopendir(copy) : NULL;
	if (!dir) {
		lost(w, f->name ? f->name : "a directory", errno);
		if (copy >= 0)
			close(copy);
		return;
	}
	for (;;) {
		struct dirent *de;
		struct stat st;

		errno = 0;
		de = readdir(dir);
		if (!de) {
			if (errno)
				lost(w, f->name ? f->name : "a directory", errno);
			break;
		}
		if (aborted(w))
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!within_bound(w))
			break;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			lost(w, de->d_name, errno);
			continue;
		}
		count_entry(w, &st);
		if (S_ISDIR(st.st_mode))
			frame_add_subdir(f, de->d_name);
	}
	closedir(dir);
}

/* Open the directory of frame @k by walking down from the root again,
 * checking each step against the frames (used when ".." led elsewhere:
 * the task moved directories during the walk).  -1 if the path changed. */
static int reopen(const char *root, struct frame *stack, size_t k)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t i;

	for (i = 0; fd >= 0; i++) {
		struct stat st;

		if (fstat(fd, &st) < 0 || st.st_dev != stack[i].dev || st.st_ino != stack[i].ino) {
			close(fd);
			return -1;
		}
		if (i == k)
			return fd;
		{
			int sub = openat(fd, stack[i + 1].name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			close(fd);
			fd = sub;
		}
	}
	return -1;
}

/* Step from the directory @fd (the top of *@stack, *@depth deep, room for
 * *@cap frames) into its subdirectory @name: a new frame, scanned.
 * Returns the descriptor of the directory now at the top: @fd itself when
 * @name could not be entered or was walked before. */
static int go_down(struct walk *w, int fd, const char *name, struct frame **stack,
		   size_t *depth, size_t *cap)
{
	struct stat st;
	int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct frame *f;

	if (sub < 0 || fstat(sub, &st) < 0) {
		lost(w, name, errno);
		if (sub >= 0)
			close(sub);
		return fd;
	}
	if (seen_before(&w->dirs, st.st_dev, st.st_ino)) {
		close(sub);
		return fd;
	}
	if (++*depth == *cap) {
		*cap *= 2;
		*stack = xreallocarray(*stack, *cap, sizeof(**stack));
	}
	f = &(*stack)[*depth];
	memset(f, 0, sizeof(*f));
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->name = xstrdup(name);
	close(fd);
	scan(w, sub, f);
	return sub;
}

/* Step from the directory @fd back up to frame @depth's: "..", checked
 * against the device and inode seen on the way down, else the path from
 * @root again.  Returns its descriptor, or -1 (the walk is cut short). */
static int go_up(struct walk *w, const char *root, int fd, struct frame *stack, size_t depth)
{
	struct stat st;
	int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	close(fd);
	if (up >= 0 && (fstat(up, &st) < 0 || st.st_dev != stack[depth].dev ||
			st.st_ino != stack[depth].ino)) {
		close(up);
		up = -1;
	}
	if (up < 0)
		up = reopen(root, stack, depth);
	if (up < 0)
		lost(w, "a directory moved during the walk", EAGAIN);
	return up;
}

/* Walk the tree under @root without recursion and with one descriptor
 * open: down with openat(O_NOFOLLOW), back up with "..", checked against
 * the device and inode seen on the way down.  No depth limit; links are
 * never followed and a directory reached twice (a bind mount of an
 * ancestor) is walked once. */
static void walk_tree(struct walk *w, const char *root)
{
	struct frame *stack;
	size_t depth = 0, cap = 16;
	bool done = false;
	struct stat st;
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		lost_always(w, root, errno);
		if (fd >= 0)
			close(fd);
		return;
	}
	if (seen_before(&w->dirs, st.st_dev, st.st_ino)) {
		close(fd);
		return;
	}
	stack = xcalloc(cap, sizeof(*stack));
	stack[0].dev = st.st_dev;
	stack[0].ino = st.st_ino;
	scan(w, fd, &stack[0]);
	while (fd >= 0 && !aborted(w)) {
		struct frame *top = &stack[depth];

		if (top->next < top->n) {
			fd = go_down(w, fd, top->subdirs[top->next++], &stack, &depth, &cap);
			continue;
		}
		frame_free(top);
		if (depth == 0) {
			done = true;
			break;
		}
		depth--;
		fd = go_up(w, root, fd, stack, depth);
	}
	if (fd >= 0)
		close(fd);
	/* frames left by an abort or a moved directory */
	if (!done)
		for (depth++; depth > 0; depth--)
			frame_free(&stack[depth - 1]);
	free(stack);
}

/* What a walk of every directory found, published by the thread. */
struct walk_sum {
	double mb;
	long files;
	bool partial, unwatched, over;
};

static void walk_all(struct tp_disk *d, struct walk_sum *sum)
{
	struct walk w;
	char **dir;

	memset(&w, 0, sizeof(w));
	w.d = d;
	/* the tree as the task found it: a tree the task fills is its own */
	w.bounded = d->max_entries && !d->have;
	for (dir = d->dirs; *dir && !aborted(&w); dir++)
		walk_tree(&w, *dir);
	free(w.links.keys);
	free(w.dirs.keys);
	sum->files = w.files;
	sum->partial = w.partial;
	sum->unwatched = w.unwatched;
	sum->over = w.over;
	sum->mb = (double)w.bytes / (1024.0 * 1024.0);
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

/* Forget the changes queued so far (under the lock, as a walk begins):
 * what the walk reads is newer. */
static void forget_changes(struct tp_disk *d)
{
	if (d->ino_fd >= 0) {
		char buf[4096];

		while (read(d->ino_fd, buf, sizeof(buf)) > 0)
			;
	}
}

/* Has a change been queued since the latest walk began?  (Under the
 * lock.)  Without a watch on every directory nothing can tell: yes. */
static bool changed_since_walk(struct tp_disk *d)
{
	int queued = 0;

	if (d->ino_fd < 0 || !d->watched)
		return true;
	return ioctl(d->ino_fd, FIONREAD, &queued) < 0 || queued > 0;
}

/* The walk's end, under the lock: its figures published (unless it was
 * aborted), or the bound passed, said once. */
static void publish(struct tp_disk *d, const struct walk_sum *sum, unsigned long mine)
{
	if (sum->over) {
		d->over = true;
		warn_msg("note: %s holds more than %lu entries: not the task's own tree, its "
			 "disk footprint is not measured (disk and total_files null; "
			 "--measure-dir=DIR measures a tree whole)", d->dirs[0], d->max_entries);
	} else if (!__atomic_load_n(&d->abort_walk, __ATOMIC_RELAXED)) {
		d->mb = sum->mb;
		d->files = sum->files;
		d->partial = sum->partial;
		d->watched = !sum->unwatched;
		d->when = clock_mono();
		d->have = true;
		d->done = mine;
	}
	pthread_cond_broadcast(&d->cond);
}

static void *disk_thread(void *arg)
{
	struct tp_disk *d = arg;
	struct walk_sum sum;

	pthread_mutex_lock(&d->lock);
	/* no more favoured than the task while it runs: tpmon's raised
	 * priority would let the first walk slow a short task down */
	d->tid = (pid_t)syscall(SYS_gettid);
	setpriority(PRIO_PROCESS, (id_t)d->tid, d->nice_beside);
	while (!d->stop && !d->over) {
		double t0, took;
		unsigned long mine = ++d->started;

		d->want_walk = false;
		__atomic_store_n(&d->abort_walk, false, __ATOMIC_RELAXED);
		forget_changes(d);
		pthread_mutex_unlock(&d->lock);
		t0 = clock_mono();
		walk_all(d, &sum);
		took = clock_mono() - t0;
		pthread_mutex_lock(&d->lock);
		publish(d, &sum, mine);
		if (d->want_walk)
			continue;	/* asked for a fresh walk: no pause */
		/* a slow walk waits longer, so walking costs at most ~20% */
		wait_period(d, took * 4 > d->period ? took * 4 : d->period);
	}
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

bool disk_shared_dir(const char *path)
{
	static const char *const shared[] = {
		"/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64",
		"/libx32", "/media", "/mnt", "/nix", "/opt", "/proc", "/run", "/sbin",
		"/snap", "/srv", "/sys", "/tmp", "/usr", "/var",
	};
	static const char *const pseudo[] = { "/proc/", "/sys/", "/dev/" };
	size_t i;

	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		if (!strcmp(path, shared[i]))
			return true;
	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if (!strncmp(path, pseudo[i], strlen(pseudo[i])))
			return true;
	return false;
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

struct tp_disk *disk_start(const char *const *dirs, double period, unsigned long max_entries,
			   int nice_beside)
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
	d->max_entries = max_entries;
	d->nice_beside = nice_beside;
	d->ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
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
		if (d->ino_fd >= 0)
			close(d->ino_fd);
		free(d);
		return NULL;
	}
	return d;
}

bool disk_latest(struct tp_disk *d, double *mb, long *files, double *when)
{
	bool have;

	pthread_mutex_lock(&d->lock);
	have = d->have && !d->over;
	*mb = d->mb;
	*files = d->files;
	*when = d->when;
	pthread_mutex_unlock(&d->lock);
	return have;
}

/* Under the lock: wait for the walk in progress, which began before the
 * task's end, unless a change since it began makes it stale already
 * (then it is aborted). */
static void settle(struct tp_disk *d)
{
	int queued = 0;

	while (d->started > d->done && !d->stop && !d->over) {
		if (d->ino_fd < 0 || ioctl(d->ino_fd, FIONREAD, &queued) < 0 || queued > 0) {
			__atomic_store_n(&d->abort_walk, true, __ATOMIC_RELAXED);
			return;
		}
		pthread_cond_wait(&d->cond, &d->lock);
	}
}

bool disk_final(struct tp_disk *d, double *mb, long *files)
{
	bool known;

	pthread_mutex_lock(&d->lock);
	/* the task is over: what is left of the walk is tpmon's own time */
	if (d->tid)
		setpriority(PRIO_PROCESS, (id_t)d->tid, getpriority(PRIO_PROCESS, 0));
	settle(d);
	if (!d->over && !d->stop && (!d->have || changed_since_walk(d))) {
		/* a walk that begins now */
		unsigned long target = d->started + 1;

		d->want_walk = true;
		__atomic_store_n(&d->abort_walk, true, __ATOMIC_RELAXED);
		pthread_cond_broadcast(&d->cond);
		while (d->done < target && !d->stop && !d->over)
			pthread_cond_wait(&d->cond, &d->lock);
	}
	known = d->have && !d->over;
	*mb = d->mb;
	*files = d->files;
	pthread_mutex_unlock(&d->lock);
	return known;
}

bool disk_partial(struct tp_disk *d)
{
	bool partial;

	pthread_mutex_lock(&d->lock);
	partial = d->partial;
	pthread_mutex_unlock(&d->lock);
	return partial;
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
	if (d->ino_fd >= 0)
		close(d->ino_fd);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	free(d);
}
