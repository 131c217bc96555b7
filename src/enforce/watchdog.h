/* SPDX-License-Identifier: MIT */
/* watchdog.h: holding the task to its limits: which limit a set of current
 * figures breaks, and how soon to look again. */
#ifndef TPMON_WATCHDOG_H
#define TPMON_WATCHDOG_H

#include <stdbool.h>
#include "limitset.h"

/* First resource of @cur that is over its limit in @l, or -1. */
int watchdog_check(const struct tp_limits *l, const double *cur, const bool *known);

/* How long to wait before the next sample: @delay, shortened when memory
 * is close to a limit so that a task growing fast is caught in time. */
double watchdog_next_delay(const struct tp_limits *l, const double *cur, double delay);


#endif
