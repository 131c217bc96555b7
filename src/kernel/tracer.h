/* SPDX-License-Identifier: MIT */
/* tracer.h: ptrace only.  Turns waitid()/wait4() results into typed events and
 * offers the few requests the monitor makes (seize, resume, listen). */
#ifndef TPMON_TRACER_H
#define TPMON_TRACER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

enum tp_event_kind {
	TP_EV_NEW_CHILD,	/* fork/vfork/clone stop in the parent: msg = new tid;
				 * resume the parent */
	TP_EV_EXEC,		/* execve done: msg = former tid; resume */
	TP_EV_PTRACE_STOP,	/* PTRACE_EVENT_STOP: attach stop of a new tracee
				 * (resume) or group-stop (sig is a stop signal:
				 * listen) */
	TP_EV_SIGNAL,		/* signal-delivery stop: resume injecting sig */
	TP_EV_SECCOMP,		/* seccomp RET_TRACE stop: msg = filter data; resume */
	TP_EV_EXITED,		/* thread ended with exit() */
	TP_EV_KILLED,		/* thread ended by a fatal signal (sig) */
	/* For these two, when zombie is true the thread is still a zombie:
	 * its /proc entries hold its final figures until tracer_reap(),
	 * which fills status and ru.  Otherwise it is already reaped. */
};

enum tp_clone_kind { TP_CLONE_FORK, TP_CLONE_VFORK, TP_CLONE_CLONE };

struct tp_event {
	enum tp_event_kind kind;
	pid_t tid;
	int status;		/* raw wait status */
	int sig;		/* stop or fatal signal */
	enum tp_clone_kind clone_kind;
	unsigned long msg;	/* PTRACE_GETEVENTMSG */
	bool zombie;		/* exited, not reaped yet */
	struct rusage ru;	/* for TP_EV_EXITED / TP_EV_KILLED, once reaped */
};

/* Options every tracee gets: fork/vfork/clone events and EXITKILL.
 * Exits need no stop: a thread's figures are read from its zombie.
 * @exec adds exec events, @seccomp PTRACE_O_TRACESECCOMP. */
unsigned tracer_options(bool exec, bool seccomp);

/* Options for --pid: the same (no seccomp stops: no filter can be put in
 * a running process) without EXITKILL, as processes tpmon did not start
 * must outlive tpmon. */
unsigned tracer_options_attach(bool exec);

/* PTRACE_SEIZE @pid with @options.  0, or -1 with errno. */
int tracer_seize(pid_t pid, unsigned options);

/* Next event without blocking: 1 and *ev filled, 0 when nothing
 * is pending, -1 with errno (ECHILD: no children left). */
int tracer_next_event(struct tp_event *ev);

/* Reap the zombie of @ev (ev->zombie), filling its status and rusage. */
void tracer_reap(struct tp_event *ev);

/* Resume a stopped tracee, delivering @sig (0 for none).  A tracee that
 * died meanwhile (ESRCH) is not an error. */
void tracer_resume(pid_t tid, int sig);

/* Leave a tracee in group-stop but let it be woken by SIGCONT. */
void tracer_listen(pid_t tid);

/* The system call a tracee is stopped in at a seccomp stop. */
struct tp_syscall {
	long nr;		/* its number (native ABI) */
	uint64_t args[6];
};

/* Read the call that @tid, stopped at a seccomp stop (TP_EV_SECCOMP), is
 * making (PTRACE_GET_SYSCALL_INFO).  0, or -1 with errno: ptrace's (EIO
 * before Linux 5.3, ESRCH when the tracee is gone), or EINVAL when the
 * stop is not a seccomp stop. */
int tracer_seccomp_call(pid_t tid, struct tp_syscall *call);

/* The same from the registers of @tid (PTRACE_GETREGSET), for kernels
 * before 5.3: the number and the first argument only (x86_64 and
 * aarch64).  0, or -1 with errno (ENOSYS on other machines). */
int tracer_stop_regs(pid_t tid, struct tp_syscall *call);

/* A copy of descriptor @fd of process @pid (pidfd_open(2) and
 * pidfd_getfd(2), Linux 5.6), owned by the caller: closing it leaves the
 * original to the process.  -1 with errno, and *@what naming the call
 * that failed. */
int tracer_copy_fd(pid_t pid, int fd, const char **what);
/* Who sent a signal, as its siginfo tells (another process's kill(2),
 * tgkill(2) or sigqueue(3); the kernel's own signals have no sender). */
struct tp_sender {
	bool known;
	int signo;
	pid_t pid;
	uid_t uid;
	char command[256];	/* its command line (or comm), read at once */
	const char *why;	/* !known: why not, in words (static), or NULL */
};

/* At a signal-delivery stop of @tid (TP_EV_SIGNAL) for @sig: fill @s
 * from PTRACE_GETSIGINFO (s->known false when no process sent it). */
void tracer_sender(pid_t tid, int sig, struct tp_sender *s);
/* The same from the siginfo @si of @sig (sigtimedwait(2)'s, for a signal
 * to tpmon itself). */
void tracer_siginfo_sender(const siginfo_t *si, int sig, struct tp_sender *s);

/* Is @sig one that causes a group-stop? */
bool tracer_is_stop_signal(int sig);

#endif
