/* SPDX-License-Identifier: MIT */
/* polling.c: the /proc-scan backend of the tracking seam (track.h) ("poll"
 * in the summary and in --tracking), for a task that could not be traced
 * (ptrace refused, or --tracking poll).  The
 * tree is what a /proc scan finds descended from the root, or reparented
 * to tpmon (a subreaper); processes that vanish from /proc, or whose pid
 * now names another process, have ended.  wait() reaps tpmon's own
 * children: the root and the orphans, with their CPU time.
 *
 * As root, the kernel's records (exitrec.h) replace the scans: every
 * fork, exec and exit of the tree as it comes, each task's end with its
 * final CPU time, I/O and peak RSS (tk->exit_records).  The scans come
 * back if records were lost. */
#include <stdlib.h>
#include "kernel/proc.h"
#include "track/base.h"
#include "track/exitrec.h"
#include "track/polling.h"

/* What wait() reaps (the root, orphans) leaves the table once its exit
 * record is applied, and the forks of its last children are known. */
static void on_reap(struct tp_track *tk, struct tp_event *ev)
{
	exitrec_drain(tk->priv, tk, NULL, NULL);
	track_reap_child(tk, ev);
}

static enum tp_track_drain procscan_drain(struct tp_track *tk, bool (*turn_over)(void *), void *arg)
{
	enum tp_track_drain r;
	bool more;

	if (!tk->priv)
		return track_wait_events(tk, track_reap_child, turn_over, arg);
	more = exitrec_drain(tk->priv, tk, turn_over, arg);
	r = track_wait_events(tk, on_reap, turn_over, arg);
	tk->exit_records = exitrec_complete(tk->priv);
	return more && r == TP_TRACK_IDLE ? TP_TRACK_MORE : r;
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
 * that the table does not know yet, and end those that vanished.  With
 * the kernel's records, only once some were lost, and only the ends: a
 * zombie whose exit event was handled must not come back. */
static void procscan_refresh(struct tp_track *tk)
{
	struct tp_ptree *t = tk->tree;
	struct proc_entry *v;
	size_t n, i;
	struct tp_proc *p, *next;
	bool added = tk->priv == NULL;

	if (tk->priv) {
		exitrec_drain(tk->priv, tk, NULL, NULL);
		tk->exit_records = exitrec_complete(tk->priv);
		if (tk->exit_records)
			return;	/* the records hold the whole tree */
	}
	n = proc_list(&v);

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

static void procscan_free(struct tp_track *tk)
{
	exitrec_free(tk->priv);
	tk->priv = NULL;
}

static const struct tp_track_ops procscan_ops = {
	.name = "poll",
	.kind = TP_TRACK_POLL,
	.live = false,
	.drain = procscan_drain,
	.refresh = procscan_refresh,
	.free = procscan_free,
};

struct tp_track *procscan_new(struct tp_ptree *t, const struct tp_track_sink *sink,
			      pid_t self, pid_t root, struct tp_exitrec *x)
{
	struct tp_track *tk = track_new(&procscan_ops, t, sink, self, root);

	tk->priv = x;
	tk->exit_records = exitrec_complete(x);
	return tk;
}
