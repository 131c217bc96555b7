/* SPDX-License-Identifier: MIT */
/* track.h: the tracking seam.  The loop (monitor.c) learns about the
 * task's tree only through this interface: processes appearing, exec,
 * threads and processes ending with their final figures, and, through
 * the table it keeps (ptree.h), when the tree is empty.  It does not know
 * which backend it drives.
 *
 * The files, from the bottom up (no file includes one above it):
 *   ptree.c     the table of processes and threads;
 *   base.c      what every backend builds on (base.h): a tracker made
 *               with its ops, the end of a thread, wait()'s events in
 *               bounded turns, the reaping of tpmon's own children;
 *   ptrace.c   the ptrace backend: every process is a tracee; fork,
 *               clone, exec, seccomp and exit stops (tracees_new());
 *   polling.c  the /proc-scan backend, for a task that could not be
 *               traced: scans (refresh()) find the processes, wait()
 *               reaps tpmon's own children and adopted orphans;
 *   track/cgroup.c the cgroup backend (--tracking=cgroup): the tree is the
 *               processes of the task's cgroup (cgroup.procs at each
 *               refresh()); nothing is traced.  As root, the proc
 *               connector's fork, exec and exit events feed the sink as
 *               they come;
 *   attach.c    --pid: seizes a running tree, then the ptrace backend
 *               follows it (track_attach()); the tree is not tpmon's to
 *               stop;
 *   launcher.c    the launcher: starts the task (forkexec.c) and picks its
 *               backend (track_launch()).
 * Beside them: forkexec.c (fork and exec), nested.c (nested tpmons),
 * cgrun.c (the run's cgroups, used beside any backend).
 *
 * Adding a backend (for example one that follows the tree through a
 * container runtime's events):
 *  1. write track/NAME.c and NAME.h: a `static const struct tp_track_ops`
 *     and a constructor NAME_new() that makes the tracker (track_new() of
 *     base.h, with those ops) and then allocates its own state (tk->priv);
 *  2. keep the contract below: every process of the tree enters the table
 *     (ptree_add_proc()) and leaves it (track_thread_end()), and the sink
 *     hears of each as it happens;
 *  3. call its constructor from track_launch() (launcher.c) or from a new
 *     entry point called from run.c; the loop needs no change.
 * Containment, kill and kernel limits used beside another backend (a
 * cgroup around a ptrace-followed task) belong in signal_all() and in the
 * constructor, behind the same ops.
 *
 * The contract, for every backend:
 *  - The table (struct tp_ptree) is the backend's to fill and empty; the
 *    loop and the sampler only read it (and the sampler its figures).
 *  - sink.born(p) after @p entered the table with its parent; the loop may
 *    kill it at once (a run being stopped).  Not for the root, nor for
 *    what --pid found running.  A backend that is not live (poll) finds
 *    and loses processes in refresh() silently: the sampler sees them at
 *    the next sample; the sink hears only of what wait() reaps.
 *  - sink.exec(p, tid) after a process called execve, when exec events
 *    were asked for (struct tp_track_start.exec_events).
 *  - A thread's final figures are folded into p->exited before it leaves
 *    the table; sink.figures_final() reads them from a zombie when the
 *    backend can (ptrace), sink.started() lets the sampler open what it
 *    reads at that end.  A backend that cannot see the end of a process
 *    (poll) reports what wait() told instead (struct tp_track_end).
 *  - sink.ended(e) after a thread left the table (e->leader: the whole
 *    process); then t->nlive is the number of live processes.
 *  - sink.syscall(p, tid, what) at a seccomp stop (TP_TRAP_*), before the
 *    call goes on.
 *  - drain() is wait-free: it handles what is pending, stops when the
 *    caller's turn_over() says so, and says whether more is waiting.
 *  - "The tree is empty" is: the root ended (sink.ended with e->pid ==
 *    root) and t->nlive == 0; a backend that can no longer wait for any
 *    process returns TP_TRACK_NONE_LEFT from drain(). */
#ifndef TPMON_TRACK_H
#define TPMON_TRACK_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "config/options.h"
#include "kernel/tracer.h"
#include "track/ptree.h"

struct tp_cgrun;

/* A thread that left the table. */
struct tp_track_end {
	pid_t tid;			/* the thread */
	pid_t pid;			/* its process */
	bool leader;			/* tid == pid: the process has ended */
	int status;			/* wait status */
	uint64_t hwm_kb;		/* leader: the process's peak RSS, 0 unknown */
	double untracked_cpu;		/* CPU time, s, that the reaping reported
					 * and the table does not hold (poll: the
					 * rusage of a child tpmon reaped, its own
					 * waited-for children included); 0 */
};

/* What a backend tells the loop; every callback gets @arg first. */
struct tp_track_sink {
	void *arg;
	double t0;			/* CLOCK_MONOTONIC at the start: the table's
					 * now (t->now) is in s from it */
	void (*born)(void *arg, struct tp_proc *p);
	void (*exec)(void *arg, struct tp_proc *p, pid_t tid);
	void (*started)(void *arg, struct tp_proc *p);
	/* the final figures of thread @tid of @p, a zombie; @leaf: see
	 * sampler_read_final() */
	void (*figures_final)(void *arg, struct tp_proc *p, pid_t tid, bool leaf,
			      struct tp_acct *a);
	void (*ended)(void *arg, const struct tp_track_end *e);
	void (*syscall)(void *arg, struct tp_proc *p, pid_t tid, unsigned long what);
};

enum tp_track_drain {
	TP_TRACK_IDLE = 0,		/* nothing pending */
	TP_TRACK_MORE = 1,		/* stopped at turn_over(): more is waiting */
	TP_TRACK_NONE_LEFT = -1,	/* no process of the tree can be waited for */
};

struct tp_track;

struct tp_track_ops {
	enum tp_tracking kind;		/* which backend (never AUTO, nor ATTACH:
					 * --pid is the ptrace backend) */
	const char *needs;		/* what it needs of the host, in words */
	/* what it sees exactly: each process's end with its final figures
	 * (else those of short-lived processes are partly missed) */
	bool exact_ends;
	/* births and ends come as they happen (else only refresh() finds
	 * them, and the loop refreshes before each sample) */
	bool live;
	/* handle pending events, calling the sink, until none is left or
	 * @turn_over(@arg) says the turn is over (asked after a few) */
	enum tp_track_drain (*drain)(struct tp_track *tk, bool (*turn_over)(void *), void *arg);
	/* bring the table up to date with the kernel; NULL: nothing to do */
	void (*refresh)(struct tp_track *tk);
	/* send @sig to every process of the tree; NULL: to each process of
	 * the table (track_signal_all()) */
	unsigned (*signal_all)(struct tp_track *tk, int sig);
	void (*free)(struct tp_track *tk);	/* the backend's state; NULL: none */
};

/* One tracker; the fields are read by the loop, set by the backend. */
struct tp_track {
	const struct tp_track_ops *ops;
	struct tp_ptree *tree;		/* borrowed */
	struct tp_track_sink sink;
	pid_t root;			/* the task's main process */
	pid_t self;			/* tpmon, never followed */
	bool ptraced;			/* by ptrace: exec events, seccomp stops */
	bool net_trapped;		/* connect and accept stop in the tracer */
	bool opens_trapped;		/* open calls stop in the tracer */
	/* nested tpmons (nested.h): the channel we serve (NULL: none), an
	 * enclosing tpmon's (-1: none), and whether it counts our task */
	struct tp_nested *nest;
	int outer_chan;
	bool nest_registered;
	uint64_t nest_ino;		/* the task's end of our channel, 0: none */
	struct tp_cgrun *cgroup;	/* the cgroup that holds the tree (borrowed;
					 * SIGKILL goes to it too), or NULL */
	/* total_processes and max_concurrent_processes are lower bounds: the
	 * cgroup backend without the proc connector, or with events lost;
	 * --pid, when the tree changed faster than the attach's scans */
	bool counts_partial;
	/* the cgroup backend: a process of the tree left the task's cgroup
	 * (moved itself out: root, or a delegated user) and lived on; the
	 * cgroup's own figures (its memory peak, pressure) miss it from then */
	bool cgroup_left;
	struct tp_sender sender;	/* of the last signal delivered to the
					 * root (ptrace), for the summary's end */
	/* poll as root: the kernel's records told every birth and every
	 * end of the tree, with each task's final CPU time and I/O (exitrec.h);
	 * cgroup as root: every event came, and each task's exit record */
	bool exit_records;
	void *priv;			/* the backend's state (its constructor's) */
};

/* How the task is started (track_launch()). */
struct tp_track_start {
	char *const *argv;
	/* the mode (resolved: not AUTO): by ptrace, the cgroup's members
	 * (with @cgroup), else by /proc scans (tracking_info()) */
	enum tp_tracking mode;
	bool exec_events;		/* sink.exec() wanted */
	bool trap_opens;		/* --with-inotify: open calls stop */
	/* the task's input (measure/opens.h): open calls stop too, where
	 * that adds no no_new_privs a filter would not have had anyway */
	bool input_opens;
	bool trap_net;			/* connect and accept stop */
	const sigset_t *child_mask;	/* as struct tp_launch_opts */
	const struct sigaction *child_sigpipe, *child_sigchld;
	const struct rlimit *child_nofile;
	bool restore_nice;
	int child_nice;
	/* the run's cgroups (cgrun.h, borrowed), or NULL: the task starts in
	 * its leaf, and the seccomp filter need not refuse CLONE_UNTRACED;
	 * in the cgroup mode the cgroup backend follows it */
	struct tp_cgrun *cgroup;
};

/* launcher.c: start the task and follow it with the ptrace backend, the
 * cgroup one (the cgroup mode, with s->cgroup), or the /proc-scan one when ptrace is not
 * asked for or is refused.  The root enters the
 * table.  Returns the tracker, or NULL with *status 125, 126 or 127 and a
 * message printed (no child left). */
struct tp_track *track_launch(const struct tp_track_start *s, struct tp_ptree *t,
			      const struct tp_track_sink *sink, pid_t self, int *status);

/* --pid: follow the running process @pid and its descendants (attach.c).
 * Returns the tracker, or NULL with errno (see attach_tree()). */
struct tp_track *track_attach(pid_t pid, bool exec_events, struct tp_ptree *t,
			      const struct tp_track_sink *sink, pid_t self);

static inline enum tp_track_drain track_drain(struct tp_track *tk,
					      bool (*turn_over)(void *), void *arg)
{
	return tk->ops->drain(tk, turn_over, arg);
}

static inline void track_refresh(struct tp_track *tk)
{
	if (tk->ops->refresh)
		tk->ops->refresh(tk);
}

/* Send @sig to every process of the tree (SIGCONT too after SIGTERM, so
 * that stopped processes act on it).  Returns how many were signalled. */
unsigned track_signal_all(struct tp_track *tk, int sig);

/* Send @sig to @p of the table.  Outside ptrace (whose tracees stay until
 * tpmon reaps them) a process may have ended unseen (between two scans,
 * or with the proc connector's events lost) and its pid gone to another
 * process of the machine, at once where pid_max is 32768: the process is
 * signalled only if it is still the one the table knows (its start time,
 * or a parent in the tree).  0, or -1 with errno (ESRCH: gone). */
int track_proc_signal(const struct tp_track *tk, const struct tp_proc *p, int sig);

/* Frees the tracker and its channel for nested tpmons. */
void track_free(struct tp_track *tk);

#endif
