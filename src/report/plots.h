/* SPDX-License-Identifier: MIT */
/* plots.h: the report's pictures, drawn by gnuplot run as a program (no
 * plotting code here: a data file and a script per group), and the HTML
 * page that holds them. */
#ifndef TPMON_REPORT_PLOTS_H
#define TPMON_REPORT_PLOTS_H

#include <stddef.h>
#include "report/analysis.h"
#include "report/store.h"

/* The SVG files drawn for one group (owned paths, NULL: not drawn). */
struct rp_plot_set {
	char *hist[RP_RES__COUNT];
	char *scatter;
};

/* In @dir (created if missing): per group and resource with values a
 * histogram GROUP-RES.png and .svg with the allocations marked, and a
 * scatter GROUP-memory-wall_time.png and .svg.  GROUP is the group's name
 * with any byte but [A-Za-z0-9._-] as '_', cut at 100 bytes (-N appended
 * when two groups would share a name).  @sets (n entries, or NULL)
 * receives the SVG paths.  0, or -1 after a message. */
int rp_plots_write(const char *dir, const struct rp_store *st,
		   const struct rp_cat *c, size_t n, struct rp_plot_set *sets);

/* Free the paths of @n sets (not the array). */
void rp_plot_sets_clear(struct rp_plot_set *sets, size_t n);

/* What the page shows besides the groups: the notes on the sources
 * (rp_notes()) and the timeline as an SVG document (NULL: none). */
struct rp_page {
	char **notes;
	size_t nnotes;
	const char *timeline_svg;
};

/* The --html page at @path, with the SVGs of @sets (NULL: no plots) and
 * what @pg holds (NULL: nothing).  0, or -1 after a message. */
int rp_out_html(const char *path, const struct rp_cat *c, size_t n,
		const struct rp_plot_set *sets, const struct rp_page *pg);

#endif
