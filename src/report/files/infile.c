/* SPDX-License-Identifier: MIT */
/* infile.c: regular files only, read whole up to a bound (infile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report/files/infile.h"
#include "basic/xmalloc.h"

/* What a file that is not regular is, for a warning. */
static const char *kind_of(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISLNK(mode) ? "a symbolic link" :
	       S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket" :
	       S_ISCHR(mode) || S_ISBLK(mode) ? "a device" : "not a regular file";
}

/* O_NOATIME until the kernel refuses it once (EPERM: a file that is not
 * the caller's, without CAP_FOWNER).  A summary just written has its
 * atime at its mtime, so relatime would write each inode back after a
 * report: a million small disk writes for a report over a million files. */
static atomic_int noatime_refused;

static int open_noatime(int dirfd, const char *path)
{
	int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;

	if (!atomic_load_explicit(&noatime_refused, memory_order_relaxed)) {
		int fd = openat(dirfd, path, flags | O_NOATIME);

		if (fd >= 0 || errno != EPERM)
			return fd;
		atomic_store_explicit(&noatime_refused, 1, memory_order_relaxed);
	}
	return openat(dirfd, path, flags);
}

/* rp_infile_open() relative to @dirfd */
static int open_at(int dirfd, const char *path, off_t *size, char *why, size_t whylen)
{
	int fd = open_noatime(dirfd, path);
	struct stat sb;

	if (fd < 0 || fstat(fd, &sb) < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(why, whylen, "%s, not a file", kind_of(sb.st_mode));
		close(fd);
		return -1;
	}
	*size = sb.st_size;
	return fd;
}

int rp_infile_open(const char *path, off_t *size, char *why, size_t whylen)
{
	return open_at(AT_FDCWD, path, size, why, whylen);
}

FILE *rp_infile_stream(const char *path, char *why, size_t whylen)
{
	off_t size;
	int fd = rp_infile_open(path, &size, why, whylen);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		snprintf(why, whylen, "%s", strerror(errno));
		close(fd);
	}
	return f;
}

char *rp_infile_slurp(const char *path, size_t max, const char *what, size_t *len,
		      char *why, size_t whylen)
{
	return rp_infile_slurpat(AT_FDCWD, path, max, what, len, why, whylen);
}

char *rp_infile_slurpat(int dirfd, const char *name, size_t max, const char *what,
			size_t *len, char *why, size_t whylen)
{
	off_t size;
	int fd = open_at(dirfd, name, &size, why, whylen);
	size_t cap, n = 0;
	char *buf;
	ssize_t r;

	if (fd < 0)
		return NULL;
	if ((unsigned long long)size > max) {
		snprintf(why, whylen, "%lld bytes, more than %s can be (%zu MB)",
			 (long long)size, what, max >> 20);
		close(fd);
		return NULL;
	}
	/* room for what fstat() said, and one byte to see it grew */
	cap = (size_t)size + 2;
	buf = xmalloc(cap);
	while ((r = read(fd, buf + n, cap - n - 1)) != 0) {
		size_t want = cap - n - 1;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || n + (size_t)r > max) {
			if (r < 0)
				snprintf(why, whylen, "%s", strerror(errno));
			else
				snprintf(why, whylen, "it grew past the size %s can be", what);
			free(buf);
			close(fd);
			return NULL;
		}
		n += (size_t)r;
		/* all that fstat() said, and no byte more where one more was
		 * asked: the end, without a read(2) more to see it (a fifth of
		 * the system calls of a report over many small files) */
		if (n == (size_t)size && (size_t)r < want)
			break;
		if (n + 1 == cap) {
			cap = cap * 2 > max + 2 ? max + 2 : cap * 2;
			buf = xreallocarray(buf, cap, 1);
		}
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* *@buf at twice its size, at most @max + 2 bytes; false when it is that
 * already */
static bool grow(char **buf, size_t *cap, size_t max)
{
	size_t want = *cap ? 2 * *cap : 64 << 10;

	if (*cap >= max + 2)
		return false;
	if (want > max + 2)
		want = max + 2;
	*buf = xreallocarray(*buf, want, 1);
	*cap = want;
	return true;
}

long rp_infile_quickat(int dirfd, const char *name, size_t max, char **buf, size_t *cap)
{
	int fd = open_noatime(dirfd, name);
	size_t n = 0;

	if (fd < 0)
		return -1;
	for (;;) {
		size_t want;
		ssize_t r;

		if (*cap < n + 2 && !grow(buf, cap, max))
			break;	/* (more than @max: below) */
		want = *cap - n - 1;
		r = read(fd, *buf + n, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			return -1;
		}
		n += (size_t)r;
		if ((size_t)r < want)
			break;	/* the end */
	}
	close(fd);
	if (n > max)
		return RP_INFILE_LARGER;
	(*buf)[n] = '\0';
	return (long)n;
}
