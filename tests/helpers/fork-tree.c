/* SPDX-License-Identifier: MIT */
/* fork-tree: fork N children one after another; each burns MS milliseconds
 * of CPU and exits; the parent waits for each before forking the next.
 * Ground truth: N + 1 processes, at most 2 at a time, N * MS ms of CPU
 * in the children.
 *   usage: fork-tree N MS */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "N MS"

int main(int argc, char **argv)
{
	long n, i;
	double ms;
	int status;
	pid_t pid;

	helper_init(argc, argv);
	if (argc != 3)
		helper_usage(USAGE);
	n = helper_arg_long(argv[1], USAGE);
	ms = helper_arg_double(argv[2], USAGE);

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			helper_die("fork #%ld", i);
		if (pid == 0) {
			helper_burn_cpu_ms(ms);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid)
			helper_die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			errno = 0;
			helper_die("child #%ld failed (status 0x%x)", i, status);
		}
	}
	return 0;
}
