/* SPDX-License-Identifier: MIT */
/* rsummary.h: a summary's JSON object (tpmon's or cctools') read into a
 * report task.  The report's only parser of summary fields. */
#ifndef TPMON_REPORT_RSUMMARY_H
#define TPMON_REPORT_RSUMMARY_H

#include <jansson.h>
#include "report/rtask.h"

/* Fill @t from the fields of @root that it knows: resources as [value,
 * unit] pairs (converted to the report's unit) or bare numbers, category,
 * command, host, exit_type, exit_status.  A field that is null, missing
 * or unreadable stays unknown.  Strings already in @t are replaced.
 * Returns 0, or -1 when @root is not an object. */
int rp_summary_fill(struct rp_task *t, const json_t *root);

#endif
