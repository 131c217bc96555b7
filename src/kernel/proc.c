/* SPDX-License-Identifier: MIT */
/* proc.c: reading /proc.  The parsers are pure and unit-tested on hostile
 * snapshots; the readers do the I/O and treat a vanished process (ENOENT,
 * ESRCH) as normal life, returning -1 with errno for the caller to ignore. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernel/proc.h"
#include "basic/xmalloc.h"

static int proc_fd = -1;

/* Parse an unsigned decimal at *p, advance past it and one separator. */
static int next_u64(const char **p, uint64_t *out)
{
	char *end;
	unsigned long long v;

	while (**p == ' ')
		(*p)++;
	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	v = strtoull(*p, &end, 10);
	if (errno || end == *p)
		return -1;
	*p = end;
	*out = v;
	return 0;
}

/* Signed variant for the fields that may be -1 (e.g. tty, priority). */
static int next_i64(const char **p, int64_t *out)
{
	char *end;
	long long v;

	while (**p == ' ')
		(*p)++;
	errno = 0;
	v = strtoll(*p, &end, 10);
	if (errno || end == *p)
		return -1;
	*p = end;
	*out = v;
	return 0;
}

static int skip_fields(const char **p, int n)
{
	int64_t dummy;

	while (n-- > 0)
		if (next_i64(p, &dummy) < 0)
			return -1;
	return 0;
}

int proc_stat_parse(const char *buf, struct proc_stat *st)
{
	const char *open = strchr(buf, '(');
	const char *close = strrchr(buf, ')');	/* comm may hold ')' */
	const char *p;
	uint64_t v;
	int64_t s;
	size_t n;

	if (!open || !close || close < open)
		return -1;
	memset(st, 0, sizeof(*st));
	p = buf;
	if (next_i64(&p, &s) < 0 || p > open)	/* (1) pid */
		return -1;
	st->pid = (pid_t)s;
	n = (size_t)(close - open - 1);		/* (2) comm */
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, n);
	st->comm[n] = '\0';
	p = close + 1;
	while (*p == ' ')
		p++;
	if (!*p)
		return -1;
	st->state = *p++;			/* (3) state */
	if (next_i64(&p, &s) < 0)		/* (4) ppid */
		return -1;
	st->ppid = (pid_t)s;
	if (skip_fields(&p, 4) < 0)		/* (5)-(8) pgrp..tpgid */
		return -1;
	if (next_u64(&p, &v) < 0)		/* (9) flags */
		return -1;
	st->flags = (unsigned)v;
	if (skip_fields(&p, 4) < 0)		/* (10)-(13) minflt..cmajflt */
		return -1;
	if (next_u64(&p, &st->utime) < 0 ||	/* (14) utime */
	    next_u64(&p, &st->stime) < 0)	/* (15) stime */
		return -1;
	if (skip_fields(&p, 4) < 0)		/* (16)-(19) cutime..nice */
		return -1;
	if (next_i64(&p, &s) < 0)		/* (20) num_threads */
		return -1;
	st->num_threads = (long)s;
	if (skip_fields(&p, 1) < 0)		/* (21) itrealvalue */
		return -1;
	if (next_u64(&p, &st->starttime) < 0 ||	/* (22) starttime */
	    next_u64(&p, &st->vsize) < 0)	/* (23) vsize, bytes */
		return -1;
	if (next_u64(&p, &v) < 0)		/* (24) rss, pages */
		return -1;
	st->rss = v;
	return 0;
}

int proc_schedstat_parse(const char *buf, struct proc_schedstat *ss)
{
	const char *p = buf;

	if (next_u64(&p, &ss->run_ns) < 0 || next_u64(&p, &ss->wait_ns) < 0 ||
	    next_u64(&p, &ss->timeslices) < 0)
		return -1;
	return 0;
}

/* Find "key:" at the start of a line and parse the number after it. */
static int keyed_u64(const char *buf, const char *key, uint64_t *out)
{
	size_t klen = strlen(key);
	const char *p = buf;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			p += klen + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return next_u64(&p, out);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int proc_io_parse(const char *buf, struct proc_io *io)
{
	if (keyed_u64(buf, "rchar", &io->rchar) < 0 ||
	    keyed_u64(buf, "wchar", &io->wchar) < 0 ||
	    keyed_u64(buf, "syscr", &io->syscr) < 0 ||
	    keyed_u64(buf, "syscw", &io->syscw) < 0 ||
	    keyed_u64(buf, "read_bytes", &io->read_bytes) < 0 ||
	    keyed_u64(buf, "write_bytes", &io->write_bytes) < 0 ||
	    keyed_u64(buf, "cancelled_write_bytes", &io->cancelled_write_bytes) < 0)
		return -1;
	return 0;
}

void proc_io_add(struct proc_io *sum, const struct proc_io *a)
{
	sum->rchar += a->rchar;
	sum->wchar += a->wchar;
	sum->syscr += a->syscr;
	sum->syscw += a->syscw;
	sum->read_bytes += a->read_bytes;
	sum->write_bytes += a->write_bytes;
	sum->cancelled_write_bytes += a->cancelled_write_bytes;
}

int proc_rollup_parse(const char *buf, struct proc_rollup *r)
{
	uint64_t v;

	r->rss_kb = keyed_u64(buf, "Rss", &v) < 0 ? -1 : (int64_t)v;
	r->pss_kb = keyed_u64(buf, "Pss", &v) < 0 ? -1 : (int64_t)v;
	r->swap_kb = keyed_u64(buf, "Swap", &v) < 0 ? -1 : (int64_t)v;
	return r->rss_kb < 0 && r->pss_kb < 0 ? -1 : 0;
}

int proc_loadavg_parse(const char *buf, double *load1)
{
	char *end;

	*load1 = strtod(buf, &end);
	return end == buf ? -1 : 0;
}

int proc_status_ids_parse(const char *buf, pid_t *tgid, pid_t *ppid)
{
	uint64_t a, b;

	if (keyed_u64(buf, "Tgid", &a) < 0 || keyed_u64(buf, "PPid", &b) < 0)
		return -1;
	*tgid = (pid_t)a;
	*ppid = (pid_t)b;
	return 0;
}

int proc_init(void)
{
	if (proc_fd < 0)
		proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return proc_fd < 0 ? -1 : 0;
}

ssize_t proc_pread(int fd, char *buf, size_t len)
{
	ssize_t total = 0;

	/* A seq_file read fills the buffer unless the text ends first, so a
	 * short read is the end: no second pread() to hear EOF. */
	while ((size_t)total < len - 1) {
		size_t want = len - 1 - (size_t)total;
		ssize_t n = pread(fd, buf + total, want, total);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		total += n;
		if ((size_t)n < want)
			break;
	}
	buf[total] = '\0';
	return total;
}

int proc_statm_parse(const char *buf, uint64_t *size, uint64_t *resident)
{
	unsigned long long s, r;

	if (sscanf(buf, "%llu %llu", &s, &r) != 2)
		return -1;
	*size = s;
	*resident = r;
	return 0;
}

int proc_open(const char *path)
{
	return openat(proc_fd, path, O_RDONLY | O_CLOEXEC);
}

bool proc_exists(const char *path)
{
	return faccessat(proc_fd, path, F_OK, 0) == 0;
}

ssize_t proc_read(const char *path, char *buf, size_t len)
{
	int fd = proc_open(path);
	ssize_t n;
	int err;

	if (fd < 0)
		return -1;
	n = proc_pread(fd, buf, len);
	err = errno;
	close(fd);
	errno = err;
	return n;
}

int proc_read_stat(pid_t pid, struct proc_stat *st)
{
	char path[32], buf[1024];

	snprintf(path, sizeof(path), "%d/stat", (int)pid);
	if (proc_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	return proc_stat_parse(buf, st);
}

int proc_read_thread_schedstat(pid_t pid, pid_t tid, struct proc_schedstat *ss)
{
	char path[48], buf[128];

	snprintf(path, sizeof(path), "%d/task/%d/schedstat", (int)pid, (int)tid);
	if (proc_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	return proc_schedstat_parse(buf, ss);
}

int proc_read_thread_io(pid_t pid, pid_t tid, struct proc_io *io)
{
	char path[48], buf[512];

	snprintf(path, sizeof(path), "%d/task/%d/io", (int)pid, (int)tid);
	if (proc_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	return proc_io_parse(buf, io);
}

int proc_read_io(pid_t pid, struct proc_io *io)
{
	char path[32], buf[512];

	snprintf(path, sizeof(path), "%d/io", (int)pid);
	if (proc_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	return proc_io_parse(buf, io);
}

size_t proc_list(struct proc_entry **out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0, cap = 0;
	struct proc_entry *v = NULL;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct proc_stat st;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || proc_read_stat((pid_t)pid, &st) < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n].pid = (pid_t)pid;
		v[n].ppid = st.ppid;
		v[n].starttime = st.starttime;
		n++;
	}
	closedir(d);
	*out = v;
	return n;
}

size_t proc_list_tasks(pid_t pid, pid_t **tids)
{
	char path[32];
	struct dirent *de;
	size_t n = 0, cap = 0;
	pid_t *v = NULL;
	DIR *d;
	int fd;

	*tids = NULL;
	snprintf(path, sizeof(path), "%d/task", (int)pid);
	fd = openat(proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (*end || tid <= 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n++] = (pid_t)tid;
	}
	closedir(d);
	*tids = v;
	return n;
}

int proc_read_rollup(pid_t pid, struct proc_rollup *r)
{
	char path[32], buf[2048];

	snprintf(path, sizeof(path), "%d/smaps_rollup", (int)pid);
	if (proc_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	return proc_rollup_parse(buf, r);
}

int proc_read_cmdline(pid_t pid, char *buf, size_t len)
{
	char path[32];
	ssize_t n, i;

	snprintf(path, sizeof(path), "%d/cmdline", (int)pid);
	n = proc_read(path, buf, len);
	if (n <= 0)
		return -1;
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return 0;
}

int proc_read_exe(pid_t pid, char *buf, size_t len)
{
	char path[32];
	ssize_t n;

	snprintf(path, sizeof(path), "%d/exe", (int)pid);
	n = readlinkat(proc_fd, path, buf, len - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

long proc_page_size(void)
{
	static long v;

	if (!v)
		v = sysconf(_SC_PAGESIZE);
	return v;
}

long proc_clock_ticks(void)
{
	static long v;

	if (!v)
		v = sysconf(_SC_CLK_TCK);
	return v;
}

int proc_read_status_ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[32], buf[4096];

	snprintf(path, sizeof(path), "%d/status", (int)tid);
	if (proc_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	return proc_status_ids_parse(buf, tgid, ppid);
}

pid_t proc_read_tracer(pid_t pid)
{
	char path[32], buf[4096];
	uint64_t v;

	snprintf(path, sizeof(path), "%d/status", (int)pid);
	if (proc_read(path, buf, sizeof(buf)) <= 0 || keyed_u64(buf, "TracerPid", &v) < 0)
		return -1;
	return (pid_t)v;
}

int proc_read_loadavg(double *load1)
{
	char buf[128];

	if (proc_read("loadavg", buf, sizeof(buf)) <= 0)
		return -1;
	return proc_loadavg_parse(buf, load1);
}

uint64_t proc_socket_link_parse(const char *link)
{
	unsigned long long ino;
	char end;

	if (strncmp(link, "socket:[", 8) != 0 ||
	    sscanf(link + 8, "%llu%c", &ino, &end) != 2 || end != ']')
		return 0;
	return ino;
}

long proc_read_socket_inodes(const char *pid, uint64_t **v, size_t *n, size_t *cap)
{
	char path[48], link[64];
	struct dirent *de;
	long found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		ssize_t len;
		uint64_t ino;

		if (de->d_name[0] == '.')
			continue;
		len = readlinkat(dirfd(d), de->d_name, link, sizeof(link) - 1);
		if (len <= 8)
			continue;
		link[len] = '\0';
		ino = proc_socket_link_parse(link);
		if (!ino)
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*v = xreallocarray(*v, *cap, sizeof(**v));
		}
		(*v)[(*n)++] = ino;
		found++;
	}
	closedir(d);
	return found;
}

uint64_t proc_read_fd_socket(pid_t pid, int fd)
{
	char path[64], link[64];
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
	len = readlink(path, link, sizeof(link) - 1);
	if (len <= 8)
		return 0;
	link[len] = '\0';
	return proc_socket_link_parse(link);
}
