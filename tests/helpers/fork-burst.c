/* SPDX-License-Identifier: MIT */
/* fork-burst: R bursts, each after GAP ms (so that a sampler that starts
 * fast has slowed down); in each, fork N children that block
 * on a pipe until the last one is forked, then all exit at once (the
 * parent closes the pipe) and are reaped.  All N are alive together only
 * for the moment between the last fork and the first exit, which a
 * sampler of /proc almost never sees.
 * Ground truth: 1 + R * N processes, at most N + 1 alive at once.
 *   usage: fork-burst N R GAP */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "N R GAP"

/* Wait for the pipe to close, then exit. */
static void child(int fds[2])
{
	char c;
	ssize_t r;

	close(fds[1]);
	do
		r = read(fds[0], &c, 1);
	while (r < 0 && errno == EINTR);
	_exit(r == 0 ? 0 : 1);
}

static void burst(long n)
{
	int fds[2], status;
	long i;
	pid_t pid;

	if (pipe(fds) < 0)
		helper_die("pipe");
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			helper_die("fork #%ld", i);
		if (pid == 0)
			child(fds);
	}
	close(fds[1]);
	close(fds[0]);
	for (i = 0; i < n; i++) {
		while ((pid = wait(&status)) < 0 && errno == EINTR)
			;
		if (pid < 0)
			helper_die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			errno = 0;
			helper_die("child %d failed (status 0x%x)", (int)pid, status);
		}
	}
}

int main(int argc, char **argv)
{
	long n, r, i;
	double gap;

	helper_init(argc, argv);
	if (argc != 4)
		helper_usage(USAGE);
	n = helper_arg_long(argv[1], USAGE);
	r = helper_arg_long(argv[2], USAGE);
	gap = helper_arg_double(argv[3], USAGE);
	for (i = 0; i < r; i++) {
		helper_sleep(gap / 1000.0);
		burst(n);
	}
	return 0;
}
