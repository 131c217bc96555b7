/* SPDX-License-Identifier: MIT */
/* opens.h: the files a task opens (--with-inotify), seen through the
 * seccomp filter's PTRACE_EVENT_SECCOMP stops, written as TEMPLATE.files
 * in resource_monitor's layout. */
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

#endif
