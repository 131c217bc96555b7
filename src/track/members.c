/* SPDX-License-Identifier: MIT */
/* members.c: the cgroup backend of the tracking seam (track.h), for
 * --tracking=cgroup.  Nothing is traced and nothing stops: the tree is the
 * set of processes in the task's cgroup and below (cgroup.procs, read at
 * each refresh()), whatever their clone flags or parents.  A process that
 * lived between two refreshes is never in the table (the kernel's figures,
 * cpu.stat and memory.peak, still count it).  wait() reaps tpmon's own
 * children, the root and the orphans, as in the poll backend. */
#include <signal.h>
#include <stdlib.h>
#include "cgroup.h"
#include "cgrun.h"
#include "proc.h"
#include "track.h"

static enum tp_track_drain members_drain(struct tp_track *tk, bool (*turn_over)(void *),
					 void *arg)
{
	return track_poll_ops.drain(tk, turn_over, arg);
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

/* Add the cgroup's members that the table lacks, end the processes that
 * left it (or whose pid now names another process).  The root is ended
 * by wait(), not here. */
static void members_refresh(struct tp_track *tk)
{
	struct tp_ptree *t = tk->tree;
	struct tp_proc *p, *next;
	pid_t *v = NULL;
	size_t n = cgroup_members(tk->cgroup->task, &v), i;

	if (n)
		qsort(v, n, sizeof(*v), cmp_pid);
	for (p = t->live; p; p = next) {
		next = p->next;
		if (p->pid != tk->root && !listed(v, n, p->pid))
			ptree_thread_gone(t, p->pid);
	}
	for (i = 0; i < n; i++) {
		struct proc_stat st;

		if (v[i] == tk->self || proc_read_stat(v[i], &st) < 0)
			continue;
		p = ptree_proc(t, v[i]);
		if (p && (!p->starttime || p->starttime == st.starttime))
			continue;
		if (p) {
			if (p->pid == tk->root)
				continue;
			ptree_thread_gone(t, v[i]);	/* the pid was reused */
		}
		p = ptree_add_proc(t, v[i], st.ppid);
		p->starttime = st.starttime;
	}
	free(v);
}

/* Every process of the cgroup, seen or not: SIGTERM (and SIGCONT) to
 * each member, SIGKILL through cgroup.kill. */
static unsigned members_signal_all(struct tp_track *tk, int sig)
{
	pid_t *v = NULL;
	size_t n = cgroup_members(tk->cgroup->task, &v), i;
	unsigned sent = 0;

	if (sig == SIGKILL) {
		free(v);
		cgrun_kill(tk->cgroup, 0);
		return (unsigned)n;
	}
	for (i = 0; i < n; i++) {
		if (kill(v[i], sig) == 0)
			sent++;
		if (sig == SIGTERM)
			kill(v[i], SIGCONT);
	}
	free(v);
	return sent;
}

const struct tp_track_ops track_cgroup_ops = {
	.name = "cgroup",
	.live = false,
	.drain = members_drain,
	.refresh = members_refresh,
	.signal_all = members_signal_all,
};
