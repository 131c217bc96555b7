/* SPDX-License-Identifier: MIT */
/* rsummary.h: a summary's JSON object (tpmon's or cctools') read into a
 * report task.  The report's only parser of summary fields. */
#ifndef TPMON_REPORT_RSUMMARY_H
#define TPMON_REPORT_RSUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include "report/read/rtask.h"

/* The longest string kept from a field (command, category, host,
 * exit_type), in bytes; a longer one is cut at a character boundary. */
#define RP_STRING_MAX 8192

/* Fill @t from the fields of @root that it knows: resources as [value,
 * unit] pairs (converted to the report's unit) or bare numbers, category,
 * command, host, exit_type, exit_status.  A field that is null, missing
 * or unreadable stays unknown.  Strings already in @t are replaced.
 * Returns 0, or -1 when @root is not an object. */
int rp_summary_fill(struct rp_task *t, const json_t *root);

/* Are the measures of @root readable?  -1 with the first offence in @why
 * ("memory: unknown unit ...") when a resource field holds a number that
 * is not finite, negative (-0 too) or too large, or a unit that does not
 * fit the resource; the readers then skip the record with a warning.
 * 0 otherwise (null, missing and non-numeric fields are unknown values). */
int rp_summary_check(const json_t *root, char *why, size_t whylen);

/* @text (@len bytes) as a summary: a JSON object holding at least one of
 * a summary's keys (wall_time, command, memory...), its measures
 * readable (rp_summary_check()).  A new reference (allocated by jansson's
 * allocator of the moment), or NULL with the reason in @why. */
json_t *rp_summary_parse(const char *text, size_t len, char *why, size_t whylen);

/* The pieces of the above, for the summary scanner (sumscan.h), which
 * must read a summary exactly as they do. */

/* A summary holds at least one of these keys. */
#define RP_SUMMARY_NMARKS 7
extern const char *const rp_summary_marks[RP_SUMMARY_NMARKS];

/* A measure of resource @ri: @num (when @has_num) in @unit (NULL: the
 * report's unit) into *@out in @ri's unit; NAN without a number.  0, or
 * -1 with the reason in @why: not finite, negative (-0 too), beyond
 * UNITS_MAX, or a unit that does not fit the resource. */
int rp_summary_measure(const struct rp_res_info *ri, bool has_num, double num,
		       const char *unit, double *out, char *why, size_t whylen);

/* A time since the epoch: @v (when @has_num) in @unit ("s", "us" or NULL
 * for seconds); NAN when missing or not a plausible time. */
double rp_summary_time(bool has_num, double v, const char *unit);


/* An input size: @num (when @has_num) in @unit (NULL: MB) into MB; NAN
 * when missing, negative, not finite or in a unit that is not a size
 * (an unreadable input size leaves the task's other figures usable). */
double rp_summary_input_mb(bool has_num, double num, const char *unit);

/* A copy of @s (owned by the caller) cut to RP_STRING_MAX bytes at a
 * character boundary. */
char *rp_summary_strdup(const char *s);

#endif
