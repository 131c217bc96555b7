/* SPDX-License-Identifier: MIT */
/* timeline.h: the workflow's timeline: every task with a start and an end
 * as a bar against time, one row per host or worker (concurrent tasks of
 * a host on lanes of their own), coloured by group, stopped and failed
 * tasks marked; beneath, the running tasks and their summed cores and
 * memory over time.  Drawn by gnuplot (gnuplot.c). */
#ifndef TPMON_REPORT_TIMELINE_H
#define TPMON_REPORT_TIMELINE_H

#include <stddef.h>
#include "report/read/store.h"

/* A task's bar. */
struct rp_tl_bar {
	size_t task;		/* index in the store */
	size_t group;		/* index in the groups */
	const char *host;	/* borrowed from the task; "" unknown */
	double t0, t1;		/* seconds since the first start */
	double y;		/* row */
};

struct rp_tl_layout {
	struct rp_tl_bar *b;	/* owned */
	size_t n;
	size_t nhosts;
	double rows;		/* rows and the gaps between hosts */
	double span;		/* seconds from the first start to the last end */
	double start;		/* the first start, seconds since the epoch */
};

/* The bars of @st's tasks that have a start and an end (no later than
 * the start), sorted by host and start, each on its row: a host's tasks
 * on lanes, each on the first lane free at its start (a lane is free
 * from the moment its last task ended), the hosts' lanes half a row
 * apart.  Pure.  0, or 1 when no task has both times (@l then empty). */
int rp_timeline_layout(struct rp_tl_layout *l, const struct rp_store *st,
		       const struct rp_group *g, size_t ng);
void rp_timeline_layout_free(struct rp_tl_layout *l);

/* Draw the timeline of @st's tasks, coloured by the @ng groups @g, as the
 * PNG (@path ending in .png) or SVG (.svg) @path.  0; 1 when no task has
 * both a start and an end (after a note, nothing written); -1 after an
 * error message. */
int rp_timeline_write(const char *path, const struct rp_store *st,
		      const struct rp_group *g, size_t ng);

/* The same as an SVG document in a new buffer (*@svg, NUL-terminated),
 * for the HTML page: 0, 1 (nothing to draw, no note) or -1. */
int rp_timeline_svg(char **svg, const struct rp_store *st,
		    const struct rp_group *g, size_t ng);

#endif
