/* SPDX-License-Identifier: MIT */
/* base.c: what every tracking backend builds on (base.h): making a
 * tracker, the end of a thread, signalling the table's processes, draining
 * wait() events in bounded turns, reaping tpmon's own children, and
 * freeing a tracker. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "basic/clock.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "kernel/proc.h"
#include "kernel/tracer.h"
#include "track/base.h"
#include "cgroup/cgrun.h"
#include "track/nested.h"

struct tp_track *track_new(const struct tp_track_ops *ops, struct tp_ptree *t,
			   const struct tp_track_sink *sink, pid_t self, pid_t root)
{
	struct tp_track *tk = xcalloc(1, sizeof(*tk));

	tk->ops = ops;
	tk->tree = t;
	tk->sink = *sink;
	tk->self = self;
	tk->root = root;
	tk->outer_chan = -1;
	return tk;
}

/* Is @pid, the parent of a process being checked, tpmon (the subreaper
 * of the tree) or the table's process of that pid?  A parent never
 * sampled is taken as it is: it was born since the last sample. */
static bool tree_parent(const struct tp_track *tk, pid_t pid)
{
	const struct tp_proc *pp = pid > 0 ? ptree_proc(tk->tree, pid) : NULL;
	struct proc_stat st;

	if (pid == tk->self)
		return true;
	if (!pp)
		return false;
	return !pp->starttime || (proc_read_stat(pid, &st) == 0 && st.starttime == pp->starttime);
}

/* Is the process now holding @p's pid the one the table knows?  Its
 * start time, where the table has it; else its parent, checked the same
 * way (tree_parent()). */
static bool still_same(const struct tp_track *tk, const struct tp_proc *p)
{
	struct proc_stat st;

	if (proc_read_stat(p->pid, &st) < 0)
		return false;
	if (p->starttime)
		return st.starttime == p->starttime;
	if (p->pid == tk->root)
		return true;	/* tpmon's child, or --pid's process, not sampled yet */
	return tree_parent(tk, st.ppid);
}

/* @sig to the process @fd names (a pidfd), or to @pid where @fd < 0;
 * then SIGCONT when @cont (after SIGTERM, for stopped processes to act
 * on it).  The first signal's result, errno kept. */
static int send_one(int fd, pid_t pid, int sig)
{
	return fd >= 0 ? (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0) : kill(pid, sig);
}

static int send_both(int fd, pid_t pid, int sig, bool cont)
{
	int r = send_one(fd, pid, sig), e = errno;

	if (cont)
		send_one(fd, pid, SIGCONT);
	errno = e;
	return r;
}

/* @sig (and SIGCONT, @cont) to @p, checked once, through a pidfd opened
 * before the check so that the process checked is the one signalled;
 * plain kill() where the kernel has no pidfd_open (before 5.3).  ptrace's
 * tracees need no check. */
static int proc_signal(const struct tp_track *tk, const struct tp_proc *p, int sig, bool cont)
{
	int fd, r, e;

	if (tk->ptraced)
		return send_both(-1, p->pid, sig, cont);
	fd = (int)syscall(SYS_pidfd_open, p->pid, 0);
	if (fd < 0 && errno == ESRCH)
		return -1;
	if (!still_same(tk, p)) {
		debug_msg("pid %d is another process's now: not signalled", (int)p->pid);
		if (fd >= 0)
			close(fd);
		errno = ESRCH;
		return -1;
	}
	r = send_both(fd, p->pid, sig, cont);
	e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return r;
}

int track_proc_signal(const struct tp_track *tk, const struct tp_proc *p, int sig)
{
	return proc_signal(tk, p, sig, false);
}

unsigned track_signal_all(struct tp_track *tk, int sig)
{
	const struct tp_proc *p;
	unsigned n = 0;

	if (tk->ops->signal_all)
		return tk->ops->signal_all(tk, sig);
	for (p = tk->tree->live; p; p = p->next) {
		if (proc_signal(tk, p, sig, sig == SIGTERM) == 0)
			n++;
		else if (errno != ESRCH)
			debug_msg("kill %d: %d", (int)p->pid, errno);
	}
	/* and what the backend never saw (CLONE_UNTRACED, or born since the
	 * last refresh): the whole cgroup in one write */
	if (sig == SIGKILL && tk->cgroup)
		cgrun_kill(tk->cgroup, 0);
	return n;
}

void track_thread_end(struct tp_track *tk, pid_t tid, struct tp_proc *p, int status,
		      uint64_t maxrss_kb, double untracked_cpu)
{
	struct tp_track_end e;

	memset(&e, 0, sizeof(e));
	e.tid = tid;
	e.pid = p ? p->pid : tid;
	e.status = status;
	e.untracked_cpu = untracked_cpu;
	if (p && tid == p->pid) {
		e.leader = true;
		if (p->life) {
			p->life->status = status;
			p->life->status_known = true;
		}
		/* (a lifetime peak: not of a process older than --pid's attach) */
		if (maxrss_kb > p->hwm_kb && !p->attached)
			p->hwm_kb = maxrss_kb;
		e.hwm_kb = p->hwm_kb;
	}
	ptree_thread_gone(tk->tree, tid);
	tk->sink.ended(tk->sink.arg, &e);
}

enum tp_track_drain track_wait_events(struct tp_track *tk,
				      void (*handle)(struct tp_track *tk, struct tp_event *ev),
				      bool (*turn_over)(void *), void *arg)
{
	struct tp_event ev;
	unsigned n;

	for (n = 0; n < TP_TRACK_EVENTS_PER_TURN; n++) {
		int r;

		if (n >= TP_TRACK_EVENTS_MIN_TURN && turn_over(arg))
			break;
		r = tracer_next_event(&ev);
		if (r <= 0)
			return r < 0 && errno == ECHILD ? TP_TRACK_NONE_LEFT : TP_TRACK_IDLE;
		debug_msg("event %d tid %d sig %d msg %lu%s", (int)ev.kind, (int)ev.tid,
			  ev.sig, ev.msg, ev.zombie ? " zombie" : "");
		tk->tree->now = clock_mono() - tk->sink.t0;	/* births and deaths happen now */
		handle(tk, &ev);
	}
	return TP_TRACK_MORE;
}

double track_rusage_cpu_s(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

void track_reap_child(struct tp_track *tk, struct tp_event *ev)
{
	struct tp_thread *th;

	/* stops of a child that is not a tracee are nothing to us */
	if (ev->kind != TP_EV_EXITED && ev->kind != TP_EV_KILLED)
		return;
	if (ev->zombie)
		tracer_reap(ev);
	th = ptree_thread(tk->tree, ev->tid);
	/* what we reap ourselves (the root, orphans) comes with its CPU
	 * time, children it waited for included */
	track_thread_end(tk, ev->tid, th ? th->proc : NULL, ev->status,
			 (uint64_t)ev->ru.ru_maxrss,
			 track_rusage_cpu_s(&ev->ru));
}

void track_free(struct tp_track *tk)
{
	if (!tk)
		return;
	if (tk->ops->free)
		tk->ops->free(tk);
	nested_close(tk->nest);
	if (tk->outer_chan >= 0)
		close(tk->outer_chan);
	free(tk);
}

int track_pc_event(struct tp_track *tk, int fd, struct tp_pc_seq *seq, double now,
		   struct tp_pc_event *ev, const char **lost)
{
	struct {
		char buf[512];
	} __attribute__((aligned(8))) u;
	int r = procconn_next(fd, u.buf, sizeof(u.buf), seq, ev, lost);
	double at;

	if (r != 1)
		return r;
	/* cheap for the machine's other events: one or two hash lookups */
	if (!ptree_proc(tk->tree, ev->kind == TP_PC_FORK && ev->tid == ev->pid ? ev->ppid : ev->pid))
		return 2;
	/* births and deaths at the kernel's time of them */
	at = (double)ev->ts_ns / 1e9 - tk->sink.t0;
	tk->tree->now = at >= 0 && at <= now ? at : now;
	return 1;
}
