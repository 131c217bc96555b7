/* SPDX-License-Identifier: MIT */
/* test-track-signal.c: outside ptrace, tpmon signals a process of its
 * table only while the pid still names that process (track_proc_signal()
 * in src/track/base.c).  A process that ended unseen leaves its pid to
 * the next process of the machine, at once where pid_max is 32768: here
 * real children stand for the table's processes and for the strangers
 * that took their pids (a start time that differs, a parent outside the
 * tree, a parent whose own pid was taken), and each stranger must live
 * on. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kernel/proc.h"
#include "track/base.h"
#include "track/ptree.h"
#include "track/track.h"
#include "tap.h"

static const struct tp_track_ops ops = { .kind = TP_TRACK_POLL };

/* A child that waits to be killed. */
static pid_t paused_child(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	return pid;
}

/* A child whose own child (the grandchild, in *grandchild) waits to be
 * killed: a process whose parent is not tpmon. */
static pid_t parent_of_paused(pid_t *grandchild)
{
	int fds[2];
	pid_t pid, g = 0;

	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		g = paused_child();
		if (write(fds[1], &g, sizeof(g)) != (ssize_t)sizeof(g))
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &g, sizeof(g)) != (ssize_t)sizeof(g))
		g = -1;
	close(fds[0]);
	*grandchild = g;
	return pid;
}

static bool killed(pid_t pid)
{
	int st = 0;

	return waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
}

static bool alive(pid_t pid)
{
	return kill(pid, 0) == 0;
}

static uint64_t starttime_of(pid_t pid)
{
	struct proc_stat st;

	return proc_read_stat(pid, &st) == 0 ? st.starttime : 0;
}

int main(void)
{
	struct tp_track_sink sink = { 0 };
	struct tp_ptree t;
	struct tp_track *tk;
	struct tp_proc *p, *mid;
	pid_t a, b, c, g = -1, root = getpid();

	plan(11);
	if (proc_init() < 0) {
		diag("no /proc");
		return 1;
	}
	ptree_init(&t);
	ptree_add_proc(&t, root, 0);
	tk = track_new(&ops, &t, &sink, getpid(), root);

	a = paused_child();
	p = ptree_add_proc(&t, a, root);
	p->starttime = starttime_of(a);
	ok(track_proc_signal(tk, p, SIGKILL) == 0 && killed(a),
	   "the table's process, its start time the same: signalled");

	b = paused_child();
	p = ptree_add_proc(&t, b, root);
	p->starttime = starttime_of(b) + 1;
	errno = 0;
	ok(track_proc_signal(tk, p, SIGKILL) < 0 && errno == ESRCH,
	   "another start time (the pid reused): not signalled, ESRCH");
	ok(alive(b), "... and that process lives on");
	kill(b, SIGKILL);
	waitpid(b, NULL, 0);

	c = paused_child();
	p = ptree_add_proc(&t, c, root);
	ok(track_proc_signal(tk, p, SIGKILL) == 0 && killed(c),
	   "not sampled yet, tpmon's child: signalled");

	c = parent_of_paused(&g);
	p = ptree_add_proc(&t, g, root);
	ok(g > 0 && track_proc_signal(tk, p, SIGKILL) < 0,
	   "not sampled yet, its parent outside the tree: not signalled");
	ok(g > 0 && alive(g), "... and it lives on");
	mid = ptree_add_proc(&t, c, root);
	mid->starttime = starttime_of(c) + 1;
	ok(track_proc_signal(tk, p, SIGKILL) < 0 && alive(g),
	   "its parent's pid in the table, but another start time (a stale entry): not signalled");
	mid->starttime = starttime_of(c);
	ok(track_proc_signal(tk, p, SIGKILL) == 0,
	   "once its parent is the table's: signalled");
	ok(track_proc_signal(tk, mid, SIGKILL) == 0 && killed(c), "the parent too");

	ptree_thread_gone(&t, g);
	ptree_thread_gone(&t, c);
	a = paused_child();
	p = ptree_add_proc(&t, a, root);
	p->starttime = starttime_of(a);
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);
	errno = 0;
	ok(track_proc_signal(tk, p, SIGTERM) < 0 && errno == ESRCH, "a process gone: ESRCH");

	tk->ptraced = true;
	b = paused_child();
	p = ptree_add_proc(&t, b, root);
	ok(track_proc_signal(tk, p, SIGKILL) == 0 && killed(b),
	   "ptrace: the tracee's pid cannot be reused, it is signalled as it is");

	track_free(tk);
	ptree_free(&t);
	return done();
}
