/* SPDX-License-Identifier: MIT */
/* fork-noreap: fork N children one after another, each burning MS ms of
 * CPU, and never wait for any of them: they stay zombies until the parent
 * exits, or with --ignore-sigchld (SIGCHLD set to SIG_IGN) the kernel reaps
 * them at once.  The parent still runs them one at a time: each child holds
 * the write end of a pipe, and its exit closes it.
 * Ground truth: N + 1 processes, N * MS ms of CPU in the children.
 *   usage: fork-noreap N MS [--ignore-sigchld] */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "N MS [--ignore-sigchld]"

static void wait_for_eof(int fd)
{
	char c;
	ssize_t r;

	do
		r = read(fd, &c, 1);
	while (r > 0 || (r < 0 && errno == EINTR));
}

int main(int argc, char **argv)
{
	long n, i;
	double ms;
	int fds[2];
	pid_t pid;

	helper_init(argc, argv);
	if (argc < 3 || argc > 4)
		helper_usage(USAGE);
	n = helper_arg_long(argv[1], USAGE);
	ms = helper_arg_double(argv[2], USAGE);
	if (argc == 4) {
		if (strcmp(argv[3], "--ignore-sigchld") != 0)
			helper_usage(USAGE);
		if (signal(SIGCHLD, SIG_IGN) == SIG_ERR)
			helper_die("signal");
	}

	for (i = 0; i < n; i++) {
		if (pipe(fds) < 0)
			helper_die("pipe");
		pid = fork();
		if (pid < 0)
			helper_die("fork #%ld", i);
		if (pid == 0) {
			close(fds[0]);
			helper_burn_cpu_ms(ms);
			_exit(0);
		}
		close(fds[1]);
		wait_for_eof(fds[0]);
		close(fds[0]);
	}
	return 0;
}
