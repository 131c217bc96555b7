/* SPDX-License-Identifier: MIT */
/* clock.h: monotonic and wall-clock time in seconds (double). */
#ifndef TPMON_CLOCK_H
#define TPMON_CLOCK_H

double clock_mono(void);	/* CLOCK_MONOTONIC, s */
double clock_wall(void);	/* CLOCK_REALTIME, s since the epoch */
double clock_thread_cpu(void);	/* CPU time of the calling thread, s */

#endif
