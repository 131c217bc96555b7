/* SPDX-License-Identifier: MIT */
/*
 * spin-threads: keep two threads busy on a fixed amount of work.
 *
 *   spin-threads calibrate SECONDS   print the ITERATIONS one thread does
 *                                    in SECONDS on this machine
 *   spin-threads ITERATIONS          two threads, ITERATIONS each
 *
 * A fixed amount of work (not a fixed time) lets a monitor's overhead
 * show as a longer wall time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift64: a dependency chain the compiler cannot fold away. */
static void spin(unsigned long long n)
{
	unsigned long long x = 88172645463325252ULL;

	while (n--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
}

static void *spin_thread(void *arg)
{
	spin(*(unsigned long long *)arg);
	return NULL;
}

static int calibrate(double seconds)
{
	const unsigned long long chunk = 1000000;
	unsigned long long done = 0;
	double t0 = now(), dt;

	do {
		spin(chunk);
		done += chunk;
		dt = now() - t0;
	} while (dt < 0.3);
	printf("%llu\n", (unsigned long long)(done / dt * seconds));
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t th[2];
	unsigned long long n;
	int i;

	if (argc == 3 && strcmp(argv[1], "calibrate") == 0)
		return calibrate(atof(argv[2]));
	if (argc != 2) {
		fprintf(stderr, "usage: spin-threads calibrate SECONDS | ITERATIONS\n");
		return 2;
	}
	n = strtoull(argv[1], NULL, 10);
	for (i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, spin_thread, &n) != 0)
			return 1;
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	return 0;
}
