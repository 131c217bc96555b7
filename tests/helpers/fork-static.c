/* SPDX-License-Identifier: MIT */
/* fork-static: linked statically (no dynamic loader, so no LD_PRELOAD
 * tracking); forks N children that exit at once, waiting for each.
 * Ground truth: N + 1 processes.
 *   usage: fork-static N */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "N"

int main(int argc, char **argv)
{
	long n, i;
	int status;
	pid_t pid;

	helper_init(argc, argv);
	if (argc != 2)
		helper_usage(USAGE);
	n = helper_arg_long(argv[1], USAGE);
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			helper_die("fork #%ld", i);
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid)
			helper_die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			errno = 0;
			helper_die("child #%ld failed (status 0x%x)", i, status);
		}
	}
	return 0;
}
