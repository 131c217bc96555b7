/* SPDX-License-Identifier: MIT */
/*
 * many-alive: N sleeping children alive together for SECONDS.
 *
 *   many-alive N SECONDS
 *
 * Every child sleeps until the same deadline, then exits; the parent reaps
 * them all.  The tree is N + 1 processes, all alive at once: a monitor's
 * cost per live process shows as its own CPU time.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec deadline;
	double seconds;
	long n, i;

	if (argc != 3) {
		fprintf(stderr, "usage: many-alive N SECONDS\n");
		return 2;
	}
	n = atol(argv[1]);
	seconds = atof(argv[2]);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += (time_t)seconds;
	deadline.tv_nsec += (long)((seconds - (time_t)seconds) * 1e9);
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("many-alive: fork");
			break;
		}
		if (pid == 0) {
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) != 0)
				;
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	return i == n ? 0 : 1;
}
