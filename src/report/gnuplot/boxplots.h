/* SPDX-License-Identifier: MIT */
/* boxplots.h: the charts across groups for the --html page (boxplots.c),
 * drawn by gnuplot from sizing/'s footprints and short names; the page's
 * section that holds them is write/'s (rp_sizing_html_across()). */
#ifndef TPMON_REPORT_BOXPLOTS_H
#define TPMON_REPORT_BOXPLOTS_H

#include <stddef.h>
#include "report/analyse/analysis.h"
#include "report/read/store.h"

/* A chart per resource (memory, wall time, cores) across the @n groups,
 * box plots of the largest footprints (*@shown of them), drawn by gnuplot
 * as SVG documents in new buffers @svg[i] (NULL: none).  Nothing with
 * fewer than 2 groups.  0, or -1 after gnuplot's message. */
int rp_boxplots_svg(char *svg[3], size_t *shown, const struct rp_store *st,
		    const struct rp_cat *c, size_t n);

#endif
