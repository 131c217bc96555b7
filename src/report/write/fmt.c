/* SPDX-License-Identifier: MIT */
/* fmt.c: readable units, from a value in its figure's summary unit
 * converted by the table of figures (fig_base_factor()). */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include "basic/figtable.h"
#include "report/write/fmt.h"

static void fmt_size(char *buf, size_t len, double mb)
{
	if (mb == 0)
		snprintf(buf, len, "0 MB");
	else if (mb < 1)
		snprintf(buf, len, "%.0f kB", mb * 1024);
	else if (mb < 1024)
		snprintf(buf, len, "%.1f MB", mb);
	else if (mb < 1024.0 * 1024)
		snprintf(buf, len, "%.2f GB", mb / 1024);
	else
		snprintf(buf, len, "%.2f TB", mb / (1024.0 * 1024));
}

static void fmt_time(char *buf, size_t len, double s)
{
	if (s == 0)
		snprintf(buf, len, "0 s");
	else if (s < 0.0009995)	/* from 999.5 us on: "1.0 ms" */
		snprintf(buf, len, "%.0f us", s * 1e6);
	else if (s < 0.99995)	/* from 999.95 ms on: "1.00 s" */
		snprintf(buf, len, "%.1f ms", s * 1e3);
	else if (s < 60)
		snprintf(buf, len, "%.2f s", s);
	else if (s < 3600)
		snprintf(buf, len, "%.1f min", s / 60);
	else if (s < 2 * 86400)
		snprintf(buf, len, "%.2f h", s / 3600);
	else
		snprintf(buf, len, "%.1f d", s / 86400);
}

const char *rp_fmt_value(char *buf, size_t len, enum rp_res r, double v)
{
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	v *= fig_base_factor(rp_res_info(r)->fig);
	switch (rp_res_info(r)->kind) {
	case TP_UNIT_SIZE:
		fmt_size(buf, len, v);
		break;
	case TP_UNIT_TIME:
		fmt_time(buf, len, v);
		break;
	default:
		snprintf(buf, len, "%.2f", v);
		break;
	}
	return buf;
}

const char *rp_fmt_utc(char *buf, size_t len, double t)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (isnan(t) || !gmtime_r(&s, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, len, "unknown");
	return buf;
}

const char *rp_fmt_share(char *buf, size_t len, double share)
{
	if (isnan(share))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f%%", share * 100);
	return buf;
}

const char *rp_fmt_hours(char *buf, size_t len, double h)
{
	if (isnan(h))
		snprintf(buf, len, "-");
	else if (h == 0)
		snprintf(buf, len, "0");
	else if (h >= 100)
		snprintf(buf, len, "%.0f", h);
	else if (h >= 0.005)
		snprintf(buf, len, "%.2f", h);
	else
		snprintf(buf, len, "< 0.01");
	return buf;
}
