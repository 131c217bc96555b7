/* SPDX-License-Identifier: MIT */
/* clock.c: time sources. */
#include <time.h>
#include "basic/clock.h"

static double read_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double clock_mono(void)
{
	return read_clock(CLOCK_MONOTONIC);
}

double clock_wall(void)
{
	return read_clock(CLOCK_REALTIME);
}

double clock_thread_cpu(void)
{
	return read_clock(CLOCK_THREAD_CPUTIME_ID);
}
