/* SPDX-License-Identifier: MIT */
/* hog-cpu: burn CPU in THREADS threads (default 1).  Each thread burns
 * SECONDS of its own CPU time, so the task's cpu_time is SECONDS * THREADS
 * however loaded the machine is; with --wall each thread spins for SECONDS
 * of wall-clock time instead (for wall_time and cores).  With --rusage it
 * prints "cpu S" at its end: the CPU time the kernel counted for the
 * whole process (getrusage), start-up included, the truth a monitor's
 * cpu_time is held to where emulation makes start-up dear.
 *   usage: hog-cpu SECONDS [THREADS] [--wall] [--rusage] */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "helper.h"

#define USAGE "SECONDS [THREADS] [--wall] [--rusage]"
#define MAX_THREADS 256

static double burn_seconds;
static int burn_wall;
static int print_rusage;

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
		else if (strcmp(argv[i], "--rusage") == 0)
			print_rusage = 1;
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
	if (print_rusage) {
		struct rusage ru;

		if (getrusage(RUSAGE_SELF, &ru) != 0)
			helper_die("getrusage");
		printf("cpu %.6f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	}
	return 0;
}
