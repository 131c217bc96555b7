/* SPDX-License-Identifier: MIT */
/* base.h: the bottom of the tracking backends, under every one of them
 * and above only the table (ptree.h): a tracker made with its ops, the end
 * of a thread told to the sink, wait()'s events drained in bounded turns,
 * and the reaping of tpmon's own children.  The backends (ptrace.c,
 * polling.c, track/cgroup.c) and attach.c use it; the launcher (launcher.c)
 * sits above them.  Nothing here names a backend. */
#ifndef TPMON_TRACK_BASE_H
#define TPMON_TRACK_BASE_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "kernel/procconn.h"
#include "track/track.h"

struct tp_event;

/* A tracker of the task @root, with @ops (its kind and handlers), the
 * table @t (borrowed) and the loop's @sink; priv is NULL for the backend's
 * constructor to fill.  Never fails. */
struct tp_track *track_new(const struct tp_track_ops *ops, struct tp_ptree *t,
			   const struct tp_track_sink *sink, pid_t self, pid_t root);

/* Thread @tid of @p (NULL: unknown to the table) is gone, with wait
 * status @status, the peak RSS of its reaping @maxrss_kb and
 * @untracked_cpu as in struct tp_track_end: it leaves the table (its
 * process too when it was the last thread), then the sink hears of it. */
void track_thread_end(struct tp_track *tk, pid_t tid, struct tp_proc *p, int status,
		      uint64_t maxrss_kb, double untracked_cpu);

/* Events handled per drain(): a tree that forks without pause (a fork
 * bomb, a shell forking in its SIGTERM trap) must not keep the loop from
 * its timers, or the kill would never escalate.  Past
 * TP_TRACK_EVENTS_MIN_TURN events, the turn also ends once turn_over()
 * says so: on a machine taken by a fork bomb, 256 events can cost tpmon
 * seconds.
 * Reproducer: tpmon -L 'wall_time: 1' --sh 'trap "while :; do sleep 9 & done" TERM; sleep 9' */
#define TP_TRACK_EVENTS_PER_TURN 256
#define TP_TRACK_EVENTS_MIN_TURN 4

/* wait()'s events (tracer_next_event()) to @handle, bounded as above; the
 * table's now is set before each. */
enum tp_track_drain track_wait_events(struct tp_track *tk,
				      void (*handle)(struct tp_track *tk, struct tp_event *ev),
				      bool (*turn_over)(void *), void *arg);

/* The CPU time (user + system, s) of a reaping's rusage. */
double track_rusage_cpu_s(const struct rusage *ru);

/* An untraced backend's handler of wait()'s events: what tpmon reaps (the
 * root, the orphans it adopts as subreaper) leaves the table with its
 * status and its CPU time; stops are nothing to it. */
void track_reap_child(struct tp_track *tk, struct tp_event *ev);

/* The next proc-connector event on @fd (numbering checked in @seq) that
 * concerns @tk's tree: its fork (by the parent, for a new process), its
 * exec or exit.  Returns 1 with *@ev filled and the tree's clock set to
 * the event's time (at most @now); 2 when a datagram was read that is not
 * the tree's; 0 when none was waiting.  *@lost says why when events were
 * dropped before it, else is left alone.  (The cgroup backend and the
 * exit records share it.) */
int track_pc_event(struct tp_track *tk, int fd, struct tp_pc_seq *seq, double now,
		   struct tp_pc_event *ev, const char **lost);

#endif
