/* SPDX-License-Identifier: MIT */
/* hog-cpu: burn CPU in THREADS threads (default 1).  Each thread burns
 * SECONDS of its own CPU time, so the task's cpu_time is SECONDS * THREADS
 * however loaded the machine is; with --wall each thread spins for SECONDS
 * of wall-clock time instead (for wall_time and cores).
 *   usage: hog-cpu SECONDS [THREADS] [--wall] */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "helper.h"

#define USAGE "SECONDS [THREADS] [--wall]"
#define MAX_THREADS 256

static double burn_seconds;
static int burn_wall;

static void *burn_thread(void *arg)
{
	double end;

	(void)arg;
	if (!burn_wall) {
		helper_burn_cpu_ms(burn_seconds * 1000.0);
		return NULL;
	}
	end = helper_now() + burn_seconds;
	while (helper_now() < end)
		helper_burn_cpu_ms(1);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tids[MAX_THREADS];
	long threads = 1, i;
	int argn = 0;

	helper_init(argc, argv);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--wall") == 0)
			burn_wall = 1;
		else if (argn++ == 0)
			burn_seconds = helper_arg_double(argv[i], USAGE);
		else if (argn == 2)
			threads = helper_arg_long(argv[i], USAGE);
		else
			helper_usage(USAGE);
	}
	if (argn == 0 || threads < 1 || threads > MAX_THREADS)
		helper_usage(USAGE);
	/* The main thread is the first burner. */
	for (i = 1; i < threads; i++) {
		int err = pthread_create(&tids[i], NULL, burn_thread, NULL);

		if (err) {
			errno = err;
			helper_die("pthread_create");
		}
	}
	burn_thread(NULL);
	for (i = 1; i < threads; i++)
		pthread_join(tids[i], NULL);
	return 0;
}
