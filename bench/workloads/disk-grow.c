/* SPDX-License-Identifier: MIT */
/*
 * disk-grow: write a file in the current directory at a steady rate
 * past a disk limit.
 *
 *   disk-grow RATE_MB_S LIMIT_MB CAP_MB STAMPFILE PIDFILE
 *
 * Writes its pid to PIDFILE, then appends 1 MiB blocks of non-zero data
 * to ./disk-grow.data at RATE MiB/s.  Right after the write() that takes
 * the file past LIMIT MiB it writes CLOCK_REALTIME to STAMPFILE.  At
 * CAP_MB it stops writing and waits 30 s for the monitor to stop it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK (1L << 20)

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_for(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (time_t)s) * 1e9);
	nanosleep(&ts, NULL);
}

static int write_stamp(const char *path, double t)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "%.6f\n", t);
	return fclose(f);
}

int main(int argc, char **argv)
{
	static char block[BLOCK];
	long limit, cap, i;
	double rate, t0;
	FILE *f;
	int fd;

	if (argc != 6) {
		fprintf(stderr, "usage: disk-grow RATE_MB_S LIMIT_MB CAP_MB STAMPFILE PIDFILE\n");
		return 2;
	}
	rate = atof(argv[1]);
	limit = atol(argv[2]);
	cap = atol(argv[3]);
	f = fopen(argv[5], "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0)
		return 1;
	memset(block, 'x', sizeof(block));
	fd = open("disk-grow.data", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return 1;
	t0 = now(CLOCK_MONOTONIC);
	for (i = 1; i <= cap; i++) {
		if (write(fd, block, BLOCK) != BLOCK)
			return 1;
		if (i == limit + 1)
			write_stamp(argv[4], now(CLOCK_REALTIME));
		sleep_for(t0 + i / rate - now(CLOCK_MONOTONIC));
	}
	sleep_for(30);
	close(fd);
	return 0;
}
