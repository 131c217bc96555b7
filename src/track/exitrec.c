/* SPDX-License-Identifier: MIT */
/* exitrec.c: the kernel's records of an untraced tree (exitrec.h): the
 * proc connector's events and taskstats' exit records, read from their
 * two sockets and applied to the table in an order that loses neither.
 *
 * The kernel sends a task's exit record (taskstats_exit()) before it
 * notifies the parent, and its exit event (proc_exit_connector()) after.
 * The events are handled in their order (so that the peak of live
 * processes is true); before an exit of the tree, the pending records
 * are read, which hold that task's.  A record is applied to its task if
 * the table holds it, else held: its task's fork event may still be
 * unread.  A record held since before a drain that read every event is
 * of no task of the tree, and is dropped.  A process that tpmon reaps
 * itself (the root, an orphan) has its record sent before it can be
 * reaped: polling.c drains before reaping.
 *
 * The cgroup backend (track/cgroup.c) reads the proc connector itself
 * (cgroup.procs is its membership check): it opens the records alone
 * (exitrec_open_records()), reads those of each task before it handles
 * its end (exitrec_before_end()), and settles the held ones at the end of
 * each drain of its events (exitrec_settle()). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "basic/clock.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "kernel/procconn.h"
#include "kernel/taskstats.h"
#include "track/base.h"
#include "track/exitrec.h"

/* Each socket's queue: records and events of the whole machine wait there
 * between two drains (a sample interval).  32 MiB hold some 30,000. */
#define EXITREC_RCVBUF (32 << 20)
/* Records held for a task whose fork event is still to be read: past
 * this many, records are counted as lost. */
#define EXITREC_HELD_MAX 65536

struct exitrec_late {
	pid_t pid;
	int status;
};

struct tp_exitrec {
	int pc_fd, ts_fd;
	uint16_t family;
	bool exec_events;
	bool cpu_wanted;		/* the records' CPU time is the tree's */
	bool lost;
	bool gaps;			/* events were dropped: maybe the tree's */
	struct tp_pc_seq seq;
	struct tp_taskstats *held;	/* owned: records of tasks not yet known */
	unsigned *held_gen;		/* owned: the drain that read each */
	size_t nheld, held_cap;
	unsigned gen;			/* drains that read every event */
	struct exitrec_late *late;	/* owned: leaders gone before their threads */
	size_t nlate, late_cap;
	unsigned long events, records;
};

/* Open the taskstats socket and, with @events, the proc connector's.
 * NULL when either is refused (a debug message says why). */
static struct tp_exitrec *open_sources(bool events)
{
	struct tp_exitrec *x;
	int pc = -1, ts;
	uint16_t family;
	/* tests shrink the connector's queue to see dropped events handled */
	const char *env = getenv("TPMON_PROCCONN_RCVBUF");
	int rcvbuf = env && atoi(env) > 0 ? atoi(env) : EXITREC_RCVBUF;

	if (getenv("TPMON_NO_EXIT_RECORDS")) {
		debug_msg("exit records: off (TPMON_NO_EXIT_RECORDS)");
		return NULL;
	}
	if (events && (pc = procconn_open(rcvbuf)) < 0) {
		debug_msg("exit records: proc connector: %d", errno);
		return NULL;
	}
	/* (tests shrink this queue too, to see lost records flagged) */
	env = getenv("TPMON_TASKSTATS_RCVBUF");
	ts = taskstats_open(env && atoi(env) > 0 ? atoi(env) : EXITREC_RCVBUF, &family);
	if (ts < 0) {
		debug_msg("exit records: taskstats: %d", errno);
		if (pc >= 0)
			close(pc);
		return NULL;
	}
	x = xcalloc(1, sizeof(*x));
	x->pc_fd = pc;
	x->ts_fd = ts;
	x->family = family;
	return x;
}

struct tp_exitrec *exitrec_open(bool exec_events)
{
	struct tp_exitrec *x = open_sources(true);

	if (x) {
		x->exec_events = exec_events;
		x->cpu_wanted = true;
	}
	return x;
}

struct tp_exitrec *exitrec_open_records(void)
{
	return open_sources(false);
}

void exitrec_lost(struct tp_exitrec *x, const char *why)
{
	if (!x->lost)
		debug_msg("exit records: lost (%s): figures are lower bounds", why);
	x->lost = true;
}

/* Events were dropped, of any process of the machine: the tree is checked
 * from now on (exitrec_gaps()). */
static void gap(struct tp_exitrec *x, const char *why)
{
	if (!x->gaps)
		debug_msg("exit records: events dropped (%s): the tree is checked", why);
	x->gaps = true;
}

bool exitrec_gaps(const struct tp_exitrec *x)
{
	return x && x->gaps;
}

/* Fold @r into its task's process.  False when the table does not hold
 * the task. */
static bool apply(struct tp_exitrec *x, struct tp_track *tk, const struct tp_taskstats *r)
{
	struct tp_thread *th = ptree_thread(tk->tree, r->tid);
	struct tp_proc *p;
	struct tp_acct *a;

	if (!th)
		return false;
	p = th->proc;
	a = &p->exited;
	/* with no exact CPU time, the sampled one stays (a lower bound),
	 * and the records can no longer claim the tree's figures */
	if (!r->cpu_exact && x->cpu_wanted)
		exitrec_lost(x, "the kernel's records hold no exact CPU time");
	a->cpu_ns += r->cpu_ns;
	a->ctxsw += r->ctxsw;
	a->io.rchar += r->rchar;
	a->io.wchar += r->wchar;
	a->io.read_bytes += r->read_bytes;
	a->io.write_bytes += r->write_bytes;
	a->io.cancelled_write_bytes += r->cancelled_write_bytes;
	/* (a lifetime peak: not of a process older than --pid's attach) */
	if (!p->attached && r->hiwater_rss_kb > p->hwm_kb)
		p->hwm_kb = r->hiwater_rss_kb;
	x->records++;
	return true;
}

/* Hold @r, read before its task's fork event was: until its task's
 * exit, or the end of the next drain that reads every event. */
static void hold(struct tp_exitrec *x, const struct tp_taskstats *r)
{
	if (x->nheld == EXITREC_HELD_MAX) {
		exitrec_lost(x, "too many records held");
		return;
	}
	if (x->nheld == x->held_cap) {
		x->held_cap = x->held_cap ? 2 * x->held_cap : 64;
		x->held = xreallocarray(x->held, x->held_cap, sizeof(*x->held));
		x->held_gen = xreallocarray(x->held_gen, x->held_cap, sizeof(*x->held_gen));
	}
	x->held_gen[x->nheld] = x->gen;
	x->held[x->nheld++] = *r;
}

/* Apply the held record of task @tid, if any. */
static void take_held(struct tp_exitrec *x, struct tp_track *tk, pid_t tid)
{
	size_t i;

	for (i = x->nheld; i-- > 0;) {
		if (x->held[i].tid != tid)
			continue;
		apply(x, tk, &x->held[i]);
		x->held[i] = x->held[--x->nheld];
		x->held_gen[i] = x->held_gen[x->nheld];
		return;
	}
}

/* The pending records: each applied to its task, or held. */
static void read_records(struct tp_exitrec *x, struct tp_track *tk)
{
	struct {
		char buf[1024];
	} __attribute__((aligned(8))) u;
	struct tp_taskstats r;
	ssize_t n;

	while ((n = procconn_recv(x->ts_fd, u.buf, sizeof(u.buf))) != 0) {
		if (n < 0) {
			if (errno != ENOBUFS)
				break;
			exitrec_lost(x, "taskstats queue full");
			continue;
		}
		if (taskstats_parse(u.buf, (size_t)n, x->family, &r) == 1 && !apply(x, tk, &r))
			hold(x, &r);
	}
}

void exitrec_before_end(struct tp_exitrec *x, struct tp_track *tk, pid_t tid)
{
	read_records(x, tk);
	take_held(x, tk, tid);
}

void exitrec_settle(struct tp_exitrec *x, struct tp_track *tk, bool events_done)
{
	size_t i, k = 0;

	read_records(x, tk);
	for (i = 0; i < x->nheld; i++) {
		if (apply(x, tk, &x->held[i]))
			continue;
		if (events_done && x->held_gen[i] != x->gen) {
			/* a child of the tree never seen born: its fork event
			 * was dropped (or, in a cgroup, it left it) */
			if (x->held[i].ppid == tk->self || ptree_proc(tk->tree, x->held[i].ppid)) {
				debug_msg("exit records: record of %d (parent %d) matched no process",
					  (int)x->held[i].tid, (int)x->held[i].ppid);
				exitrec_lost(x, "a process of the tree born unseen, or gone from its cgroup");
			}
			continue;
		}
		x->held_gen[k] = x->held_gen[i];
		x->held[k++] = x->held[i];
	}
	x->nheld = k;
	if (events_done)
		x->gen++;
}

static bool late_take(struct tp_exitrec *x, pid_t pid, int *status)
{
	size_t i;

	for (i = 0; i < x->nlate; i++) {
		if (x->late[i].pid != pid)
			continue;
		*status = x->late[i].status;
		x->late[i] = x->late[--x->nlate];
		return true;
	}
	return false;
}

/* A thread of the tree ended; a leader that ends before other threads of
 * its process waits for the last of them. */
static void on_exit_event(struct tp_exitrec *x, struct tp_track *tk, const struct tp_pc_event *ev)
{
	struct tp_proc *p = ptree_proc(tk->tree, ev->pid);
	int status;

	if (!p || !ptree_thread(tk->tree, ev->tid) || ev->pid == tk->root)
		return;	/* ended already (reaped), or the root: wait()'s */
	if (ev->tid == ev->pid && p->nthreads > 1) {
		if (x->nlate == x->late_cap) {
			x->late_cap = x->late_cap ? 2 * x->late_cap : 8;
			x->late = xreallocarray(x->late, x->late_cap, sizeof(*x->late));
		}
		x->late[x->nlate].pid = p->pid;
		x->late[x->nlate++].status = ev->status;
		return;
	}
	track_thread_end(tk, ev->tid, p, ev->status, 0, 0);
	if (ev->tid != ev->pid && p->nthreads == 1 && late_take(x, p->pid, &status))
		track_thread_end(tk, p->pid, p, status, 0, 0);
}

/* A fork of the tree: a new process whose parent is in the table, or a
 * new thread of one of its processes. */
static void on_fork_event(struct tp_track *tk, const struct tp_pc_event *ev)
{
	struct tp_ptree *t = tk->tree;
	struct tp_proc *p = ptree_proc(t, ev->pid);

	if (ev->tid != ev->pid) {
		if (p && !ptree_thread(t, ev->tid)) {
			ptree_add_thread(t, p, ev->tid);
			p->had_threads = true;
		}
		return;
	}
	if (ev->pid == tk->self || p || !(p = ptree_proc(t, ev->ppid)))
		return;
	p = ptree_add_proc(t, ev->pid, ev->ppid);
	tk->sink.born(tk->sink.arg, p);
}

/* Read and handle one event.  False when none was waiting. */
static bool read_event(struct tp_exitrec *x, struct tp_track *tk, double now)
{
	struct tp_pc_event ev;
	const char *why = NULL;
	int r = track_pc_event(tk, x->pc_fd, &x->seq, now, &ev, &why);

	if (why)
		gap(x, why);
	if (r != 1)
		return r != 0;
	x->events++;
	if (ev.kind == TP_PC_FORK) {
		on_fork_event(tk, &ev);
	} else if (ev.kind == TP_PC_EXEC) {
		if (x->exec_events)
			tk->sink.exec(tk->sink.arg, ptree_proc(tk->tree, ev.pid), ev.tid);
	} else {
		/* its record was sent before this event: read it first */
		exitrec_before_end(x, tk, ev.tid);
		on_exit_event(x, tk, &ev);
	}
	return true;
}

bool exitrec_drain(struct tp_exitrec *x, struct tp_track *tk, bool (*turn_over)(void *),
		   void *arg)
{
	double saved = tk->tree->now, now = clock_mono() - tk->sink.t0;
	bool more = false;
	unsigned n;

	for (n = 0;; n++) {
		if (turn_over && (n >= TP_TRACK_EVENTS_PER_TURN ||
				  (n >= TP_TRACK_EVENTS_MIN_TURN && turn_over(arg)))) {
			more = true;
			break;
		}
		if (!read_event(x, tk, now))
			break;
	}
	exitrec_settle(x, tk, !more);
	tk->tree->now = saved;
	return more;
}

bool exitrec_complete(const struct tp_exitrec *x)
{
	return x && !x->lost;
}

void exitrec_free(struct tp_exitrec *x)
{
	if (!x)
		return;
	if (x->pc_fd >= 0)
		debug_msg("exit records: %lu events and %lu records of the tree%s", x->events,
			  x->records, x->lost ? ", some lost" : "");
	else
		debug_msg("exit records: %lu records of the tree (taskstats)%s", x->records,
			  x->lost ? ", some lost" : "");
	if (x->pc_fd >= 0)
		close(x->pc_fd);
	close(x->ts_fd);
	procconn_seq_free(&x->seq);
	free(x->held);
	free(x->held_gen);
	free(x->late);
	free(x);
}
