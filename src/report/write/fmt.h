/* SPDX-License-Identifier: MIT */
/* fmt.h: values with readable units for people (terminal, HTML). */
#ifndef TPMON_REPORT_FMT_H
#define TPMON_REPORT_FMT_H

#include <stddef.h>
#include "report/read/rtask.h"

/* @v, a value of @r in its summary unit (the table of figures: us for the
 * pressure totals), as "3.2 MB", "1.50 GB", "42.0 s", "9.4 ms",
 * "3.5 min", "0.95" (cores); "-" when NAN.  Returns @buf. */
const char *rp_fmt_value(char *buf, size_t len, enum rp_res r, double v);

/* Hours (core hours, GB hours) in one format, two decimals: "1234",
 * "12.50", "0.27"; a figure that would round to 0.00 is "< 0.01" (never
 * 0, never an exponent); "0" for 0, "-" when NAN.  (The JSON and the CSV
 * keep every digit.) */
const char *rp_fmt_hours(char *buf, size_t len, double h);

/* A time, seconds since the epoch, as "2026-11-27 18:00:00 UTC";
 * "unknown" when NAN.  Returns @buf. */
const char *rp_fmt_utc(char *buf, size_t len, double t);

/* A share 0..1 as "95%", "-" when NAN.  Returns @buf. */
const char *rp_fmt_share(char *buf, size_t len, double share);

#endif
