/* SPDX-License-Identifier: MIT */
/* liveread.h: reading the runtime files of the running tpmons, for
 * `tpmon top`.  Each file is bounded (LIVEREAD_MAX bytes), parsed as
 * JSON, and checked: a file whose tpmon is gone (a dead pid, or a pid
 * reused since) is stale. */
#ifndef TPMON_LIVEREAD_H
#define TPMON_LIVEREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LIVEREAD_MAX 65536		/* bytes of one file */
#define LIVEREAD_FILES 4096		/* files of one directory */

/* One run, as its file says.  Strings owned (may be NULL); numbers < 0
 * when the file has none. */
struct tp_liverun {
	pid_t pid, task_pid;
	unsigned long long pid_start;	/* its start time (livedir.h) */
	bool stale;			/* set by liveread_dir() */
	char *command, *category, *task, *state;
	double start, updated, elapsed;
	double memory, memory_peak, memory_limit;	/* bytes */
	double cpu_seconds, cores, cores_limit;
	double read_rate, write_rate, net_rate;	/* bytes/s */
	double processes, gpu_memory, gpu_cores;
};

/* Parse @text (@len bytes) into @r.  0, or -1 if it is not a runtime
 * file.  Pure: liveness is not checked. */
int liveread_parse(const char *text, size_t len, struct tp_liverun *r);

/* Every runtime file in @dir into *@runs (newly allocated, *@n of them),
 * stale ones marked.  0, or -1 (errno) if @dir cannot be read; a file
 * that cannot be read or parsed is skipped. */
int liveread_dir(const char *dir, struct tp_liverun **runs, size_t *n);

void liveread_free(struct tp_liverun *runs, size_t n);

/* Remove the stale runtime files in the directory @dfd (borrowed): those
 * of tpmons killed before they could (SIGKILL).  Returns how many. */
unsigned liveread_sweep(int dfd);

#endif
