/* SPDX-License-Identifier: MIT */
/* records.h: TEMPLATE.processes (--with-process-records), one JSON line
 * per process of the tree, written as each process ends. */
#ifndef TPMON_RECORDS_H
#define TPMON_RECORDS_H

#include <jansson.h>
#include <sys/types.h>
#include "track/ptree.h"

struct tp_records;

/* Create TEMPLATE.processes; NULL (with a message) on failure.  @monitor
 * is tpmon's pid, the creator of the main process. */
struct tp_records *records_open(const char *template, pid_t monitor);
/* The line of process @p, which has just ended with final figures @a. */
void records_add(struct tp_records *r, const struct tp_proc *p, const struct tp_acct *a);
/* Push buffered lines to the file (done at each sample). */
void records_flush(struct tp_records *r);
void records_close(struct tp_records *r);

/* A new object with the figures of ended process @p (the fields of its
 * record after "end"), shared with the trace. */
json_t *records_figures(const struct tp_proc *p, const struct tp_acct *a);
/* The name shown for @p: the base name of its executable, else its comm. */
const char *records_name(const struct tp_proc *p);

#endif
