/* SPDX-License-Identifier: MIT */
/* daemonize: the classic double fork.  The original forks a child and
 * waits for it; the child calls setsid(), forks the grandchild and exits;
 * the grandchild points its stdio at /dev/null and sleeps SECONDS (0:
 * forever) while the original exits 0 at once.
 * Ground truth: 3 processes; 1 still alive when the original exits.
 *   usage: daemonize SECONDS */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "SECONDS"

static void grandchild(double seconds)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	if (seconds > 0)
		helper_sleep(seconds);
	else
		for (;;)
			pause();
	_exit(0);
}

int main(int argc, char **argv)
{
	double seconds;
	int status;
	pid_t pid;

	helper_init(argc, argv);
	if (argc != 2)
		helper_usage(USAGE);
	seconds = helper_arg_double(argv[1], USAGE);

	pid = fork();
	if (pid < 0)
		helper_die("fork");
	if (pid == 0) {
		if (setsid() < 0)
			_exit(HELPER_EXIT_SETUP);
		pid = fork();
		if (pid < 0)
			_exit(HELPER_EXIT_SETUP);
		if (pid == 0)
			grandchild(seconds);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		helper_die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errno = 0;
		helper_die("middle child failed (status 0x%x)", status);
	}
	return 0;
}
