/* tracer.c: the ptrace layer.  Stops happen only at fork/vfork/clone, exec,
 * exit and signals (no syscall stops), plus the open family when the
 * seccomp filter of --with-inotify routes them here. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "error.h"
#include "tracer.h"

unsigned tracer_options(bool trace_seccomp)
{
	unsigned o = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		     PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
		     PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL;

	if (trace_seccomp)
		o |= PTRACE_O_TRACESECCOMP;
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
	case PTRACE_EVENT_EXIT:
		ev->kind = TP_EV_EXIT_STOP;
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

int tracer_next_event(struct tp_event *ev)
{
	int status;
	pid_t tid;

	memset(ev, 0, sizeof(*ev));
	do
		tid = wait4(-1, &status, __WALL | WNOHANG, &ev->ru);
	while (tid < 0 && errno == EINTR);
	if (tid <= 0)
		return tid;
	ev->tid = tid;
	ev->status = status;
	if (WIFSTOPPED(status)) {
		classify_stop(ev);
	} else if (WIFSIGNALED(status)) {
		ev->kind = TP_EV_KILLED;
		ev->sig = WTERMSIG(status);
	} else {
		ev->kind = TP_EV_EXITED;
	}
	return 1;
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
