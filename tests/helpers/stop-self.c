/* SPDX-License-Identifier: MIT */
/* stop-self: fork a child that sends SIGCONT to the parent after 200 ms,
 * then stop the parent with SIGSTOP; once continued, reap the child and
 * exit 0.  The child sends SIGCONT again every 50 ms until the parent runs
 * (a SIGCONT that came before the SIGSTOP, on a loaded machine, left the
 * parent stopped for good: 120 s in CI's valgrind run).  A tracer that swallows the stop, or never lets it end, hangs it.
 * Ground truth: 2 processes, wall time about 0.2 s.
 *   usage: stop-self */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

int main(int argc, char **argv)
{
	pid_t parent = getpid(), pid;
	int status, back[2];

	helper_init(argc, argv);
	if (argc != 1)
		helper_usage("");
	if (pipe(back) < 0)
		helper_die("pipe");
	pid = fork();
	if (pid < 0)
		helper_die("fork");
	if (pid == 0) {
		struct pollfd pf = { .fd = back[0], .events = POLLIN };

		close(back[1]);
		helper_sleep(0.2);
		/* again until the parent says it runs: on a loaded machine
		 * one SIGCONT may come before its SIGSTOP, which then holds */
		do {
			if (kill(parent, SIGCONT) < 0)
				_exit(HELPER_EXIT_SETUP);
		} while (poll(&pf, 1, 50) == 0);
		_exit(0);
	}
	close(back[0]);
	if (raise(SIGSTOP) != 0)
		helper_die("raise");
	close(back[1]);	/* "running again" */
	if (waitpid(pid, &status, 0) != pid)
		helper_die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errno = 0;
		helper_die("child failed (status 0x%x)", status);
	}
	return 0;
}
