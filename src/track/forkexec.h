/* SPDX-License-Identifier: MIT */
/* forkexec.h: starting the task: resolve the command, fork, hand the child to
 * the tracer before it runs a single instruction of the task, exec, and
 * report an exec failure through a close-on-exec pipe. */
#ifndef TPMON_FORKEXEC_H
#define TPMON_FORKEXEC_H

#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

struct sock_fprog;

struct tp_launch_opts {
	char *const *argv;		/* command and arguments */
	const char *path;		/* resolved by launch_resolve() */
	const sigset_t *child_mask;	/* signal mask the task starts with */
	const struct sigaction *child_sigpipe;	/* dispositions the task */
	const struct sigaction *child_sigchld;	/* inherits (tpmon's own) */
	const struct rlimit *child_nofile;	/* open-files limit of the task */
	bool restore_nice;		/* give the task back @child_nice */
	int child_nice;			/* (tpmon raised its own priority) */
	bool trace;			/* PTRACE_SEIZE the child */
	unsigned trace_options;
	const struct sock_fprog *filter;	/* seccomp filter or NULL */
	bool filter_needs_nnp;		/* set no_new_privs before the filter */
	char **traced_env;		/* traced: its environment (NULL: ours) */
	int untraced_close;		/* untraced: a descriptor to close, or -1 */
	/* the task starts in these cgroups (one per hierarchy, NULL-ended),
	 * or NULL */
	const char *const *cgroup_leaves;
	int nest_chan;			/* if ptrace is refused: an enclosing */
	bool *nest_registered;		/* tpmon to register the child with */
};

/* @cmd (no slash) in $PATH as execvp() would find it: a malloc'd path,
 * or NULL, with *@denied when a match was not executable.  Quiet. */
char *launch_find(const char *cmd, bool *denied);

/* Find @cmd as execvp() would.  Returns a malloc'd path, or NULL with
 * *status set to 127 (not found) or 126 (not executable) and a message
 * already printed. */
char *launch_resolve(const char *cmd, int *status);

/* Start the task.  On success returns its pid and sets *traced (false when
 * ptrace was refused and the caller must poll).  On failure returns -1
 * with *status 125, 126 or 127 and a message printed; no child is left. */
pid_t launch_start(const struct tp_launch_opts *o, bool *traced, int *status);

#endif
