/* SPDX-License-Identifier: MIT */
/*
 * mem-spike: a short memory spike in a child, inside a longer task.
 *
 *   mem-spike MB HOLD_S TOTAL_S
 *
 * The parent idles; at a quarter of TOTAL_S a child touches MB MiB, holds
 * them HOLD_S seconds and exits; the parent idles until TOTAL_S.  The true
 * peak of the tree is MB MiB plus two small processes.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	double left;

	while ((left = t - now()) > 0) {
		struct timespec ts = { (time_t)left, (long)((left - (time_t)left) * 1e9) };

		nanosleep(&ts, NULL);
	}
}

static void spike(size_t bytes, double hold)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mem-spike: mmap");
		_exit(1);
	}
	memset(p, 1, bytes);
	sleep_until(now() + hold);
	_exit(0);
}

int main(int argc, char **argv)
{
	double t0 = now(), hold, total;
	size_t bytes;
	pid_t pid;
	int status;

	if (argc != 4) {
		fprintf(stderr, "usage: mem-spike MB HOLD_S TOTAL_S\n");
		return 2;
	}
	bytes = (size_t)atol(argv[1]) << 20;
	hold = atof(argv[2]);
	total = atof(argv[3]);
	sleep_until(t0 + total / 4);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		spike(bytes, hold);
	if (waitpid(pid, &status, 0) < 0 || status != 0)
		return 1;
	sleep_until(t0 + total);
	return 0;
}
