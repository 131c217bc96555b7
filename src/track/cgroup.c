/* SPDX-License-Identifier: MIT */
/* cgroup.c (track): the cgroup backend of the tracking seam (track.h), for
 * --tracking=cgroup.  Nothing is traced and nothing stops: the tree is the
 * set of processes in the task's cgroup and below, whatever their clone
 * flags or parents.  wait() reaps tpmon's own children, the root and the
 * orphans, as in the poll backend.
 *
 * With CAP_NET_ADMIN the proc connector (procconn.h) tells every fork,
 * exec and exit of the machine as it happens; those of the tree feed the
 * sink, so that total_processes, max_concurrent_processes, the process
 * records (exit statuses included) and the trace's spans are exact, and
 * each event keeps its kernel time.  cgroup.procs, read at each refresh(),
 * stays the membership check: a member the events missed is added, a
 * process that left it ends.  When events were lost (a full queue, a gap
 * in a CPU's numbering), or without the connector, a process that lived
 * between two refreshes may be missed: tk->counts_partial says the counts
 * are then lower bounds (the kernel's figures, cpu.stat and memory.peak,
 * still count every process).
 *
 * As root, taskstats' exit records (exitrec.h, the records alone: the
 * events are read here) give each task of the tree its final I/O, CPU
 * time and peak RSS, however short it lived: with every record and every
 * event received, tk->exit_records says that the bytes written and the
 * chars are exact (the cgroup's own files count writes only at
 * writeback, or, on v1, not at all). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include "basic/clock.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "cgroup/cgroup.h"
#include "kernel/proc.h"
#include "kernel/procconn.h"
#include "track/base.h"
#include "track/cgroup.h"
#include "cgroup/cgrun.h"
#include "track/exitrec.h"

/* The socket's queue: events wait there between two drains (a sample
 * interval, or the next SIGCHLD).  An event costs the kernel about 1 KiB
 * of queue (an skb for 76 bytes): 32 MiB hold some 30,000. */
#define MEMBERS_RCVBUF (32 << 20)

/* A leader that exited while threads of its process were still known to
 * live: its process ends with the last of them, with this status. */
struct members_late {
	pid_t pid;
	int status;
};

struct members {
	int fd;				/* the proc connector, -1: none */
	bool exec_events;		/* sink.exec() wanted */
	struct tp_exitrec *records;	/* owned: taskstats' records, or NULL */
	struct tp_pc_seq seq;
	struct members_late *late;	/* owned, nlate of them */
	size_t nlate, late_cap;
	unsigned long events;		/* of the tree, handled */
	/* refresh(): the processes that exit events ended since the listing
	 * was read (they may still be zombies in /proc) */
	pid_t *ended;			/* owned, nended of them */
	size_t nended, ended_cap;
	bool log_ends;
};

static struct members *priv(struct tp_track *tk)
{
	return tk->priv;
}

int cgmembers_listen(void)
{
	/* tests shrink the queue to see lost events counted as such */
	const char *env = getenv("TPMON_PROCCONN_RCVBUF");
	int rcvbuf = env && atoi(env) > 0 ? atoi(env) : MEMBERS_RCVBUF;
	int fd = procconn_open(rcvbuf);

	if (fd < 0)	/* unprivileged: cgroup.procs alone, lower bounds */
		debug_msg("proc connector: %d: process counts are lower bounds", errno);
	return fd;
}

static void events_lost(struct tp_track *tk, const char *why)
{
	if (!tk->counts_partial)
		debug_msg("proc connector: events lost (%s): process counts are lower bounds", why);
	tk->counts_partial = true;
}

static void late_add(struct members *m, pid_t pid, int status)
{
	if (m->nlate == m->late_cap) {
		m->late_cap = m->late_cap ? 2 * m->late_cap : 8;
		m->late = xreallocarray(m->late, m->late_cap, sizeof(*m->late));
	}
	m->late[m->nlate].pid = pid;
	m->late[m->nlate++].status = status;
}

/* Take the status a late leader of @pid left, if any. */
static bool late_take(struct members *m, pid_t pid, int *status)
{
	size_t i;

	for (i = 0; i < m->nlate; i++) {
		if (m->late[i].pid != pid)
			continue;
		*status = m->late[i].status;
		m->late[i] = m->late[--m->nlate];
		return true;
	}
	return false;
}

static void log_end(struct members *m, pid_t pid)
{
	if (!m->log_ends)
		return;
	if (m->nended == m->ended_cap) {
		m->ended_cap = m->ended_cap ? 2 * m->ended_cap : 16;
		m->ended = xreallocarray(m->ended, m->ended_cap, sizeof(*m->ended));
	}
	m->ended[m->nended++] = pid;
}

static bool ended_since(const struct members *m, pid_t pid)
{
	size_t i;

	for (i = 0; i < m->nended; i++)
		if (m->ended[i] == pid)
			return true;
	return false;
}

/* A fork: a new process whose parent is in the tree, or a new thread of
 * a process of the tree.  (A thread's parent is its process's parent.) */
static void ev_fork(struct tp_track *tk, const struct tp_pc_event *ev)
{
	struct tp_ptree *t = tk->tree;
	struct tp_proc *p;

	if (ev->tid != ev->pid) {
		p = ptree_proc(t, ev->pid);
		if (p && !ptree_thread(t, ev->tid)) {
			ptree_add_thread(t, p, ev->tid);
			p->had_threads = true;
		}
		return;
	}
	if (ev->pid == tk->self || ptree_proc(t, ev->pid) || !ptree_proc(t, ev->ppid))
		return;	/* the root (tpmon's child), or not of the tree */
	p = ptree_add_proc(t, ev->pid, ev->ppid);
	tk->sink.born(tk->sink.arg, p);
}

static void ev_exec(struct tp_track *tk, const struct tp_pc_event *ev)
{
	struct tp_proc *p = ptree_proc(tk->tree, ev->pid);

	if (p && priv(tk)->exec_events)
		tk->sink.exec(tk->sink.arg, p, ev->tid);
}

/* A thread ended.  The root is wait()'s (its rusage comes with it). */
static void ev_exit(struct tp_track *tk, const struct tp_pc_event *ev)
{
	struct members *m = priv(tk);
	struct tp_proc *p = ptree_proc(tk->tree, ev->pid);
	int status;

	if (!p)
		return;
	/* its record came before this event */
	if (m->records)
		exitrec_before_end(m->records, tk, ev->tid);
	if (ev->tid != ev->pid) {
		if (!ptree_thread(tk->tree, ev->tid))
			return;
		track_thread_end(tk, ev->tid, p, ev->status, 0, 0);
		if (p->nthreads == 1 && late_take(m, p->pid, &status)) {
			track_thread_end(tk, p->pid, p, status, 0, 0);
			log_end(m, ev->pid);
		}
		return;
	}
	if (ev->pid == tk->root)
		return;
	if (p->nthreads > 1) {
		/* the leader first (exit_group() from it): the process
		 * lives until its last thread is gone */
		late_add(m, p->pid, ev->status);
		return;
	}
	track_thread_end(tk, ev->tid, p, ev->status, 0, 0);
	log_end(m, ev->pid);
}

/* Handle one datagram; false when none was waiting. */
static bool one_event(struct tp_track *tk, double now)
{
	struct members *m = priv(tk);
	struct tp_pc_event ev;
	const char *lost = NULL;
	int r = track_pc_event(tk, m->fd, &m->seq, now, &ev, &lost);

	if (lost)
		events_lost(tk, lost);
	if (r != 1)
		return r != 0;
	m->events++;
	if (ev.kind == TP_PC_FORK)
		ev_fork(tk, &ev);
	else if (ev.kind == TP_PC_EXEC)
		ev_exec(tk, &ev);
	else
		ev_exit(tk, &ev);
	return true;
}

/* Handle the pending events; with @turn_over, at most a turn's worth.
 * Returns whether events may still be waiting. */
static bool members_events(struct tp_track *tk, bool (*turn_over)(void *), void *arg)
{
	struct members *m = priv(tk);
	double saved = tk->tree->now, now;
	unsigned n;
	bool more = false;

	if (m->fd < 0)
		return false;
	now = clock_mono() - tk->sink.t0;
	for (n = 0;; n++) {
		if (turn_over && n >= TP_TRACK_EVENTS_PER_TURN) {
			more = true;
			break;
		}
		if (turn_over && n >= TP_TRACK_EVENTS_MIN_TURN && turn_over(arg)) {
			more = true;
			break;
		}
		if (!one_event(tk, now))
			break;
	}
	tk->tree->now = saved;
	if (m->records)
		exitrec_settle(m->records, tk, !more);
	return more;
}

/* Are the records whole: every task's received, and every event? */
static void records_state(struct tp_track *tk)
{
	tk->exit_records = exitrec_complete(priv(tk)->records) && !tk->counts_partial;
}

/* What wait() reaps (the root, orphans) leaves the table: first every
 * event sent before, or the forks of its last children would find their
 * parent gone. */
static void on_reap(struct tp_track *tk, struct tp_event *ev)
{
	members_events(tk, NULL, NULL);
	track_reap_child(tk, ev);
}

static enum tp_track_drain members_drain(struct tp_track *tk, bool (*turn_over)(void *),
					 void *arg)
{
	bool more = members_events(tk, turn_over, arg);
	enum tp_track_drain r = track_wait_events(tk, on_reap, turn_over, arg);

	records_state(tk);
	return more && r == TP_TRACK_IDLE ? TP_TRACK_MORE : r;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

static bool listed(const pid_t *pids, size_t n, pid_t pid)
{
	return n && bsearch(&pid, pids, n, sizeof(pid), cmp_pid) != NULL;
}

/* The processes of the table that are not in the listing @v (sorted),
 * the root aside: an owned array, *@nout of them. */
static pid_t *members_absent(struct tp_track *tk, const pid_t *v, size_t n, size_t *nout)
{
	struct tp_proc *p;
	pid_t *out = NULL;
	size_t k = 0, cap = 0;

	for (p = tk->tree->live; p; p = p->next) {
		if (p->pid == tk->root || listed(v, n, p->pid))
			continue;
		if (k == cap) {
			cap = cap ? 2 * cap : 16;
			out = xreallocarray(out, cap, sizeof(*out));
		}
		out[k++] = p->pid;
	}
	*nout = k;
	return out;
}

/* Is @pid, a process of the table that the listing lacks and that no
 * event ended, alive outside the cgroup?  It moved itself out (root, or
 * a user whose delegated cgroups hold the run's): it stays in the table,
 * sampled, signalled and killed with the tree (members_signal_all()),
 * until it is gone or a zombie; said once. */
static bool left_alive(struct tp_track *tk, pid_t pid)
{
	const struct tp_proc *p = ptree_proc(tk->tree, pid);
	struct proc_stat st;

	if (!p || ended_since(priv(tk), pid) || proc_read_stat(pid, &st) < 0 ||
	    st.state == 'Z' || st.state == 'X' || (p->starttime && p->starttime != st.starttime))
		return false;
	if (!tk->cgroup_left)
		warn_msg("process %d left the task's cgroup and lives on: the cgroup's own "
			 "figures (memory_cgroup, pressure) and its limits miss it from then; "
			 "it is sampled, and stopped with the task", (int)pid);
	tk->cgroup_left = true;
	return true;
}

/* Bring the table up to date: the pending events, then cgroup.procs as
 * the membership check.  The root is ended by wait(), not here.
 *
 * Order matters.  A process in the listing had its fork event sent before
 * it joined the cgroup, so the events read after the listing know it: one
 * they do not know was missed.  A process leaves cgroup.procs just before
 * its exit event is sent: one that the table held before the listing and
 * that the listing lacks is ended only if the events read after the
 * listing did not end it (then without its status). */
static void members_refresh(struct tp_track *tk)
{
	struct tp_ptree *t = tk->tree;
	struct members *m = priv(tk);
	struct tp_proc *p;
	pid_t *v = NULL, *gone;
	size_t n, ngone, i, j;
	int status;

	members_events(tk, NULL, NULL);
	n = cgrun_members(tk->cgroup, &v);
	if (n)
		qsort(v, n, sizeof(*v), cmp_pid);
	gone = members_absent(tk, v, n, &ngone);
	m->nended = 0;
	m->log_ends = true;
	members_events(tk, NULL, NULL);
	m->log_ends = false;
	for (j = 0; j < ngone; j++) {
		if (left_alive(tk, gone[j]))
			continue;
		(void)late_take(m, gone[j], &status);
		ptree_thread_gone(t, gone[j]);	/* (nothing if already ended) */
	}
	free(gone);
	for (i = 0; i < n; i++) {
		struct proc_stat st;

		if (v[i] == tk->self || ended_since(m, v[i]) || proc_read_stat(v[i], &st) < 0)
			continue;
		p = ptree_proc(t, v[i]);
		if (p && (!p->starttime || p->starttime == st.starttime))
			continue;
		if (p) {
			if (p->pid == tk->root)
				continue;
			ptree_thread_gone(t, v[i]);	/* the pid was reused */
		}
		if (m->fd >= 0)
			events_lost(tk, "a member without its fork event");
		p = ptree_add_proc(t, v[i], st.ppid);
		p->starttime = st.starttime;
	}
	free(v);
	records_state(tk);
}

/* @sig to @pid (and SIGCONT after a SIGTERM): 1 if sent. */
static unsigned signal_one(pid_t pid, int sig)
{
	if (kill(pid, sig) < 0)
		return 0;
	if (sig == SIGTERM)
		kill(pid, SIGCONT);
	return 1;
}

/* @sig to the processes of the table that left the cgroup (not in the
 * listing @v, sorted), each checked to be the one the table knows (its
 * start time) just before.  How many. */
static unsigned signal_left(struct tp_track *tk, const pid_t *v, size_t n, int sig)
{
	const struct tp_proc *p;
	struct proc_stat st;
	unsigned sent = 0;

	if (!tk->cgroup_left)
		return 0;
	for (p = tk->tree->live; p; p = p->next)
		if (!listed(v, n, p->pid) && proc_read_stat(p->pid, &st) == 0 &&
		    (!p->starttime || p->starttime == st.starttime))
			sent += signal_one(p->pid, sig);
	return sent;
}

/* Every process of the cgroup, seen or not, and those of the table that
 * left it: SIGTERM (and SIGCONT) to each, SIGKILL through cgroup.kill
 * (and to each that left). */
static unsigned members_signal_all(struct tp_track *tk, int sig)
{
	pid_t *v = NULL;
	size_t n = cgrun_members(tk->cgroup, &v);
	unsigned sent = 0;

	if (n)
		qsort(v, n, sizeof(*v), cmp_pid);
	if (sig == SIGKILL) {
		cgrun_kill(tk->cgroup, 0);
		sent = (unsigned)n;
	} else {
		for (size_t i = 0; i < n; i++)
			sent += signal_one(v[i], sig);
	}
	sent += signal_left(tk, v, n, sig);
	free(v);
	return sent;
}

static void members_free(struct tp_track *tk)
{
	struct members *m = priv(tk);

	debug_msg("proc connector: %lu events of the tree%s", m->events,
		  tk->counts_partial ? ", counts are lower bounds" : "");
	exitrec_free(m->records);
	if (m->fd >= 0)
		close(m->fd);
	procconn_seq_free(&m->seq);
	free(m->late);
	free(m->ended);
	free(m);
	tk->priv = NULL;
}

static const struct tp_track_ops cgmembers_ops = {
	.kind = TP_TRACK_CGROUP,
	.needs = "a cgroup of its own (the proc connector, as root, for exact counts)",
	.exact_ends = false,
	.live = false,
	.drain = members_drain,
	.refresh = members_refresh,
	.signal_all = members_signal_all,
	.free = members_free,
};

struct tp_track *cgmembers_new(struct tp_ptree *t, const struct tp_track_sink *sink,
			       pid_t self, pid_t root, struct tp_cgrun *cg, int listener,
			       struct tp_exitrec *records, bool exec_events)
{
	struct tp_track *tk = track_new(&cgmembers_ops, t, sink, self, root);
	struct members *m = xcalloc(1, sizeof(*m));

	tk->cgroup = cg;
	m->fd = listener;
	m->exec_events = exec_events;
	m->records = records;
	tk->counts_partial = listener < 0;
	tk->priv = m;
	records_state(tk);
	return tk;
}
