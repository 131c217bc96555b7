/* SPDX-License-Identifier: MIT */
/* series.h: TEMPLATE.series, one line per sample in resource_monitor's
 * column order and units (--with-time-series). */
#ifndef TPMON_SERIES_H
#define TPMON_SERIES_H

#include <stdbool.h>
#include "measure/sampler.h"
#include "measure/figures.h"

struct tp_series;

/* Create TEMPLATE.series and write its header; NULL (with a message) on
 * failure.  @cctools: TEMPLATE.series in resource_monitor's shape (its 15
 * columns, 13 without @disk) and tpmon's 19 columns in
 * TEMPLATE.tpmon.series. */
struct tp_series *series_open(const char *template, bool cctools, bool disk, bool kernel);
/* One line for sample @s; @f gives the start time, which figures are
 * known, and the current value of each resource (cores over the last
 * window). */
void series_add(struct tp_series *se, const struct tp_sample *s, const struct tp_figures *f);
void series_close(struct tp_series *se);

#endif
