/* SPDX-License-Identifier: MIT */
/* shared-mem: one MAP_SHARED | MAP_ANONYMOUS region of MB MiB, written
 * once by the parent; K - 1 forked children read every page, and all K
 * processes hold the mapping together for HOLD seconds (default 1) behind
 * a pipe barrier.
 * Ground truth: summed PSS ~= MB, summed RSS ~= K * MB.
 *   usage: shared-mem MB K [HOLD] */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "MB K [HOLD]"

static void child_hold(const char *p, size_t len, int ready_fd, int release_fd)
{
	char c = 'r';
	ssize_t r;

	if (helper_read_pages(p, len) == 0)
		c = 'f';
	if (write(ready_fd, &c, 1) != 1)
		_exit(HELPER_EXIT_SETUP);
	do
		r = read(release_fd, &c, 1);
	while (r > 0 || (r < 0 && errno == EINTR));
	_exit(0);
}

int main(int argc, char **argv)
{
	int ready[2], release[2], status, failed = 0;
	long mb, k, i, got = 0;
	double hold = 1.0;
	size_t len;
	char *p, c;

	helper_init(argc, argv);
	if (argc < 3 || argc > 4)
		helper_usage(USAGE);
	mb = helper_arg_long(argv[1], USAGE);
	k = helper_arg_long(argv[2], USAGE);
	if (argc == 4)
		hold = helper_arg_double(argv[3], USAGE);
	if (mb == 0 || k == 0)
		helper_usage(USAGE);
	len = (size_t)mb * MIB;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		helper_die("mmap %ld MiB", mb);
	helper_touch_pages(p, len);

	if (pipe(ready) < 0 || pipe(release) < 0)
		helper_die("pipe");
	for (i = 1; i < k; i++) {
		pid_t pid = fork();

		if (pid < 0)
			helper_die("fork #%ld", i);
		if (pid == 0) {
			close(ready[0]);
			close(release[1]);
			child_hold(p, len, ready[1], release[0]);
		}
	}
	close(ready[1]);
	close(release[0]);
	while (got < k - 1) {
		ssize_t r = read(ready[0], &c, 1);
		if (r == 1 && c == 'r')
			got++;
		else if (r == 1 || r == 0 || errno != EINTR)
			break;
	}
	if (got == k - 1)
		helper_sleep(hold);
	close(release[1]);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed = 1;
	if (got != k - 1 || failed) {
		errno = 0;
		helper_die("only %ld of %ld children mapped the region", got, k - 1);
	}
	return 0;
}
