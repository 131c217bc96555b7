/* SPDX-License-Identifier: MIT */
/* groupplots.h: `tpmon report --plots`: each group's histograms and its
 * memory/wall-time scatter, drawn by gnuplot run as a program (no
 * plotting code here: data files and a script). */
#ifndef TPMON_REPORT_GROUPPLOTS_H
#define TPMON_REPORT_GROUPPLOTS_H

#include <stddef.h>
#include "report/analyse/analysis.h"
#include "report/read/store.h"
#include "report/write/output.h"

/* In @dir (created if missing): per group and resource with values a
 * histogram GROUP-RES.png and .svg with the allocations marked, and a
 * scatter GROUP-memory-wall_time.png and .svg.  GROUP is the group's name
 * with any byte but [A-Za-z0-9._-] as '_', cut at 100 bytes (-N appended
 * when two groups would share a name).  @sets (n entries, or NULL)
 * receives the SVG paths.  0, or -1 after a message. */
int rp_plots_write(const char *dir, const struct rp_store *st,
		   const struct rp_cat *c, size_t n, struct rp_plot_set *sets);

#endif
