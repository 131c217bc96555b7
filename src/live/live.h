/* SPDX-License-Identifier: MIT */
/* live.h: the run's figures while it runs, for the people and programs
 * watching the machine: the export targets of live.c's table
 * (livetarget.h): the runtime file that `tpmon top` reads, node_exporter's
 * textfile, InfluxDB and cctools' catalog.  The loop hands in one plain
 * point per sample; nothing here reads the tree or blocks the loop. */
#ifndef TPMON_LIVE_H
#define TPMON_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "config/options.h"

struct tp_live;
struct tp_live_point;		/* point.h: what the caller fills */

/* Start the targets @o asks for (the runtime file unless --no-live, the
 * textfile, InfluxDB, the catalog) for a task @root started at @start (s
 * since the epoch).  NULL when nothing is asked for.  A part that cannot
 * start says why once and is left out: the task runs anyway. */
struct tp_live *live_open(const struct tp_options *o, double start, pid_t root);

/* A sample: published if at least LIVE_EVERY s passed since the last one
 * (the first always is).  Cheap otherwise. */
#define LIVE_EVERY 1.0
void live_sample(struct tp_live *l, const struct tp_live_point *p);

/* Does a target want the summary at @t (s since the start; the catalog,
 * at its own pace)?  The caller then hands its text to live_summary(),
 * which gives it to the targets that said so. */
bool live_summary_due(struct tp_live *l, double t);
/* The summary @json (a JSON object, borrowed), made at @t. */
void live_summary(struct tp_live *l, double t, const char *json);

/* The last point (state "ended"), published at once. */
void live_final(struct tp_live *l, const struct tp_live_point *p);

/* Close the targets (the files are removed), hand what is still to be
 * sent to the sending thread's exit (see livequeue.h), free @l (NULL is
 * fine). */
void live_close(struct tp_live *l);

#endif
