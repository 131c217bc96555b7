/* SPDX-License-Identifier: MIT */
/* many-threads: one process with N threads (the main one included), all
 * asleep until SECONDS after the start, then joined.  With --procs, N
 * single-threaded processes instead (the main one and N - 1 children),
 * all alive until SECONDS after the last child started: each child waits
 * for the end of a pipe that the main one closes then (a fixed deadline
 * let the first children end before the last started, where forking
 * 2000 took longer than SECONDS on a loaded machine).
 * For tpmon's own memory and descriptors with a big task.
 *   usage: many-threads N SECONDS [--procs] */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "N SECONDS [--procs]"

static double end;

static void *sleeper(void *arg)
{
	helper_sleep(end - helper_now());
	return arg;
}

int main(int argc, char **argv)
{
	long n, i;
	int procs;
	pthread_t *th;
	pthread_attr_t attr;

	helper_init(argc, argv);
	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "--procs")))
		helper_usage(USAGE);
	n = helper_arg_long(argv[1], USAGE);
	end = helper_now() + helper_arg_double(argv[2], USAGE);
	procs = argc == 4;
	if (procs) {
		int gate[2];
		char c;

		if (pipe(gate) < 0)
			helper_die("pipe");
		for (i = 1; i < n; i++) {
			pid_t pid = fork();

			if (pid < 0)
				helper_die("fork");
			if (pid == 0) {
				close(gate[1]);
				while (read(gate[0], &c, 1) < 0 && errno == EINTR)
					;
				_exit(0);
			}
		}
		close(gate[0]);
		helper_sleep(helper_arg_double(argv[2], USAGE));
		close(gate[1]);
		while (wait(NULL) > 0 || errno == EINTR)
			;
		return 0;
	}
	th = calloc((size_t)n, sizeof(*th));
	if (!th)
		helper_die("calloc");
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 1; i < n; i++)
		if (pthread_create(&th[i], &attr, sleeper, NULL) != 0)
			helper_die("pthread_create");
	sleeper(NULL);
	for (i = 1; i < n; i++)
		pthread_join(th[i], NULL);
	free(th);
	return 0;
}
