/* SPDX-License-Identifier: MIT */
/* files.h: the files a task opens (--with-inotify), seen through the
 * seccomp filter's PTRACE_EVENT_SECCOMP stops, written as TEMPLATE.files
 * in resource_monitor's layout. */
#ifndef TPMON_FILES_H
#define TPMON_FILES_H

#include <sys/types.h>

struct tp_files;

struct tp_files *files_new(void);
/* Tracee @tid is stopped at entry of an open-family syscall: record it. */
void files_syscall(struct tp_files *f, pid_t tid);
/* Tracee @tid exec'd a new program: record the executable. */
void files_exec(struct tp_files *f, pid_t tid);
/* Write TEMPLATE.files.  Missing file sizes at the end are 0. */
int files_write(const struct tp_files *f, const char *template);
void files_free(struct tp_files *f);

#endif
