/* SPDX-License-Identifier: MIT */
/* kill-self: die of signal SIGNUM: restore its default action, unblock it
 * and raise it (core dumps disabled, so SIGSEGV or SIGABRT leave no core
 * file).  Exits HELPER_EXIT_SETUP if it survives.  With "fault", die of
 * a real SIGSEGV, the kernel's (a write through a null pointer): no
 * process sends it.
 *   usage: kill-self SIGNUM|fault */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "SIGNUM|fault"

int main(int argc, char **argv)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t set;
	long sig;

	helper_init(argc, argv);
	if (argc != 2)
		helper_usage(USAGE);
	if (strcmp(argv[1], "fault") == 0) {
		volatile int *volatile null = NULL;

		setrlimit(RLIMIT_CORE, &no_core);
		signal(SIGSEGV, SIG_DFL);
		*null = 1;
		return HELPER_EXIT_SETUP;
	}
	sig = helper_arg_long(argv[1], USAGE);
	if (sig < 1 || sig >= NSIG)
		helper_usage(USAGE);
	setrlimit(RLIMIT_CORE, &no_core);
	signal((int)sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, (int)sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise((int)sig);
	/* Signals whose default is to ignore (SIGCHLD...) end up here. */
	helper_sleep(0.1);
	return HELPER_EXIT_SETUP;
}
