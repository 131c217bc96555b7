/* SPDX-License-Identifier: MIT */
/* summary.h: the report of a run and the files written from it
 * (TEMPLATE.summary, atomically).  With the guard's note (lostnote.c),
 * the only user of jansson for output. */
#ifndef TPMON_SUMMARY_H
#define TPMON_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <jansson.h>
#include "measure/figures.h"
#include "config/options.h"

/* TEMPLATE.summary, and the file that holds every field (TEMPLATE.tpmon.json
 * in cctools mode, else the same), malloc'd. */
char *summary_path(const struct tp_options *o);
char *summary_full_path(const struct tp_options *o);

/* A summary's identity: a new object with its monitor, host and command
 * (the first fields), and the tags that close it (the batch job, -V). */
json_t *summary_identity(const struct tp_options *o);
void summary_tag(json_t *root, const struct tp_options *o);
/* @root as a summary's text, with its newline, malloc'd. */
char *summary_dump(const json_t *root, bool pprint);

/* Is @key a field that tpmon writes itself (so -V may not set it)? */
bool summary_field_reserved(const char *key);

/* Before the task starts: check that TEMPLATE.summary can be made (it is
 * not a directory) and set space aside for the final summary, so that a
 * task filling the disk does not lose it.  Returns 0, or -1 after printing
 * why.  outfile_check_template() has checked the template itself. */
int summary_prepare(const struct tp_options *o);
/* Give back the space summary_prepare() set aside, if still unused. */
void summary_release(void);

/* Write @r as TEMPLATE.summary through outfile_write() (the final one,
 * not partial, may use the reserved space).  0, or -1 after printing why;
 * a failing checkpoint is told once. */
int summary_write(const struct tp_options *o, const struct tp_summary *r);

/* @r as cctools reads it (the summary's cctools view), on one line, newly
 * allocated: the catalog's update (src/live/catalog.c). */
char *summary_text(const struct tp_options *o, const struct tp_summary *r);

/* Write snapshot number @n (from 0) as TEMPLATE.snapshot.NN, as
 * resource_monitor does.  0, or -1 after printing why. */
int summary_write_snapshot(const struct tp_options *o, const struct tp_snapshot *s, size_t n);

#endif
