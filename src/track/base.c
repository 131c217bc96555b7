/* SPDX-License-Identifier: MIT */
/* track.c: what every tracking backend shares: starting the task (ptrace,
 * or poll when ptrace is refused), the end of a thread, signalling the
 * tree, draining wait() events in bounded turns. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgrun.h"
#include "clock.h"
#include "error.h"
#include "launch.h"
#include "nested.h"
#include "sandbox.h"
#include "track.h"
#include "tracer.h"
#include "xmalloc.h"

static struct tp_track *track_new(const struct tp_track_ops *ops, struct tp_ptree *t,
				  const struct tp_track_sink *sink, pid_t self)
{
	struct tp_track *tk = xcalloc(1, sizeof(*tk));

	tk->ops = ops;
	tk->tree = t;
	tk->sink = *sink;
	tk->self = self;
	tk->outer_chan = -1;
	return tk;
}

struct tp_track *track_launch(const struct tp_track_start *s, struct tp_ptree *t,
			      const struct tp_track_sink *sink, pid_t self, int *status)
{
	struct tp_launch_opts so;
	struct sock_fprog *filter = NULL;
	struct tp_track *tk;
	struct stat st;
	char *path = launch_resolve(s->argv[0], status);
	bool traced = false;
	pid_t pid;

	if (!path)
		return NULL;
	tk = track_new(&track_poll_ops, t, sink, self);
	memset(&so, 0, sizeof(so));
	so.argv = s->argv;
	so.path = path;
	so.child_mask = s->child_mask;
	so.child_sigpipe = s->child_sigpipe;
	so.child_sigchld = s->child_sigchld;
	so.child_nofile = s->child_nofile;
	so.restore_nice = s->restore_nice;
	so.child_nice = s->child_nice;
	so.trace = s->ptrace;
	so.cgroup_leaf = s->cgroup ? s->cgroup->leaf : NULL;
	tk->cgroup = s->cgroup;
	if (so.trace) {
		/* no process may leave the tree (a cgroup holds it if there
		 * is one); connect and accept stop in the tracer for the
		 * network figures (and, with --with-inotify, opens) */
		filter = sandbox_task_filter(s->trap_opens, s->trap_net, s->cgroup != NULL);
		so.filter = filter;
		so.filter_needs_nnp = !sandbox_have_cap_sys_admin();
	}
	/* exec events name each process for its record and trace span */
	so.trace_options = tracer_options(s->exec_events,
					  filter && (s->trap_opens || s->trap_net));
	/* an enclosing tpmon's channel; ours is for a traced task only */
	tk->outer_chan = nested_outer();
	so.nest_chan = tk->outer_chan;
	so.nest_registered = &tk->nest_registered;
	if (so.trace)
		tk->nest = nested_open();
	so.traced_env = nested_env(tk->nest);
	so.untraced_close = nested_task_fd(tk->nest);
	/* a UNIX socket in every process of the tree, and no traffic */
	if (nested_task_fd(tk->nest) >= 0 && fstat(nested_task_fd(tk->nest), &st) == 0)
		tk->nest_ino = (uint64_t)st.st_ino;
	if (s->cgroup && s->cgroup_members && !s->ptrace) {
		/* listening before the fork: the root's first child is seen */
		tk->ops = &track_cgroup_ops;
		members_listen(tk, s->exec_events);
	}
	pid = launch_start(&so, &traced, status);
	tk->nest = nested_started(tk->nest, pid > 0 && traced, t);
	sandbox_filter_free(filter);
	free(path);
	if (pid < 0) {
		track_free(tk);
		return NULL;
	}
	tk->root = pid;
	if (traced) {
		tk->ops = &track_ptrace_ops;
		tk->ptraced = true;
		tk->net_trapped = filter != NULL;
	} else if (s->cgroup && s->cgroup_members) {
		tk->ops = &track_cgroup_ops;
	}
	ptree_add_proc(t, pid, 0)->hwm_kb = 0;
	ptree_thread(t, pid)->started = true;
	return tk;
}

unsigned track_signal_all(struct tp_track *tk, int sig)
{
	const struct tp_proc *p;
	unsigned n = 0;

	if (tk->ops->signal_all)
		return tk->ops->signal_all(tk, sig);
	for (p = tk->tree->live; p; p = p->next) {
		if (kill(p->pid, sig) == 0)
			n++;
		else if (errno != ESRCH)
			debug_msg("kill %d: %d", (int)p->pid, errno);
		if (sig == SIGTERM)
			kill(p->pid, SIGCONT);
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
