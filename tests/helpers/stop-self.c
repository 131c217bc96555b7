/* SPDX-License-Identifier: MIT */
/* stop-self: fork a child that sends SIGCONT to the parent after 200 ms,
 * then stop the parent with SIGSTOP; once continued, reap the child and
 * exit 0.  A tracer that swallows the stop, or never lets it end, hangs it.
 * Ground truth: 2 processes, wall time about 0.2 s.
 *   usage: stop-self */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

int main(int argc, char **argv)
{
	pid_t parent = getpid(), pid;
	int status;

	helper_init(argc, argv);
	if (argc != 1)
		helper_usage("");
	pid = fork();
	if (pid < 0)
		helper_die("fork");
	if (pid == 0) {
		helper_sleep(0.2);
		_exit(kill(parent, SIGCONT) < 0 ? HELPER_EXIT_SETUP : 0);
	}
	if (raise(SIGSTOP) != 0)
		helper_die("raise");
	if (waitpid(pid, &status, 0) != pid)
		helper_die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errno = 0;
		helper_die("child failed (status 0x%x)", status);
	}
	return 0;
}
