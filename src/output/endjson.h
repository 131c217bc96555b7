/* SPDX-License-Identifier: MIT */
/* endjson.h: the summary's ending, retry and notes as JSON. */
#ifndef TPMON_ENDJSON_H
#define TPMON_ENDJSON_H

#include <jansson.h>
#include "config/options.h"
#include "measure/figures.h"

/* Add "ending", "retry" and "notes" of @r to @root (null in a checkpoint). */
void endjson_add(json_t *root, const struct tp_options *o, const struct tp_summary *r);

#endif
