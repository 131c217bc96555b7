/* SPDX-License-Identifier: MIT */
/* brief.h: the few lines tpmon prints at the end of a run when its
 * stderr is a terminal (not in cctools mode, not with --quiet). */
#ifndef TPMON_BRIEF_H
#define TPMON_BRIEF_H

#include <stdbool.h>
#include <stdio.h>
#include "config/options.h"
#include "output/summary.h"

/* Should the run of @o end with the brief on @fd? */
bool brief_wanted(const struct tp_options *o, int fd);
/* Print the brief of report @r to @f. */
void brief_print(FILE *f, const struct tp_options *o, const struct tp_summary *r);

#endif
