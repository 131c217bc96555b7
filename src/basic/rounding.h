/* SPDX-License-Identifier: MIT */
/* rounding.h: requests rounded as engines and people ask for them (memory
 * in 64 MB steps to 1 GB, 256 MB to 16 GB, 1 GB above; wall time in whole
 * minutes; whole cores), shared by the report's recommendations and the
 * monitor's retry advice.  Pure functions. */
#ifndef TPMON_ROUNDING_H
#define TPMON_ROUNDING_H

#include <stdint.h>

/* @mb rounded up to its step, at least 64. */
int64_t round_memory_mb(double mb);
/* @s rounded up to whole minutes, at least 60. */
int64_t round_wall_s(double s);
/* @cores rounded up, 1.1 down to 1; at least 1. */
int64_t round_cores(double cores);

#endif
