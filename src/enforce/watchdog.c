/* SPDX-License-Identifier: MIT */
/* watchdog.c: limit checks and how soon to look again. */
#include <errno.h>
#include <signal.h>
#include "error.h"
#include "watchdog.h"

int watchdog_check(const struct tp_limits *l, const double *cur, const bool *known)
{
	int r;

	for (r = 0; r < TP_RES__COUNT; r++)
		if (known[r] && limitset_exceeded(l, r, cur[r]))
			return r;
	return -1;
}

/* Fastest growth we plan for, MB/s: the rate of a task touching fresh
 * pages flat out on one core is a few GB/s. */
#define GROWTH_MB_PER_S 4000.0

double watchdog_next_delay(const struct tp_limits *l, const double *cur, double delay)
{
	static const enum tp_res mem[] = { TP_RES_MEMORY, TP_RES_VIRTUAL_MEMORY,
					   TP_RES_SWAP_MEMORY };
	unsigned i;

	for (i = 0; i < sizeof(mem) / sizeof(mem[0]); i++) {
		double room, d;

		if (!l->set[mem[i]])
			continue;
		room = l->value[mem[i]] - cur[mem[i]];
		d = room / GROWTH_MB_PER_S;
		/* never slower than 20 Hz while a memory limit is set */
		if (d > 0.05)
			d = 0.05;
		if (d < 0.005)
			d = 0.005;
		if (d < delay)
			delay = d;
	}
	return delay;
}
