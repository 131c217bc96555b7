/* SPDX-License-Identifier: MIT */
/* poll.c: the poll backend of the tracking seam (track.h), for a task
 * that could not be traced (ptrace refused, or --tracking poll).  The
 * tree is what a /proc scan finds descended from the root, or reparented
 * to tpmon (a subreaper); processes that vanish from /proc, or whose pid
 * now names another process, have ended.  wait() reaps tpmon's own
 * children: the root and the orphans, with their CPU time. */
#include <stdlib.h>
#include <sys/time.h>
#include "proc.h"
#include "track.h"
#include "tracer.h"

static double timeval_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

void track_poll_reap(struct tp_track *tk, struct tp_event *ev)
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
			 timeval_s(&ev->ru.ru_utime) + timeval_s(&ev->ru.ru_stime));
}

static enum tp_track_drain poll_drain(struct tp_track *tk, bool (*turn_over)(void *), void *arg)
{
	return track_wait_events(tk, track_poll_reap, turn_over, arg);
}

static const struct proc_entry *find(const struct proc_entry *v, size_t n, pid_t pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].pid == pid)
			return &v[i];
	return NULL;
}

/* Add the processes descended from the root (or reparented to tpmon)
 * that the table does not know yet, and end those that vanished. */
static void poll_refresh(struct tp_track *tk)
{
	struct tp_ptree *t = tk->tree;
	struct proc_entry *v;
	size_t n = proc_list(&v), i;
	struct tp_proc *p, *next;
	bool added = true;

	/* end the processes that vanished or whose pid was reused */
	for (p = t->live; p; p = next) {
		const struct proc_entry *s = find(v, n, p->pid);

		next = p->next;
		if (p->pid == tk->root)
			continue;	/* reaped by wait4, not here */
		if (!s || (p->starttime && s->starttime != p->starttime))
			ptree_thread_gone(t, p->pid);
	}
	while (added) {
		added = false;
		for (i = 0; i < n; i++) {
			if (v[i].pid == tk->self || ptree_proc(t, v[i].pid))
				continue;
			if (v[i].ppid != tk->self && !ptree_proc(t, v[i].ppid))
				continue;
			p = ptree_add_proc(t, v[i].pid, v[i].ppid);
			p->starttime = v[i].starttime;
			added = true;
		}
	}
	free(v);
}

const struct tp_track_ops track_poll_ops = {
	.name = "poll",
	.live = false,
	.drain = poll_drain,
	.refresh = poll_refresh,
};
