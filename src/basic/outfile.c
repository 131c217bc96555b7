/* SPDX-License-Identifier: MIT */
/* outfile.c: safe creation of output files (see outfile.h).  Names are
 * resolved against the pinned template directory when there is one, the
 * final name is only ever the target of renameat(), and temporary names
 * carry 36 random bits and are created with O_EXCL, retried on a clash. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/outfile.h"
#include "basic/xmalloc.h"

#define CREATE_TRIES 100
#ifndef NAME_MAX
#define NAME_MAX 255
#endif

static int pinned_fd = -1;
static char *pinned_dir;

struct tp_outfile {
	int fd;
	char *path;
	off_t good;		/* end of the last whole record */
	unsigned long lost;
	int err;		/* errno of the first failed append */
	char tail[OUTFILE_TAIL_MAX];	/* what follows the last record */
	size_t tail_len;
};

struct tp_reserve {
	int dfd;		/* owned unless it is pinned_fd */
	int fd;
	char *tmp;		/* its name in dfd; NULL while it has none
				 * (O_TMPFILE: a run killed leaves nothing) */
};

/* Split @path into a directory (malloc'd) and a final component. */
static char *split(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		*base = path;
		return xstrdup(".");
	}
	*base = slash + 1;
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

/* A descriptor for @path's directory (the pinned one when it matches). */
static int dir_fd(const char *path, const char **base)
{
	char *dir = split(path, base);
	int fd;

	if (pinned_dir && !strcmp(dir, pinned_dir)) {
		free(dir);
		return pinned_fd;
	}
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd;
}

static void dir_close(int fd)
{
	if (fd >= 0 && fd != pinned_fd)
		close(fd);
}

/* ---- what another user planted (outfile_planted()) ---- */

/* why the last refusal of this thread was made, for outfile_strerror() */
static _Thread_local char planted_why[160];

static const char *kind_of(mode_t m)
{
	return S_ISLNK(m) ? "a link" : S_ISFIFO(m) ? "a FIFO" : "a file";
}

static bool shared(const struct stat *dir)
{
	return (dir->st_mode & S_ISVTX) && (dir->st_mode & (S_IWOTH | S_IWGRP));
}

bool outfile_shared_dir(const char *dir)
{
	struct stat st;

	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && shared(&st);
}

/* May the entry @st of the directory @dir be followed, opened or
 * replaced?  Only a sticky directory that others (or the group) may
 * write protects its entries from each other; there, one's own or the
 * directory owner's entries only (fs/namei.c: may_follow_link(),
 * may_create_in_sticky()). */
static bool planted_ok(const struct stat *st, const struct stat *dir)
{
	uid_t me = geteuid();

	if (!S_ISLNK(st->st_mode) && !S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode))
		return true;
	if (!shared(dir))
		return true;
	return st->st_uid == me || st->st_uid == dir->st_uid;
}

int outfile_planted_at(int dfd, const char *base)
{
	struct stat st, dir;

	planted_why[0] = '\0';
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstatat(dfd, "", &dir, AT_EMPTY_PATH) < 0)
		return -1;
	if (planted_ok(&st, &dir))
		return 0;
	snprintf(planted_why, sizeof(planted_why),
		 "%s of uid %u in a sticky directory %s may write, not ours (as the kernel's %s refuses)",
		 kind_of(st.st_mode), (unsigned)st.st_uid,
		 dir.st_mode & S_IWOTH ? "others" : "the group",
		 S_ISLNK(st.st_mode) ? "protected_symlinks" : S_ISFIFO(st.st_mode) ?
		 "protected_fifos" : "protected_regular");
	errno = EPERM;
	return -1;
}

/* outfile_planted_at() of @path's last component, in its directory. */
static int planted_entry(const char *path, bool *link)
{
	const char *base;
	char *dir = split(path, &base);
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), r, e;
	struct stat st;

	free(dir);
	*link = false;
	if (dfd < 0)
		return errno == ENOENT ? 0 : -1;
	r = outfile_planted_at(dfd, base);
	e = errno;
	*link = r == 0 && fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
	close(dfd);
	errno = e;
	return r;
}

int outfile_planted(const char *path)
{
	char *target;
	bool link;
	int r;

	if (planted_entry(path, &link) < 0)
		return -1;
	if (!link)
		return 0;
	/* a link allowed: where it leads (every link on the way resolved;
	 * a dangling one makes a new file, which the kernel judges) */
	target = realpath(path, NULL);
	if (!target)
		return 0;
	r = planted_entry(target, &link);
	free(target);
	return r;
}

const char *outfile_strerror(int err)
{
	if (err == EPERM && planted_why[0])
		return planted_why;
	return strerror(err);
}

static void random_suffix(char *out)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	uint64_t r = 0;
	struct timespec ts;
	int i;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		r ^= (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() << 32;
	}
	for (i = 0; i < 6; i++) {
		out[i] = digits[r % 62];
		r /= 62;
	}
	out[6] = '\0';
}

/* Never widen an output the user has narrowed: the new file gets the
 * permissions of the one it replaces when those are a subset. */
static void keep_narrower_mode(int dfd, const char *base, int fd)
{
	struct stat old, cur;

	if (fstatat(dfd, base, &old, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(old.st_mode) ||
	    fstat(fd, &cur) < 0)
		return;
	if ((cur.st_mode & 0777 & ~old.st_mode) != 0)
		fchmod(fd, cur.st_mode & old.st_mode & 0777);
}

/* Create a new temporary file beside @base in @dfd; its name goes to
 * *@tmp (malloc'd).  Returns the descriptor or -1 (errno). */
static int create_tmp(int dfd, const char *base, char **tmp)
{
	int i;

	for (i = 0; i < CREATE_TRIES; i++) {
		char rnd[7];
		int fd;

		random_suffix(rnd);
		*tmp = xasprintf("%s.tmp%s", base, rnd);
		fd = openat(dfd, *tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0) {
			keep_narrower_mode(dfd, base, fd);
			return fd;
		}
		free(*tmp);
		*tmp = NULL;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

static int pwrite_all(int fd, const char *s, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, s, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		s += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Rename @tmp over @base in @dfd, as outfile_planted_at() allows: where
 * nothing was, only if nothing is there still (RENAME_NOREPLACE), so
 * that an entry another user plants after the check is not replaced;
 * then judged again.  0, or -1 (errno). */
static int place(int dfd, const char *tmp, const char *base)
{
	struct stat st;
	int i;

	for (i = 0; i < CREATE_TRIES; i++) {
		if (outfile_planted_at(dfd, base) < 0)
			return -1;
		if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return renameat(dfd, tmp, dfd, base);
		if (renameat2(dfd, tmp, dfd, base, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno == EINVAL || errno == ENOSYS)	/* a file system without it */
			return renameat(dfd, tmp, dfd, base);
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/* Fill @fd with exactly @data (unless NULL: it is filled) and rename it
 * from @tmp to @base; @fd is closed and @tmp gone either way. */
static int finish(int dfd, int fd, const char *tmp, const char *base,
		  const void *data, size_t len)
{
	if ((data && (pwrite_all(fd, data, len, 0) < 0 || ftruncate(fd, (off_t)len) < 0)) ||
	    close(fd) < 0) {
		int e = errno;

		close(fd);
		unlinkat(dfd, tmp, 0);
		errno = e;
		return -1;
	}
	if (place(dfd, tmp, base) < 0) {
		int e = errno;

		unlinkat(dfd, tmp, 0);
		errno = e;
		return -1;
	}
	return 0;
}

/* Write all of @data to the open @fd, in order (a device or a pipe has
 * no offsets).  0 or -1. */
int outfile_write_fd(int fd, const void *data, size_t len)
{
	const char *s = data;

	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write @data into the device or pipe @base of @dfd as it is (opened
 * with @flags added): a rename would put a regular file in the place of
 * /dev/null.  0, -1 (errno), or 1 when it is a pipe no one reads (the
 * caller then replaces it: a task's pipe must not hold up its summary).
 * With O_NONBLOCK left out of @flags, the open waits for a reader, as
 * the shell's > does. */
static int write_in_place(int dfd, const char *base, int flags, const void *data, size_t len)
{
	int fd = openat(dfd, base, O_WRONLY | O_NOCTTY | O_CLOEXEC | flags, 0666), r, e;

	if (fd < 0)
		return errno == ENXIO ? 1 : -1;
	r = fcntl(fd, F_SETFL, 0) < 0 || outfile_write_fd(fd, data, len) < 0 ? -1 : 0;
	e = errno;
	if (close(fd) < 0 && r == 0)
		return -1;
	errno = e;
	return r;
}

/* Is @st a file that is written in place, never replaced? */
static bool in_place(const struct stat *st)
{
	return S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode);
}

int outfile_write(const char *path, const void *data, size_t len)
{
	const char *base;
	int dfd = dir_fd(path, &base), fd, r = -1, e;
	char *tmp = NULL;
	struct stat st;

	if (dfd < 0)
		return -1;
	if (outfile_planted_at(dfd, base) < 0) {
		e = errno;
		dir_close(dfd);
		errno = e;
		return -1;
	}
	/* a device or a pipe by that very name (a link is not followed: it
	 * is replaced, as a task may have put it there) */
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && in_place(&st) &&
	    (r = write_in_place(dfd, base, O_NOFOLLOW | O_NONBLOCK, data ? data : "", data ? len : 0)) <= 0) {
		e = errno;
		dir_close(dfd);
		errno = e;
		return r;
	}
	fd = create_tmp(dfd, base, &tmp);
	if (fd >= 0)
		r = finish(dfd, fd, tmp, base, data, len);
	e = errno;
	free(tmp);
	dir_close(dfd);
	errno = e;
	return r;
}

int outfile_write_named(const char *path, const void *data, size_t len)
{
	struct stat st;

	/* a link is followed, as the shell's > follows it (/dev/stdout is
	 * one): never replaced by a file where it is.  The path is the
	 * user's, not a task's: a FIFO is waited on until its reader opens,
	 * as the shell's > waits (a reader started a moment later is not
	 * a failure); what another user planted is refused */
	if (outfile_planted(path) < 0)
		return -1;
	if (lstat(path, &st) < 0 || (!S_ISLNK(st.st_mode) && !in_place(&st)))
		return outfile_write(path, data, len);
	return write_in_place(AT_FDCWD, path, O_CREAT | O_TRUNC, data, len);
}

struct tp_outfile *outfile_open(const char *path)
{
	const char *base;
	int dfd = dir_fd(path, &base), fd;
	char *tmp = NULL;
	struct tp_outfile *f;

	if (dfd < 0)
		return NULL;
	fd = outfile_planted_at(dfd, base) < 0 ? -1 : create_tmp(dfd, base, &tmp);
	if (fd < 0 || place(dfd, tmp, base) < 0) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlinkat(dfd, tmp, 0);
		}
		free(tmp);
		dir_close(dfd);
		errno = e;
		return NULL;
	}
	free(tmp);
	dir_close(dfd);
	f = xcalloc(1, sizeof(*f));
	f->fd = fd;
	f->path = xstrdup(path);
	return f;
}

struct tp_outfile *outfile_open_output(const char *template, const char *suffix)
{
	char *path = xasprintf("%s.%s", template, suffix);
	struct tp_outfile *f = outfile_open(path);

	if (!f)
		error_msg("cannot write %s: %s", path, outfile_strerror(errno));
	free(path);
	return f;
}

void outfile_set_tail(struct tp_outfile *f, const char *tail)
{
	size_t n = strlen(tail);

	f->tail_len = n < sizeof(f->tail) ? n : sizeof(f->tail);
	memcpy(f->tail, tail, f->tail_len);
}

/* Write @data and then the tail at f->good, in one pwritev() unless the
 * file system takes less: the rest is retried, which gives the real errno
 * (ENOSPC, EDQUOT, EFBIG) if there is no room.  0 or -1. */
static int write_record(const struct tp_outfile *f, const void *data, size_t len)
{
	struct iovec iov[2];
	off_t off = f->good;
	int i = 0;

	iov[0].iov_base = (void *)data;
	iov[0].iov_len = len;
	iov[1].iov_base = (void *)f->tail;
	iov[1].iov_len = f->tail_len;
	for (;;) {
		ssize_t n;

		while (i < 2 && !iov[i].iov_len)
			i++;
		if (i == 2)
			return 0;
		n = pwritev(f->fd, iov + i, 2 - i, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -1;
		}
		off += n;
		for (; n > 0; i++) {
			size_t k = (size_t)n < iov[i].iov_len ? (size_t)n : iov[i].iov_len;

			iov[i].iov_base = (char *)iov[i].iov_base + k;
			iov[i].iov_len -= k;
			n -= (ssize_t)k;
			if (iov[i].iov_len)
				break;
		}
	}
}

/* After a failed append: cut the file back to its last whole record and
 * put the tail back after it (a prefix of the tail is left if only that
 * fits, nothing if not even that). */
static void cut_back(const struct tp_outfile *f)
{
	if (ftruncate(f->fd, f->good) < 0)
		debug_msg("cannot cut %s back: %s", f->path, strerror(errno));
	if (f->tail_len && pwrite_all(f->fd, f->tail, f->tail_len, f->good) < 0)
		debug_msg("no room for the end of %s: %s", f->path, strerror(errno));
}

int outfile_append(struct tp_outfile *f, const void *data, size_t len)
{
	if (write_record(f, data, len) == 0) {
		f->good += (off_t)len;
		return 0;
	}
	if (!f->lost++) {
		f->err = errno;
		warn_msg("cannot write %s (records from here on may be missing): %s",
			 f->path, strerror(f->err));
	}
	cut_back(f);
	return -1;
}

unsigned long outfile_lost(const struct tp_outfile *f)
{
	return f ? f->lost : 0;
}

int outfile_error(const struct tp_outfile *f)
{
	return f ? f->err : 0;
}

const char *outfile_path(const struct tp_outfile *f)
{
	return f->path;
}

/* Copy what @fd holds into a fresh file put in place as @path. */
static int copy_into_place(int fd, const char *path)
{
	const char *base;
	int dfd = dir_fd(path, &base), out, r = -1, e;
	char *tmp = NULL, buf[65536];
	off_t off = 0;
	ssize_t n;

	if (dfd < 0)
		return -1;
	out = outfile_planted_at(dfd, base) < 0 ? -1 : create_tmp(dfd, base, &tmp);
	if (out < 0)
		goto done;
	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		if (pwrite_all(out, buf, (size_t)n, off) < 0)
			break;
		off += n;
	}
	if (n != 0) {
		e = errno;
		close(out);
		unlinkat(dfd, tmp, 0);
		errno = e;
	} else {
		r = finish(dfd, out, tmp, base, NULL, 0);
	}
done:
	e = errno;
	free(tmp);
	dir_close(dfd);
	errno = e;
	return r;
}

/* Is our file still the one under its name?  A task may have removed
 * it, or put a link or another file there. */
static bool still_in_place(const struct tp_outfile *f)
{
	const char *base;
	int dfd = dir_fd(f->path, &base);
	struct stat ours, named;
	bool same;

	if (dfd < 0)
		return true;	/* nothing better can be done */
	same = fstat(f->fd, &ours) == 0 &&
	       fstatat(dfd, base, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
	       ours.st_dev == named.st_dev && ours.st_ino == named.st_ino;
	dir_close(dfd);
	return same;
}

int outfile_close(struct tp_outfile *f)
{
	int r;

	if (!f)
		return 0;
	if (!still_in_place(f) && copy_into_place(f->fd, f->path) < 0 && !f->lost++)
		warn_msg("cannot write %s again after it was replaced: %s", f->path,
			 outfile_strerror(errno));
	r = close(f->fd) < 0 || f->lost ? -1 : 0;
	free(f->path);
	free(f);
	return r;
}

/* Give the unnamed file @fd (O_TMPFILE) a new name beside @base in @dfd,
 * into *@tmp (malloc'd): 0, or -1 (errno). */
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
static int name_tmp(int dfd, int fd, const char *base, char **tmp)
{
	char self[40];
	int i;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	for (i = 0; i < CREATE_TRIES; i++) {
		char rnd[7];

		random_suffix(rnd);
		*tmp = xasprintf("%s.tmp%s", base, rnd);
		/* (AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc, a mounted /proc) */
		if (linkat(fd, "", dfd, *tmp, AT_EMPTY_PATH) == 0 ||
		    (errno != EEXIST && linkat(AT_FDCWD, self, dfd, *tmp, AT_SYMLINK_FOLLOW) == 0))
			return 0;
		free(*tmp);
		*tmp = NULL;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/* The reserve's file: unnamed (O_TMPFILE, so that a run killed at any
 * moment leaves nothing behind) where the file system has them, else a
 * new temporary file beside @base (its name into *@tmp). */
static int reserve_file(int dfd, const char *base, char **tmp)
{
	int fd = openat(dfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);

	if (fd >= 0) {
		keep_narrower_mode(dfd, base, fd);
		return fd;
	}
	return create_tmp(dfd, base, tmp);
}

struct tp_reserve *outfile_reserve(const char *path, size_t bytes)
{
	const char *base;
	int dfd = dir_fd(path, &base), fd, err;
	char *tmp = NULL;
	struct tp_reserve *r;

	if (dfd < 0)
		return NULL;
	fd = reserve_file(dfd, base, &tmp);
	if (fd < 0) {
		err = errno;
		dir_close(dfd);
		errno = err;
		return NULL;
	}
	err = posix_fallocate(fd, 0, (off_t)bytes);
	if (err) {
		close(fd);
		if (tmp)
			unlinkat(dfd, tmp, 0);
		free(tmp);
		dir_close(dfd);
		errno = err;
		return NULL;
	}
	r = xcalloc(1, sizeof(*r));
	r->dfd = dfd;
	r->fd = fd;
	r->tmp = tmp;
	return r;
}

int outfile_write_reserved(const char *path, const void *data, size_t len,
			   struct tp_reserve **rp)
{
	struct tp_reserve *r = *rp;
	const char *base;
	int ret, e;

	if (outfile_write(path, data, len) == 0)
		return 0;
	if (!r)
		return -1;
	e = errno;
	free(split(path, &base));
	/* the reserve was made beside @path: its directory is r->dfd; what
	 * outfile_write() refused is not replaced by the reserve either */
	if (outfile_planted_at(r->dfd, base) < 0)
		return -1;
	debug_msg("writing %s: %s, using the reserved space", path, strerror(e));
	keep_narrower_mode(r->dfd, base, r->fd);
	if (!r->tmp && name_tmp(r->dfd, r->fd, base, &r->tmp) < 0) {
		e = errno;
		outfile_reserve_free(r);
		*rp = NULL;
		errno = e;
		return -1;
	}
	ret = finish(r->dfd, r->fd, r->tmp, base, data, len);
	e = errno;
	dir_close(r->dfd);
	free(r->tmp);
	free(r);
	*rp = NULL;
	errno = e;
	return ret;
}

void outfile_reserve_free(struct tp_reserve *r)
{
	if (!r)
		return;
	close(r->fd);
	if (r->tmp)
		unlinkat(r->dfd, r->tmp, 0);
	dir_close(r->dfd);
	free(r->tmp);
	free(r);
}

int outfile_pin_dir(const char *template)
{
	const char *base;
	char *dir = split(template, &base);
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		free(dir);
		return -1;
	}
	outfile_unpin_dir();
	pinned_fd = fd;
	pinned_dir = dir;
	return 0;
}

void outfile_unpin_dir(void)
{
	if (pinned_fd >= 0)
		close(pinned_fd);
	pinned_fd = -1;
	free(pinned_dir);
	pinned_dir = NULL;
}

int outfile_pinned_fd(void)
{
	return pinned_fd;
}

int outfile_open_own(const char *path, off_t max)
{
	const char *base;
	int dfd = dir_fd(path, &base), fd, err;
	struct stat st;

	if (dfd < 0)
		return -1;
	fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	err = errno;
	dir_close(dfd);
	if (fd < 0) {
		errno = err;
		return -1;
	}
	err = fstat(fd, &st) < 0 ? errno : !S_ISREG(st.st_mode) || st.st_uid != geteuid() ? EPERM :
	      st.st_size > max ? EFBIG : 0;
	if (err) {
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int outfile_check_template(const char *template)
{
	const char *base;
	char *dir;
	struct stat st;
	long name_max;
	int r = -1;

	if (!*template) {
		error_msg("-O: the template is empty");
		return -1;
	}
	dir = split(template, &base);
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		error_msg("-O %s: the template names a directory; give a file name prefix", template);
	} else if (stat(template, &st) == 0 && S_ISDIR(st.st_mode)) {
		error_msg("-O %s: the template names a directory; give a file name prefix", template);
	} else if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		error_msg("-O %s: directory %s does not exist", template, dir);
	} else if (access(dir, W_OK | X_OK) < 0) {
		perror_msg("-O %s: cannot create files in %s", template, dir);
	} else {
		name_max = pathconf(dir, _PC_NAME_MAX);
		if (name_max <= 0)
			name_max = NAME_MAX;
		if ((long)strlen(base) + OUTFILE_SUFFIX_MAX + OUTFILE_TMP_EXTRA > name_max)
			error_msg("-O %s: the file name is too long (at most %ld characters after the last '/')",
				  template, name_max - OUTFILE_SUFFIX_MAX - OUTFILE_TMP_EXTRA);
		else
			r = 0;
	}
	free(dir);
	return r;
}

int outfile_check(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		error_msg("cannot write %s: it is a directory", path);
		return -1;
	}
	if (outfile_planted(path) < 0) {
		error_msg("cannot write %s: %s", path, outfile_strerror(errno));
		return -1;
	}
	return 0;
}
