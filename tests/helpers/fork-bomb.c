/* SPDX-License-Identifier: MIT */
/* fork-bomb: every process forks as fast as it can, children included,
 * until MAX processes have been created in all (default 2000), and every
 * process exits at the same deadline, SECONDS after the start (default
 * 10): so it cannot run away even if the monitor fails to stop it.  The
 * count lives in a shared page.  Parents reap their children before they
 * exit.  Exits 0 at the deadline.
 *   usage: fork-bomb [MAX [SECONDS]] */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "[MAX [SECONDS]]"

struct bomb_shared {
	atomic_long created;
};

static void bomb_loop(struct bomb_shared *sh, long max, double deadline)
{
	pid_t pid;

	while (helper_now() < deadline) {
		if (atomic_fetch_add(&sh->created, 1) >= max) {
			atomic_fetch_sub(&sh->created, 1);
			break;
		}
		pid = fork();
		if (pid < 0) {
			/* Out of pids or a process limit: let others go on. */
			atomic_fetch_sub(&sh->created, 1);
			helper_sleep(0.01);
			continue;
		}
		if (pid == 0)
			continue;	/* the child forks too */
	}
	helper_sleep(deadline - helper_now());
	while (wait(NULL) > 0 || errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	struct bomb_shared *sh;
	double seconds = 10;
	long max = 2000;

	helper_init(argc, argv);
	if (argc > 3)
		helper_usage(USAGE);
	if (argc > 1)
		max = helper_arg_long(argv[1], USAGE);
	if (argc > 2)
		seconds = helper_arg_double(argv[2], USAGE);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		helper_die("mmap");
	/* The first process counts as created. */
	atomic_init(&sh->created, 1);
	bomb_loop(sh, max, helper_now() + seconds);
	return 0;
}
