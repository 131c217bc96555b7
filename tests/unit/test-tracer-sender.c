/* SPDX-License-Identifier: MIT */
/* test-tracer-sender.c: a signal's sender when PTRACE_GETSIGINFO fails
 * (the task gone under a SIGKILL before its stop could be read):
 * tracer_sender() must say "no sender" whatever its stack held.  CI's
 * valgrind run found it reading si_code uninitialised, which could name
 * the kernel as the sender.  Here the stack under it is filled with
 * bytes that make a positive si_code and a pid first, and the process
 * asked about is a child tpmon does not trace, so the request fails. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kernel/tracer.h"
#include "tap.h"

/* Leave @byte in the stack that the next call of the same depth uses. */
static void __attribute__((noinline)) dirty_stack(int byte)
{
	volatile unsigned char junk[8192];
	size_t i;

	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)byte;
}

static void __attribute__((noinline)) ask(pid_t pid, struct tp_sender *s)
{
	tracer_sender(pid, SIGKILL, s);
}

int main(void)
{
	struct tp_sender s;
	pid_t child = fork();
	int i, st;

	if (child == 0) {
		pause();
		_exit(0);
	}
	plan(6);
	for (i = 0; i < 3; i++) {
		memset(&s, 0x5a, sizeof(s));
		dirty_stack(i == 0 ? 0x01 : i == 1 ? 0x41 : 0x7f);
		ask(child, &s);
		ok(!s.known && s.pid == 0, "untraced pid, stack of 0x%02x: no sender known",
		   i == 0 ? 0x01 : i == 1 ? 0x41 : 0x7f);
		ok(s.why == NULL && s.signo == SIGKILL,
		   "... and not said to be the kernel's (why: %s)", s.why ? s.why : "none");
	}
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	return done();
}
