/* SPDX-License-Identifier: MIT */
/* opens.h: the files a task opens, seen through the seccomp filter's
 * PTRACE_EVENT_SECCOMP stops: each path's opens (--with-inotify), written
 * as TEMPLATE.files in resource_monitor's layout, and the task's input
 * (--with-inotify or --with-input-size), the files opened for reading. */
#ifndef TPMON_OPENS_H
#define TPMON_OPENS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct tp_opens;

/* One open-family call, as a tracee stopped at its entry makes it. */
struct tp_open_call {
	char path[4096];	/* as the task named it */
	char where[4200];	/* where tpmon can stat it (through /proc/TID) */
	uint64_t flags;		/* the open flags (O_ACCMODE, O_TRUNC, ...) */
	bool flags_known;	/* false: openat2's could not be read */
};

/* Read the open call that tracee @tid, at a seccomp stop, is making into
 * @c.  0, or -1 with errno: ptrace's (EIO before Linux 5.3, ESRCH when
 * the tracee is gone), or EFAULT when its path cannot be read. */
int opens_call_get(pid_t tid, struct tp_open_call *c);

struct tp_opens *opens_new(void);
/* Record the open call @c. */
void opens_syscall(struct tp_opens *f, const struct tp_open_call *c);
/* opens_call_get() failed with @err: say once that the list misses opens. */
void opens_call_failed(struct tp_opens *f, int err);
/* Tracee @tid exec'd a new program: record the executable. */
void opens_exec(struct tp_opens *f, pid_t tid);
/* Write TEMPLATE.files.  Missing file sizes at the end are 0. */
int opens_write(const struct tp_opens *f, const char *template);
/* Call @fn with the device of each file opened for writing (the file
 * system it was created on, for a new one), as far as the opens showed. */
void opens_written_devs(const struct tp_opens *f, void (*fn)(void *arg, dev_t dev), void *arg);
void opens_free(struct tp_opens *f);

/* The task's input, as the summary's input_size and input_files give
 * it: the regular files the tree opened for reading, each counted once
 * (by device and inode) with its size at its first such open.  Fed by
 * the same open calls; see the man page, input_size, for what counts. */
struct tp_inputs;

/* What the summary says of the input. */
struct tp_input_figures {
	bool known;		/* every open call was seen */
	bool partial;		/* some could not be read: a lower bound */
	uint64_t bytes;		/* the files' sizes at their first open */
	unsigned long files;	/* how many distinct files */
	const char *reason;	/* unknown: why, in words (static); else NULL */
};

/* An empty set, owned by the caller (inputs_free()). */
struct tp_inputs *inputs_new(void);
/* The open call @c was made: count its file if it opens an existing
 * regular file for reading (O_RDONLY or O_RDWR, not O_PATH nor O_TRUNC),
 * outside the kernel's pseudo-file systems (proc, sysfs, ...). */
void inputs_open(struct tp_inputs *in, const struct tp_open_call *c);
/* A regular file opened for reading, seen without a stop (the cgroup
 * mode's probe, inprobe.h): counted once by @dev and @ino, at @size,
 * unless its file system (@fs_magic, statfs's f_type) is one of the
 * kernel's own. */
void inputs_add(struct tp_inputs *in, dev_t dev, uint64_t ino, uint64_t size,
		unsigned long fs_magic);
/* Some opens were not seen: the figures are a lower bound. */
void inputs_lower_bound(struct tp_inputs *in);
/* Is the file system of magic @magic (statfs's f_type) one of the
 * kernel's own (proc, sysfs, cgroupfs, ...), whose files are no input? */
bool inputs_pseudo_fs(unsigned long magic);
/* An open call could not be read (opens_call_get()'s @err): the figures
 * become a lower bound (a path), or unknown (the call itself). */
void inputs_missed(struct tp_inputs *in, int err);
/* The figures so far into @out; @in NULL: unknown, for @reason. */
void inputs_figures(const struct tp_inputs *in, const char *reason,
		    struct tp_input_figures *out);
/* Is the open flag word @flags a read of what is there (pure)? */
bool inputs_flags_read(uint64_t flags);
void inputs_free(struct tp_inputs *in);

#endif
