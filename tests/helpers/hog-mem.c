/* SPDX-License-Identifier: MIT */
/* hog-mem: write every page of MB MiB and hold it for SECONDS.  With
 * --children K the parent holds nothing itself: K children each hold MB MiB,
 * and two pipes make a barrier so that all K hold their memory at the same
 * time for the whole SECONDS (the children report "ready" on one pipe, the
 * parent releases them by closing the other).
 * With --after S it first sleeps S seconds, off the CPU, then allocates.
 * Ground truth: peak summed RSS >= MB (K * MB with children), K + 1
 * processes alive at once.
 *   usage: hog-mem MB SECONDS [--children K | --after S] */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "MB SECONDS [--children K | --after S]"

/* A child that cannot get its memory says 'f' so the parent stops waiting. */
static void child_hold(size_t mb, int ready_fd, int release_fd)
{
	char c = 'r';
	char *p = mb ? mmap(NULL, mb * MIB, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
	ssize_t r;

	if (p == MAP_FAILED) {
		c = 'f';
		(void)!write(ready_fd, &c, 1);
		_exit(HELPER_EXIT_SETUP);
	}
	if (p)
		memset(p, 0x5a, mb * MIB);
	if (write(ready_fd, &c, 1) != 1)
		_exit(HELPER_EXIT_SETUP);
	do
		r = read(release_fd, &c, 1);
	while (r > 0 || (r < 0 && errno == EINTR));
	(void)p;
	_exit(0);
}

static int hold_in_children(size_t mb, double seconds, long k)
{
	int ready[2], release[2], status, failed = 0;
	long i, got = 0;
	char c;

	if (pipe(ready) < 0 || pipe(release) < 0)
		helper_die("pipe");
	for (i = 0; i < k; i++) {
		pid_t pid = fork();

		if (pid < 0)
			helper_die("fork #%ld", i);
		if (pid == 0) {
			close(ready[0]);
			close(release[1]);
			child_hold(mb, ready[1], release[0]);
		}
	}
	close(ready[1]);
	close(release[0]);
	while (got < k) {
		ssize_t r = read(ready[0], &c, 1);
		if (r == 1 && c == 'r')
			got++;
		else if (r == 1)
			break;
		else if (r == 0 || errno != EINTR)
			break;
	}
	if (got == k)
		helper_sleep(seconds);
	close(release[1]);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed = 1;
	if (got != k || failed) {
		errno = 0;
		helper_die("only %ld of %ld children held their memory", got, k);
	}
	return 0;
}

int main(int argc, char **argv)
{
	double seconds;
	long mb;
	char *p;

	helper_init(argc, argv);
	if (argc != 3 && argc != 5)
		helper_usage(USAGE);
	mb = helper_arg_long(argv[1], USAGE);
	seconds = helper_arg_double(argv[2], USAGE);
	if (argc == 5 && strcmp(argv[3], "--children") == 0)
		return hold_in_children((size_t)mb, seconds,
					helper_arg_long(argv[4], USAGE));
	if (argc == 5 && strcmp(argv[3], "--after") == 0)
		helper_sleep(helper_arg_double(argv[4], USAGE));
	else if (argc == 5)
		helper_usage(USAGE);
	p = helper_alloc_touched((size_t)mb);
	helper_sleep(seconds);
	(void)p;
	return 0;
}
