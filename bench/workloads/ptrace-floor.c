/* SPDX-License-Identifier: MIT */
/*
 * ptrace-floor: the least any ptrace-based monitor can cost.
 *
 *   ptrace-floor COMMAND [ARGS...]
 *
 * Runs COMMAND and follows its whole tree with the same ptrace options as
 * tpmon (PTRACE_SEIZE, fork/vfork/clone events, no exec, exit or syscall
 * stops) but measures nothing: every stop is resumed at once and every
 * exit reaped at once.  A tracee still stops at each fork (the parent's
 * event and the child's attach stop) and at each signal it gets (SIGCHLD
 * when a child ends), and its parent sees the child's exit only after the
 * tracer has reaped it.  The bench puts this column next to tpmon's so the
 * cost of those round trips, which no tracer can avoid, shows apart from
 * the cost of tpmon's own work.
 *
 * Exit status: COMMAND's, or 128 + the signal that killed it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static void resume(pid_t pid, int status)
{
	int event = (unsigned)status >> 16;
	int sig = WSTOPSIG(status);

	if (event == PTRACE_EVENT_STOP) {
		/* a group-stop stays stopped; an attach stop goes on */
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
			ptrace(PTRACE_LISTEN, pid, 0L, 0L);
		else
			ptrace(PTRACE_CONT, pid, 0L, 0L);
	} else if (event) {
		ptrace(PTRACE_CONT, pid, 0L, 0L);
	} else {
		ptrace(PTRACE_CONT, pid, 0L, (long)sig);	/* signal-delivery stop */
	}
}

int main(int argc, char **argv)
{
	long opts = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
		    PTRACE_O_EXITKILL;
	int status, result = 1;
	pid_t child, pid;

	if (argc < 2) {
		fprintf(stderr, "usage: ptrace-floor COMMAND [ARGS...]\n");
		return 2;
	}
	child = fork();
	if (child < 0) {
		perror("ptrace-floor: fork");
		return 1;
	}
	if (child == 0) {
		raise(SIGSTOP);		/* wait to be seized */
		execvp(argv[1], argv + 1);
		perror("ptrace-floor: exec");
		_exit(127);
	}
	if (waitpid(child, &status, WSTOPPED) != child ||
	    ptrace(PTRACE_SEIZE, child, 0L, opts) < 0) {
		perror("ptrace-floor: seize");
		kill(child, SIGKILL);
		return 1;
	}
	kill(child, SIGCONT);
	while ((pid = waitpid(-1, &status, __WALL)) > 0 || (pid < 0 && errno == EINTR)) {
		if (pid < 0)
			continue;
		if (WIFSTOPPED(status))
			resume(pid, status);
		else if (pid == child)
			result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	return result;
}
