/* SPDX-License-Identifier: MIT */
/* tracer.c: the ptrace layer.  A tracee stops only at fork/vfork/clone
 * and for signals: no syscall stops, no exec or exit stops (with SEIZE an
 * exec sends no SIGTRAP, and an exited thread is peeked at with WNOWAIT
 * and read from /proc while it is a zombie).  --with-inotify adds exec
 * stops and the open family routed here by its seccomp filter; process
 * records and the trace add exec stops (to name each process). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <elf.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "basic/messages.h"
#include "kernel/proc.h"
#include "kernel/tracer.h"

unsigned tracer_options(bool exec, bool seccomp)
{
	unsigned o = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		     PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL;

	if (exec)
		o |= PTRACE_O_TRACEEXEC;
	if (seccomp)
		o |= PTRACE_O_TRACESECCOMP;
	return o;
}

unsigned tracer_options_attach(bool exec)
{
	return tracer_options(exec, false) & ~(unsigned)PTRACE_O_EXITKILL;
}

int tracer_seize(pid_t pid, unsigned options)
{
	return ptrace(PTRACE_SEIZE, pid, 0L, (long)options) < 0 ? -1 : 0;
}

bool tracer_is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static void classify_stop(struct tp_event *ev)
{
	int event = (unsigned)ev->status >> 16;

	ev->sig = WSTOPSIG(ev->status);
	switch (event) {
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		ev->kind = TP_EV_NEW_CHILD;
		ev->clone_kind = event == PTRACE_EVENT_FORK ? TP_CLONE_FORK :
				 event == PTRACE_EVENT_VFORK ? TP_CLONE_VFORK :
				 TP_CLONE_CLONE;
		break;
	case PTRACE_EVENT_EXEC:
		ev->kind = TP_EV_EXEC;
		break;
	case PTRACE_EVENT_STOP:
		ev->kind = TP_EV_PTRACE_STOP;
		return;
	case PTRACE_EVENT_SECCOMP:
		ev->kind = TP_EV_SECCOMP;
		break;
	default:
		ev->kind = TP_EV_SIGNAL;
		return;
	}
	if (ptrace(PTRACE_GETEVENTMSG, ev->tid, 0L, &ev->msg) < 0)
		ev->msg = 0;
}

static void classify_status(struct tp_event *ev)
{
	if (WIFSTOPPED(ev->status)) {
		classify_stop(ev);
	} else if (WIFSIGNALED(ev->status)) {
		ev->kind = TP_EV_KILLED;
		ev->sig = WTERMSIG(ev->status);
	} else {
		ev->kind = TP_EV_EXITED;
	}
}

static int waitid_retry(idtype_t idtype, id_t id, siginfo_t *si, int options)
{
	int r;

	do {
		si->si_pid = 0;
		r = waitid(idtype, id, si, options);
	} while (r < 0 && errno == EINTR);
	return r;
}

/* Take the stop that a peek showed for @ev->tid; false if it is gone (the
 * tracee was killed between the two calls: its exit comes next). */
static bool take_stop(struct tp_event *ev)
{
	siginfo_t si;

	if (waitid_retry(P_PID, (id_t)ev->tid, &si, WSTOPPED | WNOHANG | __WALL) < 0 ||
	    si.si_pid != ev->tid)
		return false;
	/* the ptrace event is in the high bits of si_status, so the wait
	 * status can be rebuilt from it */
	ev->status = (si.si_status << 8) | 0x7f;
	classify_stop(ev);
	return true;
}

/* One waitid() over all tracees finds the next stop or exit, and only
 * peeks at it (WNOWAIT): a wait by pid then takes a stop without scanning
 * the tracees again, and an exited thread stays a zombie, its /proc files
 * readable, until tracer_reap().  With 1000 tracees a scan is the costly
 * part, so each event costs one. */
int tracer_next_event(struct tp_event *ev)
{
	siginfo_t si;
	int tries = 0;

again:
	memset(ev, 0, sizeof(*ev));
	if (waitid_retry(P_ALL, 0, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT | __WALL) < 0)
		return -1;
	if (!si.si_pid)
		return 0;
	ev->tid = si.si_pid;
	switch (si.si_code) {
	case CLD_TRAPPED:
	case CLD_STOPPED:
		if (take_stop(ev))
			return 1;
		/* gone between the calls: its exit shows at the next peek
		 * (bounded, in case the two calls ever disagree for good) */
		if (++tries < 8)
			goto again;
		return 0;
	case CLD_EXITED:
	case CLD_KILLED:
	case CLD_DUMPED:
		ev->zombie = true;
		ev->kind = si.si_code == CLD_EXITED ? TP_EV_EXITED : TP_EV_KILLED;
		ev->sig = si.si_code == CLD_EXITED ? 0 : si.si_status;
		return 1;
	default: {
		/* not asked for (CLD_CONTINUED): take it as a plain wait does */
		pid_t tid;

		do
			tid = wait4(ev->tid, &ev->status, __WALL | WNOHANG, NULL);
		while (tid < 0 && errno == EINTR);
		if (tid != ev->tid)
			return 0;
		classify_status(ev);
		return 1;
	}
	}
}

void tracer_reap(struct tp_event *ev)
{
	pid_t tid;

	do
		tid = wait4(ev->tid, &ev->status, __WALL, &ev->ru);
	while (tid < 0 && errno == EINTR);
	ev->zombie = false;
	if (tid == ev->tid)
		classify_status(ev);
}

void tracer_resume(pid_t tid, int sig)
{
	if (ptrace(PTRACE_CONT, tid, 0L, (long)sig) < 0 && errno != ESRCH)
		debug_msg("PTRACE_CONT %d: %s", (int)tid, strerror(errno));
}

void tracer_listen(pid_t tid)
{
	if (ptrace(PTRACE_LISTEN, tid, 0L, 0L) < 0 && errno != ESRCH)
		debug_msg("PTRACE_LISTEN %d: %s", (int)tid, strerror(errno));
}

void tracer_siginfo_sender(const siginfo_t *si, int sig, struct tp_sender *s)
{
	memset(s, 0, sizeof(*s));
	s->signo = sig;
	if (si->si_code > 0)
		s->why = "the kernel raised it (a fault, or a limit the kernel holds), no process";
	if (si->si_pid <= 0 ||
	    (si->si_code != SI_USER && si->si_code != SI_TKILL && si->si_code != SI_QUEUE))
		return;
	s->known = true;
	s->pid = si->si_pid;
	s->uid = si->si_uid;
	/* now: the sender may be gone by the end */
	if (proc_read_cmdline(si->si_pid, s->command, sizeof(s->command)) < 0 || !s->command[0]) {
		char path[48];
		ssize_t n;

		snprintf(path, sizeof(path), "%d/comm", (int)si->si_pid);
		n = proc_read(path, s->command, sizeof(s->command));
		if (n > 0 && s->command[n - 1] == '\n')
			s->command[n - 1] = '\0';
		else if (n <= 0)
			s->command[0] = '\0';
	}
}

void tracer_sender(pid_t tid, int sig, struct tp_sender *s)
{
	siginfo_t si;

	/* zero where the task is gone before it could be read (a SIGKILL
	 * under way; the kernel writes nothing then): no sender, and no
	 * kernel's code either */
	memset(&si, 0, sizeof(si));
	(void)ptrace(PTRACE_GETSIGINFO, tid, 0L, &si);
	tracer_siginfo_sender(&si, sig, s);
}

int tracer_seccomp_call(pid_t tid, struct tp_syscall *call)
{
	struct __ptrace_syscall_info info;
	long r;

	memset(&info, 0, sizeof(info));	/* valgrind does not know this request */
	r = ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof(info), &info);
	if (r < 0)
		return -1;
	if (r == 0 || info.op != PTRACE_SYSCALL_INFO_SECCOMP) {
		errno = EINVAL;
		return -1;
	}
	call->nr = (long)info.seccomp.nr;
	memcpy(call->args, info.seccomp.args, sizeof(call->args));
	return 0;
}

int tracer_stop_regs(pid_t tid, struct tp_syscall *call)
{
#if defined(__x86_64__) || defined(__aarch64__)
	struct user_regs_struct r;
	struct iovec iov = { &r, sizeof(r) };

	if (ptrace(PTRACE_GETREGSET, tid, (void *)NT_PRSTATUS, &iov) < 0)
		return -1;
	memset(call, 0, sizeof(*call));
#if defined(__x86_64__)
	call->nr = (long)r.orig_rax;
	call->args[0] = r.rdi;
#else
	call->nr = (long)r.regs[8];
	call->args[0] = r.regs[0];
#endif
	return 0;
#else
	(void)tid;
	(void)call;
	errno = ENOSYS;
	return -1;
#endif
}

int tracer_copy_fd(pid_t pid, int fd, const char **what)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), copy, err;

	if (pidfd < 0) {
		*what = "pidfd_open";
		return -1;
	}
	copy = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	err = errno;
	close(pidfd);
	errno = err;
	*what = "pidfd_getfd";
	return copy;
}
