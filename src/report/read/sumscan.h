/* SPDX-License-Identifier: MIT */
/* sumscan.h: a summary read in one pass over its text, without a JSON
 * tree: only the keys the report keeps (the resource table of rtask.c,
 * the times, category, command, host, exit_type, exit_status) are read,
 * the rest is checked and skipped.  The fast path of the report's reader;
 * jansson (rsummary.h) stays the judge of every file it declines. */
#ifndef TPMON_REPORT_SUMSCAN_H
#define TPMON_REPORT_SUMSCAN_H

#include <stddef.h>
#include "report/read/rtask.h"

/* Fill @t (fresh from rp_task_init()) from the summary @text (@len bytes
 * and a NUL after them; its strings are unescaped in place) as
 * rp_summary_parse() and rp_summary_fill() would.  0 when @text is a
 * JSON object that is a summary with readable measures, read whole.  -1
 * otherwise, @t then holds nothing to free: not JSON, not a summary, a
 * measure that is not readable, or a form left to jansson (a \u escape
 * or a byte beyond ASCII in a string, a key kept twice, nesting deeper
 * than 64, an integer of more than 18 digits, a number that overflows).
 * On -1 the caller reads @text again with rp_summary_parse(), which
 * gives the verdict and its reason.  No global state: threads may call
 * it at once. */
int rp_sumscan_fill(struct rp_task *t, char *text, size_t len);

#endif
