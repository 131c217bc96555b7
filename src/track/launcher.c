/* SPDX-License-Identifier: MIT */
/* launcher.c: the launcher, on top of the tracking backends.  It starts the
 * task (forkexec.c) with what the task needs from tpmon (the seccomp filter
 * of a traced task, the channel of nested tpmons, the proc connector of
 * the cgroup backend (and, as root, taskstats' records) or the kernel's
 * records of the poll backend,
 * listening before the fork), then follows it with
 * the backend that the options and the kernel allow: ptrace.c when the
 * task is traced, track/cgroup.c for --tracking=cgroup, else polling.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kernel/sandbox.h"
#include "kernel/tracer.h"
#include "track/cgroup.h"
#include "cgroup/cgrun.h"
#include "track/exitrec.h"
#include "track/forkexec.h"
#include "track/nested.h"
#include "track/polling.h"
#include "track/ptrace.h"
#include "track/track.h"

/* What a launch sets up before the fork and hands to the tracker after. */
struct launching {
	struct tp_launch_opts so;
	struct sock_fprog *filter;	/* owned */
	bool net_trapped;		/* the filter stops connect and accept */
	bool opens_trapped;		/* and the open calls */
	struct tp_nested *nest;		/* the channel we serve, or NULL */
	int outer_chan;			/* an enclosing tpmon's, or -1 */
	bool nest_registered;
	uint64_t nest_ino;
	int listener;			/* the cgroup backend's, or -1 */
	struct tp_exitrec *records;	/* the poll or cgroup backend's, or NULL */
};

/* Do the open calls stop?  --with-inotify's always; the input's
 * (measure/opens.h) unless the filter would exist for them alone and
 * need no_new_privs (a user's task in a cgroup: setuid programs would
 * lose their privileges for a figure). */
static bool trap_opens(const struct tp_track_start *s)
{
	if (s->trap_opens)
		return true;
	if (!s->input_opens)
		return false;
	return !s->cgroup || s->trap_net || sandbox_have_cap_sys_admin();
}

/* The child's side of @s: its signals, limits and cgroup, and, if it is
 * to be traced, the filter that keeps every process in the tree and stops
 * connect and accept (and the open calls: the input, --with-inotify) in the tracer. */
static void launch_setup(const struct tp_track_start *s, const char *path, struct launching *l)
{
	struct tp_launch_opts *so = &l->so;

	so->argv = s->argv;
	so->path = path;
	so->child_mask = s->child_mask;
	so->child_sigpipe = s->child_sigpipe;
	so->child_sigchld = s->child_sigchld;
	so->child_nofile = s->child_nofile;
	so->restore_nice = s->restore_nice;
	so->child_nice = s->child_nice;
	so->trace = tracking_info(s->mode)->ptrace;
	so->cgroup_leaves = s->cgroup ? s->cgroup->leaves : NULL;
	if (so->trace) {
		bool opens = trap_opens(s);

		/* no process may leave the tree (a cgroup holds it if any) */
		l->filter = sandbox_task_filter(opens, s->trap_net, s->cgroup != NULL);
		so->filter = l->filter;
		l->net_trapped = l->filter != NULL;
		l->opens_trapped = l->filter != NULL && opens;
		so->filter_needs_nnp = !sandbox_have_cap_sys_admin();
	}
	so->trace_options = tracer_options(s->exec_events,
					   l->filter && (l->opens_trapped || s->trap_net));
}

/* Does the cgroup backend follow the tree (the cgroup mode, a cgroup)? */
static bool by_members(const struct tp_track_start *s)
{
	return s->cgroup && tracking_info(s->mode)->members;
}

/* Nested tpmons: an enclosing tpmon's channel, and ours (a traced task
 * only), a UNIX socket in every process of the tree with no traffic. */
static void nest_setup(struct launching *l)
{
	struct stat st;
	int fd;

	l->outer_chan = nested_outer();
	l->so.nest_chan = l->outer_chan;
	l->so.nest_registered = &l->nest_registered;
	if (l->so.trace)
		l->nest = nested_open();
	l->so.traced_env = nested_env(l->nest);
	fd = nested_task_fd(l->nest);
	l->so.untraced_close = fd;
	if (fd >= 0 && fstat(fd, &st) == 0)
		l->nest_ino = (uint64_t)st.st_ino;
}

/* The tracker of the task @pid, started as @l says. */
static struct tp_track *follow(const struct tp_track_start *s, struct launching *l,
			       pid_t pid, bool traced, struct tp_ptree *t,
			       const struct tp_track_sink *sink, pid_t self)
{
	struct tp_track *tk;

	if (traced) {
		tk = tracees_new(t, sink, self, pid);
		tk->net_trapped = l->net_trapped;
		tk->opens_trapped = l->opens_trapped;
	} else if (by_members(s)) {
		tk = cgmembers_new(t, sink, self, pid, s->cgroup, l->listener, l->records,
				   s->exec_events);
		l->listener = -1;
		l->records = NULL;
	} else {
		tk = procscan_new(t, sink, self, pid, l->records);
		l->records = NULL;
	}
	tk->cgroup = s->cgroup;
	tk->nest = l->nest;
	tk->outer_chan = l->outer_chan;
	tk->nest_registered = l->nest_registered;
	tk->nest_ino = l->nest_ino;
	ptree_add_proc(t, pid, 0)->hwm_kb = 0;
	ptree_thread(t, pid)->started = true;
	return tk;
}

struct tp_track *track_launch(const struct tp_track_start *s, struct tp_ptree *t,
			      const struct tp_track_sink *sink, pid_t self, int *status)
{
	struct launching l;
	char *path = launch_resolve(s->argv[0], status);
	bool traced = false;
	pid_t pid;

	if (!path)
		return NULL;
	memset(&l, 0, sizeof(l));
	l.listener = -1;
	launch_setup(s, path, &l);
	nest_setup(&l);
	/* listening before the fork: the root's first child is seen */
	if (by_members(s)) {
		l.listener = cgmembers_listen();
		/* as root, each task's final I/O too */
		if (l.listener >= 0)
			l.records = exitrec_open_records();
	} else if (!tracking_info(s->mode)->ptrace)
		l.records = exitrec_open(s->exec_events);
	pid = launch_start(&l.so, &traced, status);
	l.nest = nested_started(l.nest, pid > 0 && traced, t);
	sandbox_filter_free(l.filter);
	l.filter = NULL;
	free(path);
	if (pid >= 0)
		return follow(s, &l, pid, traced, t, sink, self);
	nested_close(l.nest);
	if (l.outer_chan >= 0)
		close(l.outer_chan);
	if (l.listener >= 0)
		close(l.listener);
	exitrec_free(l.records);
	return NULL;
}
