/* SPDX-License-Identifier: MIT */
/* attach.c: --pid, the attach backend of the tracking seam (track.h).
 * Once the running tree is seized, the ptrace backend's events follow it
 * (track_attach(), with tracees_new()); the tree is not tpmon's to stop.
 * The tree of a running process is read from /proc
 * (every process's parent from its stat), each thread of it is seized,
 * and the scan is repeated until it finds nothing new: a thread not yet
 * seized may fork meanwhile, and its child is then only in /proc.  One
 * already seized forks under ptrace: its child comes as an event, and
 * seizing it here fails (EPERM), which is left to the event.
 * Reproducer of that race: sh -c 'while :; do sleep 0.01 & done' & tpmon --pid $! */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "basic/compat.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "kernel/proc.h"
#include "kernel/tracer.h"
#include "track/ptrace.h"
#include "track/track.h"

/* Scans before giving up on a tree that keeps changing under us. */
#define MAX_SCANS 50

/* The figures of @p so far, from which its use is counted: its CPU time
 * (stat: every thread, live or not, no children), and its live threads'
 * I/O and timeslices, read thread by thread as the sampler will. */
static void baseline(struct tp_proc *p)
{
	struct proc_stat st;
	pid_t *tids;
	size_t n, i;

	p->base = xcalloc(1, sizeof(*p->base));
	if (proc_read_stat(p->pid, &st) == 0)
		p->base->cpu_ns = (st.utime + st.stime) *
				 (1000000000ull / (uint64_t)proc_clock_ticks());
	n = proc_list_tasks(p->pid, &tids);
	for (i = 0; i < n; i++) {
		struct proc_io io;
		struct proc_schedstat ss;

		if (proc_read_thread_io(p->pid, tids[i], &io) == 0)
			proc_io_add(&p->base->io, &io);
		if (proc_read_thread_schedstat(p->pid, tids[i], &ss) == 0)
			p->base->ctxsw += ss.timeslices;
	}
	free(tids);
}

/* Seize the threads of process @pid not seized yet.  Returns how many
 * were, or -1 with errno when the leader itself could not be. */
static int seize_threads(struct tp_ptree *t, pid_t pid, pid_t ppid, unsigned options)
{
	struct tp_proc *p = ptree_proc(t, pid);
	pid_t *tids;
	size_t n, i;
	int added = 0;

	if (!p) {
		if (tracer_seize(pid, options) < 0)
			return -1;
		p = ptree_add_proc(t, pid, ppid);
		p->attached = true;
		/* its figures so far include children reaped before: read
		 * it thread by thread, never as a whole */
		p->had_children = true;
		ptree_thread(t, pid)->started = true;
		baseline(p);
		added++;
	}
	n = proc_list_tasks(pid, &tids);
	for (i = 0; i < n; i++) {
		if (ptree_thread(t, tids[i]) || tracer_seize(tids[i], options) < 0)
			continue;
		ptree_add_thread(t, p, tids[i])->started = true;
		added++;
	}
	free(tids);
	return added;
}

/* One scan: seize what is new in the tree of @root.  Returns the number
 * of threads seized, or -1 when the root could not be. */
static int scan(struct tp_ptree *t, pid_t root, pid_t self, unsigned options)
{
	struct proc_entry *all;
	size_t n = proc_list(&all), i;
	int added = 0, r;
	bool grew = true;

	r = seize_threads(t, root, 0, options);
	if (r < 0) {
		free(all);
		return -1;
	}
	added += r;
	/* parents before children: repeat while the tree grows */
	while (grew) {
		grew = false;
		for (i = 0; i < n; i++) {
			if (all[i].pid == self || all[i].pid == root ||
			    !ptree_proc(t, all[i].ppid))
				continue;
			if (!ptree_proc(t, all[i].pid))
				grew = true;
			r = seize_threads(t, all[i].pid, all[i].ppid, options);
			if (r > 0)
				added += r;
			else if (r < 0)
				debug_msg("attach: %d: %s", (int)all[i].pid, strerror(errno));
			all[i].ppid = 0;	/* done with it */
		}
	}
	free(all);
	return added;
}

/* Seize @pid (the root: its failure fails the attach) and every thread
 * of every descendant of it, with ptrace @options, adding them to @t as
 * started, each process with the baseline of its figures at attach
 * (ptree_proc_acct() counts from there).  @self (tpmon) is never
 * followed.  Returns 0, 1 when the tree still changed after the last
 * scan (a process born and gone meanwhile may be missed), or -1 with
 * errno (ESRCH: no such process, EPERM: not permitted, or already
 * traced, EINVAL: @pid is a thread, not a process) after which @t holds
 * nothing. */
static int attach_tree(struct tp_ptree *t, pid_t pid, pid_t self, unsigned options)
{
	pid_t tgid = pid, ppid = 0;
	int i, r = 1;

	if (pid == self) {
		errno = EPERM;
		return -1;
	}
	/* a thread's id opens /proc/TID too, but names no process */
	if (proc_read_status_ids(pid, &tgid, &ppid) == 0 && tgid != pid) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < MAX_SCANS && r > 0; i++) {
		r = scan(t, pid, self, options);
		if (r < 0 && i == 0)
			return -1;
	}
	debug_msg("attach: %u %s, %u %s after %d %s", t->nlive,
		  PLURAL(t->nlive, "process", "processes"), t->nthreads,
		  PLURAL(t->nthreads, "thread", "threads"), i, PLURAL(i, "scan", "scans"));
	return r > 0;
}

struct tp_track *track_attach(pid_t pid, bool exec_events, struct tp_ptree *t,
			      const struct tp_track_sink *sink, pid_t self)
{
	struct tp_track *tk;
	int r = attach_tree(t, pid, self, tracer_options_attach(exec_events));

	if (r < 0)
		return NULL;
	tk = tracees_new(t, sink, self, pid);
	/* the tree forked faster than the scans: what was born and gone
	 * between two of them is not counted */
	tk->counts_partial = r > 0;
	return tk;
}
