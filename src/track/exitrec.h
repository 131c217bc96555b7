/* SPDX-License-Identifier: MIT */
/* exitrec.h: the kernel's records of an untraced tree, as root: the proc
 * connector's fork, exec and exit events (procconn.h) and each ending
 * task's final figures (taskstats.h), read as they come and applied to
 * the table, for the /proc-scan backend (polling.c).  With both, every
 * process of the tree enters the table at its fork and leaves it at its
 * exit with its own CPU time, I/O and peak RSS, however short it lived.
 * The cgroup backend (track/cgroup.c) reads the connector itself and
 * takes the records alone from here. */
#ifndef TPMON_TRACK_EXITREC_H
#define TPMON_TRACK_EXITREC_H

#include <stdbool.h>
#include "track/track.h"

struct tp_exitrec;

/* Listen, before the task starts, to both sources.  Returns the listener
 * (owned by the caller, for polling.c), or NULL (a debug message says
 * why: not CAP_NET_ADMIN, a kernel without them, or
 * TPMON_NO_EXIT_RECORDS set in the environment, which tests use). */
struct tp_exitrec *exitrec_open(bool exec_events);

/* The records alone, for a backend that reads the proc connector itself
 * (track/cgroup.c): listen, before the task starts, to taskstats only.
 * Returns the listener (owned by the caller), or NULL as exitrec_open().
 * A record without the exact CPU time is no loss here (the caller has
 * the cgroup's). */
struct tp_exitrec *exitrec_open_records(void);

/* Such a backend, before it ends task @tid of @tk's table (its exit
 * event): the pending records applied (the kernel sends a task's record
 * before its exit event), @tid's held one among them. */
void exitrec_before_end(struct tp_exitrec *x, struct tp_track *tk, pid_t tid);

/* Such a backend, at the end of each drain of its events (@events_done:
 * every pending event was read): the pending records applied, the held
 * ones whose tasks the table now holds too; with @events_done, a record
 * held since before that drain is of no task of the table, and is a loss
 * when its parent is of the tree (a fork unseen, or a process that left
 * the cgroup). */
void exitrec_settle(struct tp_exitrec *x, struct tp_track *tk, bool events_done);

/* Read what is pending and apply it to @tk's table: births (sink.born),
 * execs (sink.exec), each task's final figures (folded into its
 * process's p->exited and peak RSS), then ends (track_thread_end()); the
 * root is left to wait().  With @turn_over (and @arg), at most a turn's
 * worth.  Returns whether more may be waiting. */
bool exitrec_drain(struct tp_exitrec *x, struct tp_track *tk, bool (*turn_over)(void *),
		   void *arg);

/* Has every event and record of the tree come so far?  False once one
 * is known lost (a record dropped, a process of the tree found that no
 * event told of). */
bool exitrec_complete(const struct tp_exitrec *x);

/* Did the kernel drop events (a full queue, a gap in a CPU's numbering),
 * of any process?  Then the caller checks the tree against /proc at each
 * refresh: a table process gone from it has ended, and a live process of
 * the tree missing from the table is a loss (exitrec_lost()). */
bool exitrec_gaps(const struct tp_exitrec *x);
void exitrec_lost(struct tp_exitrec *x, const char *why);

void exitrec_free(struct tp_exitrec *x);

#endif
