/* SPDX-License-Identifier: MIT */
/* endcause.h: why the task ended, the summary's `end`: exited, stopped by
 * tpmon at a limit, killed by an OOM killer (the run's cgroup's, an
 * enclosing one's, or the machine's), killed by a signal (and who sent
 * it), failed on a full file system, or never started.  The decision is a
 * pure function of what the run found (endcause_decide()); the finding
 * is the watch's: the OOM counters before and after, the file systems the
 * task wrote to. */
#ifndef TPMON_ENDCAUSE_H
#define TPMON_ENDCAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "cgroup/memcgs.h"
#include "kernel/tracer.h"

enum tp_end_cause {
	TP_END_UNKNOWN,		/* not ended (a checkpoint), or --pid left it */
	TP_END_EXITED,
	TP_END_LIMIT,		/* tpmon stopped it */
	TP_END_OOM_KILL,
	TP_END_SIGNAL,
	TP_END_NO_SPACE,
	TP_END_NOT_FOUND,	/* command not found (exit status 127) */
	TP_END_CANNOT_EXECUTE,	/* found, but exec failed (126: not executable...) */
	TP_END_MONITOR_LOST,	/* tpmon was gone before the end: its guard's
				 * note (output/lostnote.c), never decided */
};

struct tp_end {
	enum tp_end_cause cause;
	int signal;			/* 0: none */
	struct tp_sender sender;	/* .known false: null */
	char detail[1024];		/* one sentence; untrusted parts inside */
	double oom_limit_mb;		/* the limit that OOM hit, or 0 */
};

/* "exited", "limit", ... (NULL for TP_END_UNKNOWN). */
const char *endcause_name(enum tp_end_cause c);

/* What the run found, for the decision. */
struct tp_end_in {
	bool ended;			/* the task's end is known */
	bool not_found;			/* it never ran: */
	int exec_errno;			/* ENOENT: not found; else why it could
					 * not be executed */
	bool limit;			/* tpmon stopped it at a limit: */
	const char *limit_name;		/* which (NULL: an end time) */
	double cg_limit_mb;		/* the memory limit the run's own cgroup
					 * holds (tpmon's, set in the kernel), or 0 */
	int exit_status, signal;
	int monitor_signal;		/* tpmon was told to stop it */
	const struct tp_oom_found *oom;	/* NULL: not looked at */
	const struct tp_sender *sender;	/* of the fatal signal, or of the one
					 * to tpmon; NULL: nothing could tell */
	bool full;			/* a file system it wrote to is full: */
	const char *full_point;		/* its mount point */
	bool full_inodes;		/* out of inodes, not of space */
	bool full_filled;		/* not known to be written to: it had room
					 * when the task started */
};

/* The cause, signal, sender and detail from @in. */
void endcause_decide(const struct tp_end_in *in, struct tp_end *out);

/* The watch, from before the task starts to its end. */
struct tp_endwatch;

/* Start: OOM counters of @own (the run's v2 cgroup directory, or NULL)
 * and of every enclosing memory cgroup; the devices of the working
 * directory and of @dirs (--measure-dir, NULL-terminated, or NULL). */
struct tp_endwatch *endwatch_start(const char *own, const char **dirs);
/* A file system the task wrote to (device @dev). */
void endwatch_dev(struct tp_endwatch *w, dev_t dev);
/* At the end: what the OOM counters say, and (when @failed) whether a
 * file system written to is full, else whether a local one that had room
 * at the start is full now (the task may have written to it unseen: no
 * opens are seen without --with-inotify); fills the matching
 * fields of @in,
 * which point into @w, valid until endwatch_free(). */
void endwatch_finish(struct tp_endwatch *w, bool failed, struct tp_end_in *in);
/* The summary's end, decided at the task's end from @r's exit and
 * limits, the watch's findings, the files opened for writing @files (or
 * NULL) and @sender (NULL: nothing could tell); with the run's cgroup
 * @cgdir (or NULL), its pressure for the notes, and @cg_limit_mb, the
 * memory limit the run's cgroup holds (v1 or v2; 0: none). */
struct tp_summary;
struct tp_opens;
void endwatch_fill(struct tp_endwatch *w, struct tp_summary *r, const struct tp_opens *files,
		   const struct tp_sender *sender, const char *cgdir, double cg_limit_mb);
void endwatch_free(struct tp_endwatch *w);

#endif
