/* SPDX-License-Identifier: MIT */
/* rounding.c: requests rounded to the steps engines and people use (see
 * rounding.h). */
#include <math.h>
#include "basic/rounding.h"

int64_t round_memory_mb(double mb)
{
	double step = mb <= 1024 ? 64 : mb <= 16384 ? 256 : 1024;
	double v = ceil(mb / step - 1e-9) * step;

	return (int64_t)(v < 64 ? 64 : v);
}

int64_t round_wall_s(double s)
{
	double v = ceil(s / 60 - 1e-9) * 60;

	return (int64_t)(v < 60 ? 60 : v);
}

int64_t round_cores(double cores)
{
	double v = ceil(cores - 0.1);

	return (int64_t)(v < 1 ? 1 : v);
}
