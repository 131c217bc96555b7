/* plots.h: the report's pictures, drawn by gnuplot run as a program, and
 * the HTML page that holds them. */
#ifndef TPMON_REPORT_PLOTS_H
#define TPMON_REPORT_PLOTS_H

#include <stddef.h>
#include "report/analysis.h"
#include "report/store.h"

/* In @dir (created if missing): per category and resource with values a
 * histogram CAT-RES.png and .svg with the allocations marked, and a
 * scatter CAT-memory-wall_time.png and .svg.  0, or -1 after a message. */
int rp_plots_write(const char *dir, const struct rp_store *st,
		   const struct rp_cat *c, size_t n);

/* The --html page at @path.  0, or -1 after a message. */
int rp_out_html(const char *path, const struct rp_store *st,
		const struct rp_cat *c, size_t n);

#endif
