/* SPDX-License-Identifier: MIT */
/* panels.h: the gnuplot script of `tpmon plot`: a run's series as
 * stacked panels against the time since its start (memory, cores,
 * processes, I/O, network and GPU memory when measured, disk), declared
 * limits as dashed lines, the moment the tree was stopped as a red line. */
#ifndef TPMON_REPORT_PANELS_H
#define TPMON_REPORT_PANELS_H

#include <stdbool.h>
#include <stdio.h>
#include "report/read/series.h"

/* Write to @f the script that draws the series file @series (read into
 * @s) and what @run says into the picture @out (SVG when @svg, else PNG),
 * the time axis from @t0 (s since the epoch) over @span seconds. */
void rp_panels_script(FILE *f, const char *out, bool svg, const char *series,
		      const struct rp_series *s, const struct rp_run *run, double t0,
		      double span);

#endif
