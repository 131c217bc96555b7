/* tracer.c: the ptrace layer.  A tracee stops only at fork/vfork/clone
 * and for signals: no syscall stops, no exec or exit stops (with SEIZE an
 * exec sends no SIGTRAP, and an exited thread is peeked at with WNOWAIT
 * and read from /proc while it is a zombie).  --with-inotify adds exec
 * stops and the open family routed here by its seccomp filter. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "error.h"
#include "tracer.h"

unsigned tracer_options(bool inotify)
{
	unsigned o = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		     PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL;

	if (inotify)
		o |= PTRACE_O_TRACEEXEC | PTRACE_O_TRACESECCOMP;
	return o;
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

static int waitid_retry(idtype_t idtype, siginfo_t *si, int options)
{
	int r;

	do {
		si->si_pid = 0;
		r = waitid(idtype, 0, si, options);
	} while (r < 0 && errno == EINTR);
	return r;
}

int tracer_next_event(struct tp_event *ev)
{
	siginfo_t si;

	memset(ev, 0, sizeof(*ev));
	/* Stops first, consumed in one call: the ptrace event is in the high
	 * bits of si_status, so the wait status can be rebuilt from it. */
	/* (ECHILD here can mean that the only children left are zombie
	 * tracees, which a WSTOPPED-only wait does not count: go on) */
	if (waitid_retry(P_ALL, &si, WSTOPPED | WNOHANG | __WALL) < 0 && errno != ECHILD)
		return -1;
	if (si.si_pid) {
		ev->tid = si.si_pid;
		ev->status = (si.si_status << 8) | 0x7f;
		classify_stop(ev);
		return 1;
	}
	/* Then exits, only peeked at: the zombie keeps its /proc files until
	 * tracer_reap().  A tracee's stops are reported whatever the flags,
	 * so a stop that came after the call above shows up here too. */
	if (waitid_retry(P_ALL, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) < 0)
		return -1;
	if (!si.si_pid)
		return 0;
	ev->tid = si.si_pid;
	if (si.si_code != CLD_EXITED && si.si_code != CLD_KILLED && si.si_code != CLD_DUMPED) {
		pid_t tid;

		do
			tid = wait4(ev->tid, &ev->status, __WALL | WNOHANG, NULL);
		while (tid < 0 && errno == EINTR);
		if (tid != ev->tid)
			return 0;
		classify_status(ev);
		return 1;
	}
	ev->zombie = true;
	ev->kind = si.si_code == CLD_EXITED ? TP_EV_EXITED : TP_EV_KILLED;
	ev->sig = si.si_code == CLD_EXITED ? 0 : si.si_status;
	return 1;
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
