/* SPDX-License-Identifier: MIT */
/* fork-flood: the classic fork bomb.  Every process, children included,
 * loops on fork() and sleeps 1 ms when it fails (out of pids, or at the
 * RLIMIT_NPROC of its user), so the tree stays at its limit, every
 * process busy.  With MB, each new process first touches MB MiB of
 * private memory.  Every process exits SECONDS after the start (default
 * 30) so that it cannot outlive a monitor that fails to stop it.
 *   usage: fork-flood [SECONDS [MB]] */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "[SECONDS [MB]]"

int main(int argc, char **argv)
{
	struct timespec ms = { 0, 1000000 };
	double seconds = 30, end;
	long mb = 0;

	helper_init(argc, argv);
	if (argc > 3)
		helper_usage(USAGE);
	if (argc > 1)
		seconds = helper_arg_double(argv[1], USAGE);
	if (argc > 2)
		mb = helper_arg_long(argv[2], USAGE);
	end = helper_now() + seconds;
	while (helper_now() < end) {
		pid_t pid = fork();

		if (pid < 0)
			nanosleep(&ms, NULL);
		else if (pid == 0 && mb > 0)
			helper_alloc_touched((size_t)mb);
	}
	return 0;
}
