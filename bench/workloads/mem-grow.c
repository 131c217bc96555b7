/* SPDX-License-Identifier: MIT */
/*
 * mem-grow: grow resident memory at a steady rate past a limit.
 *
 *   mem-grow RATE_MB_S LIMIT_MB CAP_MB STAMPFILE PIDFILE
 *
 * Writes its pid to PIDFILE, then touches anonymous pages at RATE MiB/s.
 * Right after touching the page that takes its RSS (the RSS at start,
 * from /proc/self/statm, plus the pages touched) past LIMIT MiB, it writes
 * CLOCK_REALTIME to STAMPFILE.  At CAP_MB it stops growing and waits 30 s
 * for the monitor to stop it, then exits 0.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

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

static long resident_pages(void)
{
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), base, limit_pages, cap_pages, i;
	double rate, t0;
	char *mem;
	FILE *f;

	if (argc != 6) {
		fprintf(stderr, "usage: mem-grow RATE_MB_S LIMIT_MB CAP_MB STAMPFILE PIDFILE\n");
		return 2;
	}
	rate = atof(argv[1]) * (1 << 20) / page;	/* pages per second */
	limit_pages = (atol(argv[2]) << 20) / page;
	cap_pages = (atol(argv[3]) << 20) / page;
	f = fopen(argv[5], "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0)
		return 1;
	mem = mmap(NULL, (size_t)cap_pages * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	base = resident_pages();
	t0 = now(CLOCK_MONOTONIC);
	for (i = 0; i < cap_pages; i++) {
		mem[i * page] = 1;
		if (base + i + 1 == limit_pages + 1)
			write_stamp(argv[4], now(CLOCK_REALTIME));
		if ((i & 255) == 255)	/* pace every MiB */
			sleep_for(t0 + (i + 1) / rate - now(CLOCK_MONOTONIC));
	}
	sleep_for(30);
	return 0;
}
