/* SPDX-License-Identifier: MIT */
/* notes.h: what the report's figures mean for each kind of source read
 * (a Nextflow peak_rss or a Slurm MaxRSS is not tpmon's memory). */
#ifndef TPMON_REPORT_NOTES_H
#define TPMON_REPORT_NOTES_H

#include <stdio.h>
#include "report/read/store.h"

/* The notes that apply to @st, in @out (at most @max, owned strings, one
 * paragraph each, no markup).  Returns how many. */
size_t rp_notes(const struct rp_store *st, char **out, size_t max);

/* The notes of @st on @f, wrapped to 78 columns after a blank line. */
void rp_notes_text(FILE *f, const struct rp_store *st);

#endif
