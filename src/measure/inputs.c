/* SPDX-License-Identifier: MIT */
/* inputs.c: the set of files the tree opened for reading (inputs.h), a
 * hash set of (device, inode) that stat(2) gives at each open call's
 * entry stop, with the size then. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <linux/magic.h>
#include "basic/xmalloc.h"
#include "measure/inputs.h"

#define NBUCKETS 1024u

struct tp_input_file {
	uint64_t dev, ino;
	struct tp_input_file *next;
};

struct tp_inputs {
	struct tp_input_file *buckets[NBUCKETS];
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

/* Is the file system of @where one of the kernel's own (its files are
 * no input)?  Asked only of those on a device-less one (major 0): tmpfs
 * holds real input, proc and sysfs do not. */
static bool pseudo_fs(const char *where)
{
	static const unsigned long magic[] = {
		PROC_SUPER_MAGIC, SYSFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC,
		DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC, BPF_FS_MAGIC,
	};
	struct statfs sf;
	size_t i;

	if (statfs(where, &sf) < 0)
		return true;	/* gone: not counted */
	for (i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if ((unsigned long)sf.f_type == magic[i])
			return true;
	return false;
}

/* Add (@dev, @ino) to the set: false if it was there. */
static bool add_once(struct tp_inputs *in, uint64_t dev, uint64_t ino)
{
	unsigned h = (unsigned)((dev * 31u + ino) % NBUCKETS);
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
	for (i = 0; i < NBUCKETS; i++)
		for (e = in->buckets[i]; e; e = next) {
			next = e->next;
			free(e);
		}
	free(in);
}
