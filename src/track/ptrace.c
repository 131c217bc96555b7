/* SPDX-License-Identifier: MIT */
/* ptrace.c: the ptrace backend of the tracking seam (track.h).  Every
 * process of the tree is a tracee: its fork, vfork and clone events put
 * it in the table before it runs, exec and seccomp stops are told to the
 * sink, and each thread's end is read from its zombie (exact CPU time and
 * I/O) before it is reaped.  Also the backend of --pid (attach.c) once
 * the running tree is seized. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/compat.h"
#include "basic/xmalloc.h"
#include "kernel/proc.h"
#include "kernel/tracer.h"
#include "track/base.h"
#include "track/ptrace.h"

struct ptrace_state {
	pid_t ghosts[64];		/* adopted tids that ended before their
					 * parent's fork event was seen */
	unsigned nghosts;
};

static struct ptrace_state *state(struct tp_track *tk)
{
	return tk->priv;
}

static void born(struct tp_track *tk, pid_t pid)
{
	tk->sink.born(tk->sink.arg, ptree_proc(tk->tree, pid));
}

/* Is @tid, just cloned by process @pid, a thread of it? */
static bool is_thread_of(pid_t pid, pid_t tid)
{
	char path[48];

	snprintf(path, sizeof(path), "%d/task/%d", (int)pid, (int)tid);
	return proc_exists(path);
}

/* Was @tid born, adopted and gone before its parent's fork event came?
 * (waitid() does not return events in time order.)  Forgets it if so. */
static bool ghost_take(struct tp_track *tk, pid_t tid)
{
	struct ptrace_state *s = state(tk);
	unsigned i;

	for (i = 0; i < s->nghosts; i++)
		if (s->ghosts[i] == tid) {
			s->ghosts[i] = s->ghosts[--s->nghosts];
			return true;
		}
	return false;
}

static void ghost_add(struct tp_track *tk, pid_t tid)
{
	struct ptrace_state *s = state(tk);

	if (s->nghosts == ARRAY_SIZE(s->ghosts))
		s->nghosts--;	/* the oldest fork event is long overdue */
	memmove(s->ghosts + 1, s->ghosts, s->nghosts * sizeof(s->ghosts[0]));
	s->ghosts[0] = tid;
	s->nghosts++;
}

static void on_new_child(struct tp_track *tk, const struct tp_event *ev)
{
	struct tp_ptree *t = tk->tree;
	struct tp_thread *parent = ptree_thread(t, ev->tid);
	pid_t tid = (pid_t)ev->msg;
	struct tp_thread *known = tid > 0 ? ptree_thread(t, tid) : NULL;
	/* a fork's parent goes on at once, the bookkeeping needs nothing of
	 * it; a clone's waits until /proc has told thread from process */
	bool resumed = ev->clone_kind != TP_CLONE_CLONE;

	if (resumed)
		tracer_resume(ev->tid, 0);
	if (!known && ghost_take(tk, tid)) {
		if (!resumed)
			tracer_resume(ev->tid, 0);	/* counted when adopted */
		return;
	}
	if (known && known->adopted) {
		known->adopted = false;	/* its attach stop came first */
	} else if (known) {
		/* The kernel announces only fresh tids: this record is stale,
		 * left by a thread whose tid changed in a non-leader execve
		 * (exec stops are off), and the tid was reused since. */
		ptree_thread_gone(t, tid);
		known = NULL;
	}
	if (parent && tid > 0 && !known) {
		if (ev->clone_kind == TP_CLONE_CLONE && is_thread_of(parent->proc->pid, tid)) {
			ptree_add_thread(t, parent->proc, tid);
		} else {
			ptree_add_proc(t, tid, parent->proc->pid);
			born(tk, tid);
		}
	}
	if (!resumed)
		tracer_resume(ev->tid, 0);
}

/* A stop from a tracee we have not heard of: a child whose attach stop
 * beat its parent's fork event.  /proc tells which process it belongs to. */
static struct tp_thread *adopt_unknown(struct tp_track *tk, pid_t tid)
{
	struct tp_ptree *t = tk->tree;
	pid_t tgid = tid, ppid = 0;
	struct tp_proc *p;
	struct tp_thread *th;

	proc_read_status_ids(tid, &tgid, &ppid);
	p = ptree_proc(t, tgid);
	if (p && tgid != tid) {
		th = ptree_add_thread(t, p, tid);
	} else {
		ptree_add_proc(t, tid, ppid);
		born(tk, tid);
		th = ptree_thread(t, tid);
	}
	th->adopted = true;	/* the parent's event is still to come */
	return th;
}

static void on_ptrace_stop(struct tp_track *tk, const struct tp_event *ev)
{
	struct tp_thread *th = ptree_thread(tk->tree, ev->tid);

	if (!th || !th->started) {
		if (!th)
			th = adopt_unknown(tk, ev->tid);
		th->started = true;
		tracer_resume(ev->tid, 0);
		if (ev->tid == th->proc->pid)
			tk->sink.started(tk->sink.arg, th->proc);
	} else if (tracer_is_stop_signal(ev->sig)) {
		tracer_listen(ev->tid);	/* a real group-stop: stay stopped */
	} else {
		tracer_resume(ev->tid, 0);
	}
}

/* A thread has exited and is still a zombie: its /proc files hold its
 * final I/O and CPU time, read once here (schedstat is exact to the ns;
 * stat's clock ticks would lose up to 10 ms per process), then it is
 * reaped. */
static void account_and_reap(struct tp_track *tk, struct tp_event *ev)
{
	struct tp_thread *th = ptree_thread(tk->tree, ev->tid);
	struct tp_acct a;
	bool by_rusage;

	if (!th || th->exit_seen) {
		tracer_reap(ev);
		return;
	}
	/* the rusage of the reaping covers the whole thread group and the
	 * children it waited for: the leader of a leaf process only.  It
	 * saves opening schedstat on the path of every short process, which
	 * its parent waits on */
	by_rusage = ev->tid == th->proc->pid && ptree_proc_is_leaf(th->proc);
	tk->sink.figures_final(tk->sink.arg, th->proc, ev->tid, by_rusage, &a);
	tracer_reap(ev);
	if (by_rusage) {
		/* user + system add up to the scheduler's ns count, in us */
		a.cpu_ns = (uint64_t)(track_rusage_cpu_s(&ev->ru) * 1e9 + 0.5);
		a.ctxsw = (uint64_t)(ev->ru.ru_nvcsw + ev->ru.ru_nivcsw);
	}
	ptree_acct_add(&th->proc->exited, &a);
	th->exit_seen = true;
}

static void on_exec(struct tp_track *tk, const struct tp_event *ev)
{
	pid_t old = (pid_t)ev->msg;
	struct tp_thread *th;

	if (old > 0 && old != ev->tid)
		ptree_exec_moved(tk->tree, ev->tid, old);
	th = ptree_thread(tk->tree, ev->tid);
	tk->sink.exec(tk->sink.arg, th ? th->proc : NULL, ev->tid);
	tracer_resume(ev->tid, 0);
}

static void on_reaped(struct tp_track *tk, struct tp_event *ev)
{
	struct tp_thread *th;

	if (ev->zombie)
		account_and_reap(tk, ev);
	th = ptree_thread(tk->tree, ev->tid);
	if (th && th->adopted)
		ghost_add(tk, ev->tid);
	track_thread_end(tk, ev->tid, th ? th->proc : NULL, ev->status,
			 (uint64_t)ev->ru.ru_maxrss, 0);
}

/* connect, accept or accept4 (TP_TRAP_NET), or an open (TP_TRAP_OPEN),
 * by @tid: the sink hears of it before the call goes on. */
static void on_seccomp(struct tp_track *tk, const struct tp_event *ev)
{
	struct tp_thread *th = ptree_thread(tk->tree, ev->tid);

	tk->sink.syscall(tk->sink.arg, th ? th->proc : NULL, ev->tid, ev->msg);
	tracer_resume(ev->tid, 0);
}

/* A signal about to be delivered: who sent it, if it is for the root
 * (the summary's end names the sender of a fatal one). */
static void on_signal(struct tp_track *tk, const struct tp_event *ev)
{
	const struct tp_thread *th = ev->sig != SIGCHLD ? ptree_thread(tk->tree, ev->tid) : NULL;

	/* a signal to the process may be delivered to any of its threads */
	if (th && th->proc->pid == tk->root)
		tracer_sender(ev->tid, ev->sig, &tk->sender);
	tracer_resume(ev->tid, ev->sig);
}

static void dispatch(struct tp_track *tk, struct tp_event *ev)
{
	switch (ev->kind) {
	case TP_EV_NEW_CHILD: on_new_child(tk, ev); break;
	case TP_EV_EXEC: on_exec(tk, ev); break;
	case TP_EV_PTRACE_STOP: on_ptrace_stop(tk, ev); break;
	case TP_EV_SIGNAL: on_signal(tk, ev); break;
	case TP_EV_SECCOMP: on_seccomp(tk, ev); break;
	case TP_EV_EXITED:
	case TP_EV_KILLED: on_reaped(tk, ev); break;
	}
}

static enum tp_track_drain ptrace_drain(struct tp_track *tk, bool (*turn_over)(void *), void *arg)
{
	return track_wait_events(tk, dispatch, turn_over, arg);
}

static void ptrace_free(struct tp_track *tk)
{
	free(tk->priv);
	tk->priv = NULL;
}

static const struct tp_track_ops tracees_ops = {
	.kind = TP_TRACK_PTRACE,
	.needs = "ptrace of its own children",
	.exact_ends = true,
	.live = true,
	.drain = ptrace_drain,
	.free = ptrace_free,
};

struct tp_track *tracees_new(struct tp_ptree *t, const struct tp_track_sink *sink,
			     pid_t self, pid_t root)
{
	struct tp_track *tk = track_new(&tracees_ops, t, sink, self, root);

	tk->ptraced = true;
	tk->priv = xcalloc(1, sizeof(struct ptrace_state));
	return tk;
}
