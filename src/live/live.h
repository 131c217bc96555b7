/* SPDX-License-Identifier: MIT */
/* live.h: the run's figures while it runs, for the people and programs
 * watching the machine: the runtime file that `tpmon top` reads
 * (publish.c), node_exporter's textfile (prom.c), InfluxDB (influx.c)
 * and cctools' catalog (catalog.c).  The loop hands in one plain point per
 * sample; nothing here reads the tree or blocks the loop. */
#ifndef TPMON_LIVE_H
#define TPMON_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "config/options.h"

struct tp_live;
struct tp_live_point;		/* point.h: what the caller fills */

/* Start what @o asks for (the runtime file unless --no-live, the
 * textfile, InfluxDB, the catalog) for a task @root started at @start (s
 * since the epoch).  NULL when nothing is asked for.  A part that cannot
 * start says why once and is left out: the task runs anyway. */
struct tp_live *live_open(const struct tp_options *o, double start, pid_t root);

/* A sample: published if at least LIVE_EVERY s passed since the last one
 * (the first always is).  Cheap otherwise. */
#define LIVE_EVERY 1.0
void live_sample(struct tp_live *l, const struct tp_live_point *p);

/* Is a catalog update due at @t (s since the start)?  The caller then
 * hands the summary's text to live_catalog(). */
bool live_catalog_due(const struct tp_live *l, double t);
/* A catalog update with the summary @json (a JSON object, borrowed). */
void live_catalog(struct tp_live *l, double t, const char *json);

/* The last point (state "ended"), published at once. */
void live_final(struct tp_live *l, const struct tp_live_point *p);

/* Remove the runtime file and the textfile, hand what is still to be
 * sent to the sender's exit (see sender.h), free @l (NULL is fine). */
void live_close(struct tp_live *l);

#endif
