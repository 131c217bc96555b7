/* SPDX-License-Identifier: MIT */
/* txnlog.h: Work Queue and TaskVine transaction logs as report tasks. */
#ifndef TPMON_REPORT_TXNLOG_H
#define TPMON_REPORT_TXNLOG_H

#include <stdio.h>
#include "report/read/store.h"

/* The longest line read, in bytes; longer ones are skipped. */
#define RP_LINE_MAX (1 << 20)

/* Read the log open in @f (named @path) into @st: one task per attempt
 * whose measurement the log gives (a RETRIEVED line, or a DONE line with
 * the measured JSON when no RETRIEVED line came before it), its category
 * from the task's WAITING or READY line, its host (the worker) and the
 * resources allocated to it (rp_task.given) from its RUNNING line.
 * Lines longer than RP_LINE_MAX and records whose measures fail
 * rp_summary_check() are skipped, with one warning for the file.
 * Returns the number of tasks read, or -1 after a warning when @f holds
 * no transaction at all. */
long rp_txnlog_read(struct rp_store *st, FILE *f, const char *path);

#endif
