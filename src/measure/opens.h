/* SPDX-License-Identifier: MIT */
/* opens.h: the files a task opens (--with-inotify), seen through the
 * seccomp filter's PTRACE_EVENT_SECCOMP stops, written as TEMPLATE.files
 * in resource_monitor's layout. */
#ifndef TPMON_OPENS_H
#define TPMON_OPENS_H

#include <sys/types.h>

struct tp_opens;

struct tp_opens *opens_new(void);
/* Tracee @tid is stopped at entry of an open-family syscall: record it. */
void opens_syscall(struct tp_opens *f, pid_t tid);
/* Tracee @tid exec'd a new program: record the executable. */
void opens_exec(struct tp_opens *f, pid_t tid);
/* Write TEMPLATE.files.  Missing file sizes at the end are 0. */
int opens_write(const struct tp_opens *f, const char *template);
/* Call @fn with the device of each file opened for writing (the file
 * system it was created on, for a new one), as far as the opens showed. */
void opens_written_devs(const struct tp_opens *f, void (*fn)(void *arg, dev_t dev), void *arg);
void opens_free(struct tp_opens *f);

#endif
