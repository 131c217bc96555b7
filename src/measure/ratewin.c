/* SPDX-License-Identifier: MIT */
/* ratewin.c: rates over a sliding window of (time, counter) points: the
 * cores of the CPU time, the bandwidth of the bytes sent and received. */
#include "measure/ratewin.h"

void ratewin_add(struct tp_ratewin *w, double t, double cpu)
{
	unsigned i = (w->head + w->n) % TP_RATEWIN_POINTS;

	if (w->n == TP_RATEWIN_POINTS) {
		w->head = (w->head + 1) % TP_RATEWIN_POINTS;
		w->n--;
		i = (w->head + w->n) % TP_RATEWIN_POINTS;
	}
	w->t[i] = t;
	w->cpu[i] = cpu;
	w->n++;
}

bool ratewin_rate(const struct tp_ratewin *w, double span, double *cores)
{
	unsigned last, k;
	double t1, c1;

	if (w->n < 2)
		return false;
	last = (w->head + w->n - 1) % TP_RATEWIN_POINTS;
	t1 = w->t[last];
	c1 = w->cpu[last];
	/* newest point that is at least @span older than the last one */
	for (k = w->n - 1; k-- > 0;) {
		unsigned i = (w->head + k) % TP_RATEWIN_POINTS;

		if (t1 - w->t[i] >= span) {
			*cores = (c1 - w->cpu[i]) / (t1 - w->t[i]);
			return true;
		}
	}
	return false;
}

double ratewin_cctools_cores(struct tp_ratewin *w, double t, double cpu)
{
	double cores;

	if (w->n == 0 || t - w->t[(w->head + w->n - 1) % TP_RATEWIN_POINTS] >= 1.0)
		ratewin_add(w, t, cpu);
	if (t < TP_CCTOOLS_CORES_WINDOW)
		cores = cpu / TP_CCTOOLS_CORES_WINDOW;
	else if (!ratewin_rate(w, TP_CCTOOLS_CORES_WINDOW, &cores))
		cores = cpu / t;
	return cores - TP_CCTOOLS_CORES_ALLOWANCE;
}
