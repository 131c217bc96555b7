/* SPDX-License-Identifier: MIT */
/* parfor.h: a loop whose iterations are independent, run on a few
 * threads.  Each iteration writes only its own results, so what the loop
 * computes does not depend on how many threads ran it. */
#ifndef TPMON_PARFOR_H
#define TPMON_PARFOR_H

#include <stddef.h>

/* The most threads parfor() starts. */
#define PARFOR_JOBS_MAX 64

/* The threads @jobs asks for: 0 (or less) one a core, at most
 * PARFOR_JOBS_MAX. */
int parfor_jobs(int jobs);

/* Call @fn(@i, @arg) for every @i below @n, on at most @jobs threads (the
 * caller's among them; 0: as many as there are cores).  Iterations are
 * handed out in order, one at a time.  Returns when all are done. */
void parfor(size_t n, int jobs, void (*fn)(size_t i, void *arg), void *arg);

#endif
