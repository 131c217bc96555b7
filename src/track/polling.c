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
 * final CPU time, I/O and peak RSS (tk->exit_records).  Once the kernel
 * dropped events (of any process), each refresh checks the table against
 * /proc (check_tree()); once a loss of the tree's is found, the scans
 * come back and the figures are lower bounds. */
#include <stdlib.h>
#include "basic/xmalloc.h"
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

/* Has @p of the table ended: the listing's entry @e for its pid is
 * missing, or shows another start time (the pid reused)? */
static bool vanished(const struct tp_proc *p, const struct proc_entry *e)
{
	return !e || (p->starttime && e->starttime != p->starttime);
}

/* End the processes of the table that the listing @v lacks, or whose
 * pid it shows reused. */
static void end_vanished(struct tp_track *tk, const struct proc_entry *v, size_t n)
{
	struct tp_proc *p, *next;

	for (p = tk->tree->live; p; p = next) {
		const struct proc_entry *s = find(v, n, p->pid);

		next = p->next;
		if (p->pid == tk->root)
			continue;	/* reaped by wait4, not here */
		if (vanished(p, s))
			ptree_thread_gone(tk->tree, p->pid);
	}
}

/* Is the process @e of the tree (its parent in the table, or tpmon)? */
static bool of_tree(const struct tp_track *tk, const struct proc_entry *e)
{
	return e->pid != tk->self && (e->ppid == tk->self || ptree_proc(tk->tree, e->ppid));
}

/* The kernel dropped events: check the table against /proc, with the
 * events read once more after the listing.  A process the table held
 * before the listing and that the listing lacks has ended (its exit event
 * was dropped; its record, sent before, has been read).  A live process
 * of the tree that the events still do not know had its fork event
 * dropped: the records are no longer complete.  (A zombie was ended by
 * its event.) */
static void check_tree(struct tp_track *tk)
{
	struct proc_entry *v;
	pid_t *before = xreallocarray(NULL, tk->tree->nlive + 1, sizeof(*before));
	size_t n, i, nb = 0;
	struct tp_proc *p;

	for (p = tk->tree->live; p && nb < tk->tree->nlive; p = p->next)
		before[nb++] = p->pid;
	n = proc_list(&v);
	exitrec_drain(tk->priv, tk, NULL, NULL);
	for (i = 0; i < nb; i++) {
		const struct proc_entry *e = find(v, n, before[i]);

		/* gone, or its pid reused since: its exit event was dropped */
		if (before[i] != tk->root && (p = ptree_proc(tk->tree, before[i])) != NULL &&
		    vanished(p, e))
			ptree_thread_gone(tk->tree, before[i]);
	}
	free(before);
	for (i = 0; i < n; i++) {
		struct proc_stat st;

		if (!of_tree(tk, &v[i]) || ptree_proc(tk->tree, v[i].pid) ||
		    proc_read_stat(v[i].pid, &st) < 0 || st.state == 'Z')
			continue;
		exitrec_lost(tk->priv, "a process of the tree no event told of");
		break;
	}
	free(v);
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
	struct tp_proc *p;
	bool added = tk->priv == NULL;

	if (tk->priv) {
		exitrec_drain(tk->priv, tk, NULL, NULL);
		if (exitrec_gaps(tk->priv) && exitrec_complete(tk->priv))
			check_tree(tk);
		tk->exit_records = exitrec_complete(tk->priv);
		if (tk->exit_records)
			return;	/* the records hold the whole tree */
	}
	n = proc_list(&v);
	end_vanished(tk, v, n);
	while (added) {
		added = false;
		for (i = 0; i < n; i++) {
			if (!of_tree(tk, &v[i]) || ptree_proc(t, v[i].pid))
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
	.kind = TP_TRACK_POLL,
	.needs = "nothing",
	.exact_ends = false,
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
