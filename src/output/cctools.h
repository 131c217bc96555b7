/* SPDX-License-Identifier: MIT */
/* cctools.h: the cctools view of a summary: only the fields that cctools'
 * rmsummary parser knows, so that Work Queue, TaskVine and Makeflow read
 * it without a notice (or a fatal error, for unknown objects). */
#ifndef TPMON_CCTOOLS_H
#define TPMON_CCTOOLS_H

#include <jansson.h>
#include "config/options.h"

/* A new object with the members of @full (a complete summary) that the
 * parser knows, in their order, plus the -V fields of @o.  Without disk
 * measuring, disk and total_files are 0, as resource_monitor writes them
 * (TaskVine would count a null disk as the task's whole allocation). */
json_t *cctools_view(const json_t *full, const struct tp_options *o);

#endif
