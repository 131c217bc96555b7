/* SPDX-License-Identifier: MIT */
/* opens.c: counting opens per path, and the input (below).  At each open-family seccomp stop the
 * path argument is read from the tracee with process_vm_readv() and the
 * file's device and size before the open are taken with stat() through
 * /proc/TID/cwd (or the dirfd), so relative paths resolve as the task saw them. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <linux/magic.h>
#include "basic/messages.h"
#include "kernel/tracer.h"
#include "measure/opens.h"
#include "basic/outfile.h"
#include "basic/xmalloc.h"

#define NBUCKETS 1024u

struct tp_file {
	char *path;		/* as the task named it */
	char *where;		/* a path tpmon can stat at the end */
	uint64_t dev, size_initial;
	bool existed;		/* stat() found it at its first open */
	uint64_t wdev;		/* opened for writing: the device of the file
				 * or of its directory; 0 otherwise */
	unsigned long opens;
	struct tp_file *hnext, *next;
};

struct tp_opens {
	struct tp_file *buckets[NBUCKETS];
	struct tp_file *first, **last;
	bool warned;		/* an open could not be read: said once */
};

static unsigned hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % NBUCKETS;
}

struct tp_opens *opens_new(void)
{
	struct tp_opens *f = xcalloc(1, sizeof(*f));

	f->last = &f->first;
	return f;
}

/* The device that a write to @where goes to: the file's, else (a file
 * being created) its directory's; 0 when neither can be seen. */
static uint64_t write_dev(const char *where)
{
	struct stat st;
	char *dir, *slash;
	uint64_t dev = 0;

	if (stat(where, &st) == 0)
		return (uint64_t)st.st_dev;
	dir = xstrdup(where);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		if (stat(*dir ? dir : "/", &st) == 0)
			dev = (uint64_t)st.st_dev;
	}
	free(dir);
	return dev;
}

static void record(struct tp_opens *f, const char *path, const char *where, bool writing)
{
	unsigned h = hash(path);
	struct tp_file *e;
	struct stat st;

	for (e = f->buckets[h]; e; e = e->hnext)
		if (!strcmp(e->path, path)) {
			e->opens++;
			if (writing && !e->wdev)
				e->wdev = write_dev(where);
			return;
		}
	e = xcalloc(1, sizeof(*e));
	e->path = xstrdup(path);
	e->where = xstrdup(where);
	if (stat(where, &st) == 0) {
		e->existed = true;
		e->dev = (uint64_t)st.st_dev;
		e->size_initial = (uint64_t)st.st_size;
	}
	if (writing)
		e->wdev = write_dev(where);
	e->opens = 1;
	e->hnext = f->buckets[h];
	f->buckets[h] = e;
	*f->last = e;
	f->last = &e->next;
}

static int read_string(pid_t tid, unsigned long addr, char *buf, size_t len)
{
	struct iovec local = { buf, len - 1 }, remote = { (void *)addr, len - 1 };
	ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return memchr(buf, '\0', (size_t)n) ? 0 : -1;
}

/* openat2's flags: the first field of its struct open_how, in memory. */
static int read_how_flags(pid_t tid, unsigned long addr, uint64_t *flags)
{
	struct iovec local = { flags, sizeof(*flags) }, remote = { (void *)addr, sizeof(*flags) };

	return process_vm_readv(tid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof(*flags) ?
	       0 : -1;
}

/* Which argument holds the path and which the dirfd (-1: none); the
 * call's open flags into @c (openat2's are read from memory). */
static int path_arg(pid_t tid, const struct tp_syscall *call, int *dirfd_arg,
		    struct tp_open_call *c)
{
	long nr = call->nr;

	c->flags_known = true;
#ifdef SYS_open
	if (nr == SYS_open) {
		c->flags = call->args[1];
		*dirfd_arg = -1;
		return 0;
	}
#endif
#ifdef SYS_creat
	if (nr == SYS_creat) {
		c->flags = O_WRONLY | O_CREAT | O_TRUNC;
		*dirfd_arg = -1;
		return 0;
	}
#endif
	*dirfd_arg = 0;
	if (nr == SYS_openat) {
		c->flags = call->args[2];
		return 1;
	}
#ifdef SYS_openat2
	if (nr == SYS_openat2) {
		c->flags_known = read_how_flags(tid, (unsigned long)call->args[2], &c->flags) == 0;
		return 1;
	}
#endif
	return -1;
}

int opens_call_get(pid_t tid, struct tp_open_call *c)
{
	struct tp_syscall call;
	int arg, dfd_arg;

	memset(c, 0, sizeof(*c));
	if (tracer_seccomp_call(tid, &call) < 0)
		return -1;
	arg = path_arg(tid, &call, &dfd_arg, c);
	if (arg < 0 || read_string(tid, (unsigned long)call.args[arg], c->path,
				   sizeof(c->path)) < 0) {
		errno = EFAULT;
		return -1;
	}
	if (c->path[0] == '/')
		snprintf(c->where, sizeof(c->where), "%s", c->path);
	else if (dfd_arg >= 0 && (int)call.args[dfd_arg] != AT_FDCWD)
		snprintf(c->where, sizeof(c->where), "/proc/%d/fd/%d/%s", (int)tid,
			 (int)call.args[dfd_arg], c->path);
	else
		snprintf(c->where, sizeof(c->where), "/proc/%d/cwd/%s", (int)tid, c->path);
	return 0;
}

void opens_call_failed(struct tp_opens *f, int err)
{
	/* EIO before 5.3 (RHEL 8's 4.18): the open cannot be read; ESRCH:
	 * the tracee is gone, and its call with it; EFAULT: no path */
	if (err == ESRCH || err == EFAULT || f->warned)
		return;
	warn_msg("PTRACE_GET_SYSCALL_INFO: %s: the files list misses opens", strerror(err));
	f->warned = true;
}

void opens_syscall(struct tp_opens *f, const struct tp_open_call *c)
{
	const uint64_t w = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC;

	/* openat2's flags unread: taken for a read, as before they were read */
	record(f, c->path, c->where, c->flags_known && (c->flags & w) != 0);
}

void opens_exec(struct tp_opens *f, pid_t tid)
{
	char link[64], exe[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)tid);
	n = readlink(link, exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	record(f, exe, exe, false);
}

int opens_write(const struct tp_opens *f, const char *template)
{
	char *path = xasprintf("%s.files", template), *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	const struct tp_file *e;
	struct stat st;
	int r = 0;

	if (!out)
		error_msg_and_die("out of memory");
	fprintf(out, "#%-15s\n#%22s%21s%21s%7s%7s%7s%7s\n", "path", "device",
		"size_initial(B)", "size_final(B)", "opens", "closes", "reads", "writes");
	for (e = f->first; e; e = e->next) {
		/* /proc/TID/... is gone with the task: fall back to the name */
		bool now = stat(e->path, &st) == 0;
		uint64_t final = now ? (uint64_t)st.st_size : 0;
		uint64_t dev = e->dev ? e->dev : now ? (uint64_t)st.st_dev : 0;

		/* seen at syscall entry: an open of a file that neither
		 * existed then nor exists now failed, and is left out */
		if (!e->existed && !now)
			continue;
		fprintf(out, "%-15s\n%22llu%21llu%21llu%7lu%7d%7d%7d\n", e->path,
			(unsigned long long)dev, (unsigned long long)e->size_initial,
			(unsigned long long)final, e->opens, 0, 0, 0);
	}
	if (fclose(out) != 0)
		error_msg_and_die("out of memory");
	if (outfile_write(path, buf, len) < 0) {
		warn_msg("cannot write %s: %s", path, outfile_strerror(errno));
		r = -1;
	}
	free(buf);
	free(path);
	return r;
}

void opens_written_devs(const struct tp_opens *f, void (*fn)(void *arg, dev_t dev), void *arg)
{
	const struct tp_file *e;

	for (e = f ? f->first : NULL; e; e = e->next)
		if (e->wdev)
			fn(arg, (dev_t)e->wdev);
}

void opens_free(struct tp_opens *f)
{
	struct tp_file *e, *next;

	if (!f)
		return;
	for (e = f->first; e; e = next) {
		next = e->next;
		free(e->path);
		free(e->where);
		free(e);
	}
	free(f);
}

/* The input (opens.h): a hash set of (device, inode) that stat(2) gives
 * at each open call's entry stop, with the size then. */
#define INPUT_BUCKETS 1024u

struct tp_input_file {
	uint64_t dev, ino;
	struct tp_input_file *next;
};

struct tp_inputs {
	struct tp_input_file *buckets[INPUT_BUCKETS];
	uint64_t bytes;
	unsigned long files;
	bool partial, unknown;
};

struct tp_inputs *inputs_new(void)
{
	return xcalloc(1, sizeof(struct tp_inputs));
}

bool inputs_flags_read(uint64_t flags)
{
	uint64_t acc = flags & O_ACCMODE;

	if (flags & (O_PATH | O_TRUNC))
		return false;	/* no data read, or none left to read */
	return acc == O_RDONLY || acc == O_RDWR;
}

bool inputs_pseudo_fs(unsigned long magic)
{
	static const unsigned long pseudo[] = {
		PROC_SUPER_MAGIC, SYSFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC,
		DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC, BPF_FS_MAGIC,
	};
	size_t i;

	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if (magic == pseudo[i])
			return true;
	return false;
}

/* Is the file system of @where one of the kernel's own (its files are
 * no input)?  Asked only of those on a device-less one (major 0): tmpfs
 * holds real input, proc and sysfs do not. */
static bool pseudo_fs(const char *where)
{
	struct statfs sf;

	if (statfs(where, &sf) < 0)
		return true;	/* gone: not counted */
	return inputs_pseudo_fs((unsigned long)sf.f_type);
}

/* Add (@dev, @ino) to the set: false if it was there. */
static bool add_once(struct tp_inputs *in, uint64_t dev, uint64_t ino)
{
	unsigned h = (unsigned)((dev * 31u + ino) % INPUT_BUCKETS);
	struct tp_input_file *e;

	for (e = in->buckets[h]; e; e = e->next)
		if (e->dev == dev && e->ino == ino)
			return false;
	e = xcalloc(1, sizeof(*e));
	e->dev = dev;
	e->ino = ino;
	e->next = in->buckets[h];
	in->buckets[h] = e;
	return true;
}

void inputs_open(struct tp_inputs *in, const struct tp_open_call *c)
{
	struct stat st;
	int r;

	if (!c->flags_known) {
		in->partial = true;	/* openat2 whose flags could not be read */
		return;
	}
	if (!inputs_flags_read(c->flags))
		return;
	/* O_NOFOLLOW fails on a symbolic link: lstat() says so (not regular) */
	r = (c->flags & O_NOFOLLOW) ? lstat(c->where, &st) : stat(c->where, &st);
	if (r < 0 || !S_ISREG(st.st_mode))
		return;		/* a new file, a directory, a FIFO, a device */
	if (major(st.st_dev) == 0 && pseudo_fs(c->where))
		return;
	if (add_once(in, (uint64_t)st.st_dev, (uint64_t)st.st_ino)) {
		in->bytes += (uint64_t)st.st_size;
		in->files++;
	}
}

void inputs_add(struct tp_inputs *in, dev_t dev, uint64_t ino, uint64_t size,
		unsigned long fs_magic)
{
	if (major(dev) == 0 && inputs_pseudo_fs(fs_magic))
		return;
	if (add_once(in, (uint64_t)dev, ino)) {
		in->bytes += size;
		in->files++;
	}
}

void inputs_lower_bound(struct tp_inputs *in)
{
	in->partial = true;
}

void inputs_missed(struct tp_inputs *in, int err)
{
	if (err == ESRCH)
		return;		/* the tracee is gone, and its call with it */
	if (err == EFAULT)
		in->partial = true;
	else
		in->unknown = true;
}

void inputs_figures(const struct tp_inputs *in, const char *reason,
		    struct tp_input_figures *out)
{
	out->known = in && !in->unknown;
	out->partial = in && in->partial;
	out->bytes = in ? in->bytes : 0;
	out->files = in ? in->files : 0;
	out->reason = NULL;
	if (!in)
		out->reason = reason;
	else if (in->unknown)
		out->reason = "the open calls could not be read (PTRACE_GET_SYSCALL_INFO, Linux 5.3)";
}

void inputs_free(struct tp_inputs *in)
{
	struct tp_input_file *e, *next;
	unsigned i;

	if (!in)
		return;
	for (i = 0; i < INPUT_BUCKETS; i++)
		for (e = in->buckets[i]; e; e = next) {
			next = e->next;
			free(e);
		}
	free(in);
}
