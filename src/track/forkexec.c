/* SPDX-License-Identifier: MIT */
/* forkexec.c: fork/exec of the task.  The child blocks on a pipe until the
 * parent has seized it, so the tracer sees the very first exec; the child
 * side calls only async-signal-safe functions. */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cgroup/cgroup.h"
#include "basic/messages.h"
#include "track/nested.h"
#include "track/forkexec.h"
#include "kernel/tracer.h"
#include "basic/xmalloc.h"

extern char **environ;

static int check_exec(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (access(path, X_OK) < 0 || !S_ISREG(st.st_mode)) {
		errno = EACCES;
		return -1;
	}
	return 0;
}

char *launch_find(const char *cmd, bool *denied)
{
	const char *pathvar = getenv("PATH"), *p;

	*denied = false;
	if (!pathvar)
		pathvar = "/usr/local/bin:/usr/bin:/bin";
	for (p = pathvar;; p++) {
		const char *end = strchrnul(p, ':');
		char *cand = end == p ? xasprintf("./%s", cmd) :
			     xasprintf("%.*s/%s", (int)(end - p), p, cmd);

		if (check_exec(cand) == 0)
			return cand;
		if (errno == EACCES || errno == EISDIR)
			*denied = true;
		free(cand);
		if (!*end)
			return NULL;
		p = end;
	}
}

char *launch_resolve(const char *cmd, int *status)
{
	bool saw_eacces;
	char *found;

	if (!*cmd) {
		error_msg("empty command name");
		*status = TP_STATUS_NOTFOUND;
		return NULL;
	}
	if (strchr(cmd, '/')) {
		if (check_exec(cmd) == 0)
			return xstrdup(cmd);
		*status = errno == ENOENT || errno == ENOTDIR ?
			  TP_STATUS_NOTFOUND : TP_STATUS_NOEXEC;
		perror_msg("cannot run %s", cmd);
		return NULL;
	}
	found = launch_find(cmd, &saw_eacces);
	if (found)
		return found;
	*status = saw_eacces ? TP_STATUS_NOEXEC : TP_STATUS_NOTFOUND;
	if (saw_eacces)
		error_msg("cannot run %s: Permission denied", cmd);
	else
		error_msg("%s: command not found", cmd);
	return NULL;
}

/* Child side: wait for the tracer, set up, exec.  Async-signal-safe only. */
static void ATTR_NORETURN child(const struct tp_launch_opts *o, int go_fd,
				int err_fd, pid_t parent)
{
	char c;
	int err;

	sigaction(SIGPIPE, o->child_sigpipe, NULL);
	sigaction(SIGCHLD, o->child_sigchld, NULL);
	if (o->child_nofile && o->child_nofile->rlim_cur)
		setrlimit(RLIMIT_NOFILE, o->child_nofile);
	/* lowering a priority is always permitted */
	if (o->restore_nice)
		setpriority(PRIO_PROCESS, 0, o->child_nice);
	sigprocmask(SIG_SETMASK, o->child_mask, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(TP_STATUS_FAILURE);
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	if (c != 'g' && c != 'u')	/* the monitor died or gave up */
		_exit(TP_STATUS_FAILURE);
	if (o->filter && c == 'g') {	/* 'u': untraced, a filter is moot */
		if (o->filter_needs_nnp &&
		    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			goto fail;
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, o->filter) < 0)
			goto fail;
	}
	if (c == 'u' && o->untraced_close >= 0)
		close(o->untraced_close);
	execve(o->path, o->argv, c == 'g' && o->traced_env ? o->traced_env : environ);
fail:
	err = errno;
	if (write(err_fd, &err, sizeof(err)) < 0) {
		/* the parent will see EOF and a dead child */
	}
	_exit(err == ENOENT ? TP_STATUS_NOTFOUND : TP_STATUS_NOEXEC);
}

static int make_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0) {
		perror_msg("pipe");
		return -1;
	}
	return 0;
}

/* Resume a stop of the child before its exec: a signal that reached it
 * after the seize (re-injected), or an open seen by the seccomp filter
 * (valgrind's own, for one).  Returns 1 when the child has ended, which
 * is left for the tracker to reap: the error pipe then says whether it
 * ran the command.  (A loaded machine lets the command exec and exit
 * between a poll that timed out and this look: its exit is the task's;
 * it was taken for a death before exec, and tpmon gave up with 125.)
 * Reproducer: a `tpmon -- true` loop beside a fork bomb. */
static int unblock_child(pid_t pid)
{
	siginfo_t si;
	int st, event;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, pid, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT | __WALL) < 0 ||
	    si.si_pid != pid)
		return 0;
	if (si.si_code != CLD_TRAPPED && si.si_code != CLD_STOPPED)
		return 1;
	if (waitpid(pid, &st, WNOHANG | __WALL) != pid || !WIFSTOPPED(st))
		return 0;
	event = (unsigned)st >> 16;
	if (event == 0)
		tracer_resume(pid, WSTOPSIG(st));	/* signal-delivery stop */
	else if (event == PTRACE_EVENT_STOP && tracer_is_stop_signal(WSTOPSIG(st)))
		tracer_listen(pid);	/* stopped by a signal: stays so */
	else
		tracer_resume(pid, 0);
	return 0;
}

/* The child's exec verdict: 0 when it exec'd (or ended without a word:
 * its end is then the task's, for the tracker to reap), else its errno.
 * While waiting, the child's stops are resumed, so a signal before exec
 * cannot deadlock us. */
static int exec_verdict(int fd, pid_t pid, bool traced)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	int err = 0;
	ssize_t n;

	for (;;) {
		int r = poll(&pfd, 1, traced ? 20 : -1);

		if (r > 0)
			break;
		if (r < 0 && errno != EINTR)
			return 0;
		if (traced && unblock_child(pid))
			break;		/* gone: the pipe is closed, its data final */
	}
	do
		n = read(fd, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(err) ? err : 0;
}

/* Wait until @pid is really gone; a traced child may report stops first. */
static void reap_dead_child(pid_t pid)
{
	int st;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &st, __WALL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || WIFEXITED(st) || WIFSIGNALED(st))
			return;
		tracer_resume(pid, 0);
	}
}

/* Move @pid into each cgroup of @leaves (NULL-ended; NULL: none), one per
 * hierarchy.  0, or -1 after a message. */
static int enter_leaves(const char *const *leaves, pid_t pid)
{
	for (; leaves && *leaves; leaves++)
		if (cgroup_enter(*leaves, pid) < 0) {
			perror_msg("cannot move the task into %s", *leaves);
			return -1;
		}
	return 0;
}

pid_t launch_start(const struct tp_launch_opts *o, bool *traced, int *status)
{
	int go[2], er[2], err;
	pid_t pid, parent = getpid();

	if (make_pipe(go) < 0)
		goto fail;
	if (make_pipe(er) < 0) {
		close(go[0]);
		close(go[1]);
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		perror_msg("fork");
		close(go[0]); close(go[1]); close(er[0]); close(er[1]);
		goto fail;
	}
	if (pid == 0) {
		close(go[1]);
		close(er[0]);
		child(o, go[0], er[1], parent);
	}
	close(go[0]);
	close(er[1]);
	/* into its cgroup before it runs a single instruction of the task:
	 * whatever it starts is born there */
	if (enter_leaves(o->cgroup_leaves, pid) < 0) {
		close(go[1]);		/* the child sees EOF and exits */
		close(er[0]);
		reap_dead_child(pid);
		goto fail;
	}
	*traced = false;
	if (o->trace && tracer_seize(pid, o->trace_options) == 0)
		*traced = true;
	err = errno;
	/* still waiting on its pipe: its whole subtree is registered */
	if (!*traced && o->nest_chan >= 0 && o->nest_registered &&
	    nested_register(o->nest_chan, pid) == 0)
		*o->nest_registered = true;
	if (o->trace && !*traced)
		warn_msg("ptrace refused (%s): %s", strerror(err),
			 o->nest_registered && *o->nest_registered ? "the enclosing tpmon counts the processes, "
			 "/proc polling for the rest" : "falling back to /proc polling");
	/* before the task runs a single instruction: a task of the same
	 * user could otherwise ptrace tpmon, or write into its memory, and
	 * make it let go of the tree.  Not before the seize: the child,
	 * forked while tpmon was dumpable, stays seizable either way. */
	prctl(PR_SET_DUMPABLE, 0);
	if (write(go[1], *traced ? "g" : "u", 1) != 1)
		perror_msg("cannot release the child");
	close(go[1]);
	err = exec_verdict(er[0], pid, *traced);
	close(er[0]);
	if (err) {
		errno = err;
		perror_msg("cannot run %s", o->path);
		/* The child has exited (or is stopped at its exit if traced):
		 * killing it first makes the reap below certain. */
		kill(pid, SIGKILL);
		reap_dead_child(pid);
		*status = err == ENOENT ? TP_STATUS_NOTFOUND : TP_STATUS_NOEXEC;
		return -1;
	}
	return pid;
fail:
	*status = TP_STATUS_FAILURE;
	return -1;
}
