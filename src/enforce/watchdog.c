/* SPDX-License-Identifier: MIT */
/* watchdog.c: limit checks and the tree-wide signalling used to stop a
 * task: SIGTERM (plus SIGCONT), then SIGKILL after the grace. */
#include <errno.h>
#include <signal.h>
#include "error.h"
#include "watchdog.h"

void cpuwin_add(struct tp_cpu_window *w, double t, double cpu)
{
	unsigned i = (w->head + w->n) % TP_CPU_WINDOW_POINTS;

	if (w->n == TP_CPU_WINDOW_POINTS) {
		w->head = (w->head + 1) % TP_CPU_WINDOW_POINTS;
		w->n--;
		i = (w->head + w->n) % TP_CPU_WINDOW_POINTS;
	}
	w->t[i] = t;
	w->cpu[i] = cpu;
	w->n++;
}

bool cpuwin_rate(const struct tp_cpu_window *w, double span, double *cores)
{
	unsigned last, k;
	double t1, c1;

	if (w->n < 2)
		return false;
	last = (w->head + w->n - 1) % TP_CPU_WINDOW_POINTS;
	t1 = w->t[last];
	c1 = w->cpu[last];
	/* newest point that is at least @span older than the last one */
	for (k = w->n - 1; k-- > 0;) {
		unsigned i = (w->head + k) % TP_CPU_WINDOW_POINTS;

		if (t1 - w->t[i] >= span) {
			*cores = (c1 - w->cpu[i]) / (t1 - w->t[i]);
			return true;
		}
	}
	return false;
}

double cpuwin_cctools_cores(struct tp_cpu_window *w, double t, double cpu)
{
	double cores;

	if (w->n == 0 || t - w->t[(w->head + w->n - 1) % TP_CPU_WINDOW_POINTS] >= 1.0)
		cpuwin_add(w, t, cpu);
	if (t < TP_CCTOOLS_CORES_WINDOW)
		cores = cpu / TP_CCTOOLS_CORES_WINDOW;
	else if (!cpuwin_rate(w, TP_CCTOOLS_CORES_WINDOW, &cores))
		cores = cpu / t;
	return cores - TP_CCTOOLS_CORES_ALLOWANCE;
}

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
