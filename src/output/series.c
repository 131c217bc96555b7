/* SPDX-License-Identifier: MIT */
/* series.c: the time series files.  TEMPLATE.series has resource_monitor's
 * columns and units, then tpmon's own (gpus, gpu_memory, gpu_cores,
 * memory_pss), and in a run with a cgroup the table's kernel columns (the
 * PSI totals: basic/figtable.h); the columns, their order and decimals are
 * the table's (fig_series_columns()).  In cctools mode TEMPLATE.series is
 * exactly what cctools' resource_monitor writes (its header, its 15 columns, or 13 without the
 * disk footprint, its decimals), for scripts that read Makeflow's monitor
 * directories by position; the 19-column file is TEMPLATE.tpmon.series. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/messages.h"
#include "basic/outfile.h"
#include "output/series.h"
#include "basic/xmalloc.h"

struct tp_series {
	struct tp_outfile *f;
	unsigned long lines, lost;	/* sample lines tried, lost */
	bool headless;		/* the header is not written yet */
	char *head;		/* the header of this file (owned) */
	size_t ncols;		/* its base columns (fig_series_columns()) */
	bool cctools;		/* resource_monitor's shape and decimals */
	bool kernel;		/* with the table's kernel columns */
	struct tp_series *cct;	/* cctools mode: the cctools-shaped .series */
};

/* tpmon's header: the units, then the columns (malloc'd). */
static const char units[] =
	"# Units:\n"
	"# wall_clock in seconds since the epoch; cpu_time in seconds\n"
	"# virtual, resident and swap memory in megabytes.\n"
	"# disk in megabytes.\n"
	"# bandwidth in Mbps (sent + received over the last 5 s).\n"
	"# bytes_received and bytes_sent in megabytes, over TCP (IPv4 and IPv6, loopback included).\n"
	"# cpu_time, bytes_read, bytes_written, bytes_sent, and bytes_received show cummulative values.\n"
	"# wall_clock, max_concurrent_processes, virtual, resident, swap, files, and disk show values at the sample point.\n"
	"# nan: unknown (bytes_received, bytes_sent and bandwidth without sock_diag, bandwidth\n"
	"# until its window is full, total_files and disk until the first walk or without it,\n"
	"# machine_load when /proc/loadavg is unreadable, the GPU columns without NVML).\n"
	"# gpus: distinct GPUs used so far; gpu_memory in megabytes and gpu_cores (SM utilization,\n"
	"# in GPUs) at the sample.\n"
	"# memory_pss (MB): the sum of each live process's latest PSS, at most its RSS (nan with none).\n";
static const char kernel_units[] =
	"# the cgroup's PSI totals (*_pressure_some, *_pressure_full) in us stalled (nan: no such file).\n";

/* resource_monitor's units (rmonitor_summary_header() in cctools'
 * resource_monitor.c); its column line follows. */
static const char cct_units[] =
	"# Units:\n"
	"# wall_clock and cpu_time in seconds\n"
	"# virtual, resident and swap memory in megabytes.\n"
	"# disk in megabytes.\n"
	"# bandwidth in Mbps.\n"
	"# cpu_time, bytes_read, bytes_written, bytes_sent, and bytes_received show cummulative values.\n"
	"# wall_clock, max_concurrent_processes, virtual, resident, swap, files, and disk show values at the sample point.\n";

/* The figures whose columns follow memory_pss in a run with a cgroup. */
static bool kernel_column(int f)
{
	return fig_info(f)->place == TP_FIGP_KERNEL && fig_info(f)->series;
}

/* Append " NAME" (or, @wide, " %25s" as resource_monitor pads its disk
 * columns) to the string @s, freed. */
static char *add_name(char *s, const char *name, bool wide)
{
	char *more = wide ? xasprintf("%s %25s", s, name) : xasprintf("%s %s", s, name);

	free(s);
	return more;
}

/* A header (malloc'd): @head, then "#" and the first @ncols base columns'
 * names (@cctools: padded as resource_monitor does), then with @kernel
 * the table's kernel columns. */
static char *make_header(const char *head, size_t ncols, bool cctools, bool kernel)
{
	size_t n, i;
	const struct tp_series_col *cols = fig_series_columns(&n);
	char *s = xasprintf("%s%s#%s", head, kernel ? kernel_units : "", fig_series_name(&cols[0]));
	int f;

	for (i = 1; i < ncols && i < n; i++)
		s = add_name(s, fig_series_name(&cols[i]), cctools && i >= TP_SERIES_CCTOOLS);
	for (f = 0; kernel && f < TP_FIG__COUNT; f++)
		if (kernel_column(f))
			s = add_name(s, fig_info(f)->series, false);
	n = strlen(s);
	s = xreallocarray(s, n + 2, 1);
	memcpy(s + n, "\n", 2);
	return s;
}

static struct tp_series *open_one(const char *template, const char *suffix, char *head)
{
	struct tp_outfile *f = outfile_open_output(template, suffix);
	struct tp_series *se;

	if (!f) {
		free(head);
		return NULL;
	}
	se = xcalloc(1, sizeof(*se));
	se->f = f;
	se->head = head;
	se->headless = outfile_append(f, head, strlen(head)) < 0;
	return se;
}

struct tp_series *series_open(const char *template, bool cctools, bool disk, bool kernel)
{
	struct tp_series *se, *cct = NULL;
	size_t n;

	fig_series_columns(&n);
	if (cctools) {
		size_t ncct = disk ? TP_SERIES_CCTOOLS_DISK : TP_SERIES_CCTOOLS;

		cct = open_one(template, "series", make_header(cct_units, ncct, true, false));
		if (!cct)
			return NULL;
		cct->ncols = ncct;
		cct->cctools = true;
	}
	se = open_one(template, cctools ? "tpmon.series" : "series",
		      make_header(units, n, false, kernel));
	if (!se) {
		series_close(cct);
		return NULL;
	}
	se->ncols = n;
	se->kernel = kernel;
	se->cct = cct;
	return se;
}

/* Append one line, after the header if that could not be written yet
 * (the disk was full at the start): readers need its column names. */
static int append(struct tp_series *se, const char *line, size_t len)
{
	char *both;
	int r;

	if (!se->headless)
		return outfile_append(se->f, line, len);
	both = xasprintf("%s%.*s", se->head, (int)len, line);
	r = outfile_append(se->f, both, strlen(both));
	free(both);
	se->headless = r < 0;
	return r;
}

/* Column @c's value at sample @s into @v; false when it is unknown (then
 * written "nan": an unknown value is never written as 0).  The one place
 * that knows where a sample holds each column's value. */
static bool value(const struct tp_series_col *c, const struct tp_sample *s,
		  const struct tp_figures *f, double *v)
{
	int held;

	if (c->fig == TP_SERIES_WALL_CLOCK) {
		*v = f->rep->start + s->t;
		return true;
	}
	/* what the sample read at its moment, else the figure as it stands */
	held = sample_figure(s, c->fig, v);
	return held >= 0 ? held == 1 : figures_now(f, c->fig, v);
}

/* " V" for each of @se's columns and, with kernel columns, the table's
 * (from the summary so far), into @buf.  Its length, or -1 if too long. */
static int format_line(const struct tp_series *se, const struct tp_sample *s,
		       const struct tp_figures *f, char *buf, size_t size)
{
	size_t n, i, len = 0;
	const struct tp_series_col *cols = fig_series_columns(&n);
	int k;

	for (i = 0; i < se->ncols && i < n && len < size; i++) {
		double v;
		bool known = value(&cols[i], s, f, &v);
		int d = se->cctools ? cols[i].cctools_decimals : cols[i].decimals;

		len += (size_t)(known ? snprintf(buf + len, size - len, "%s%.*f", i ? " " : "", d, v)
				      : snprintf(buf + len, size - len, "%snan", i ? " " : ""));
	}
	for (k = 0; se->kernel && k < TP_FIG__COUNT && len < size; k++) {
		double v;
		bool known;

		if (!kernel_column(k))
			continue;
		known = figures_value(f->rep, k, &v);	/* before v is read */
		len += (size_t)(known ? snprintf(buf + len, size - len, " %.*f",
						 fig_info(k)->decimals, v)
				      : snprintf(buf + len, size - len, " nan"));
	}
	if (len + 1 >= size)
		return -1;
	buf[len++] = '\n';
	buf[len] = '\0';
	return (int)len;
}

/* One line: one write, so a full disk loses whole lines, never halves. */
static void add_line(struct tp_series *se, const struct tp_sample *s, const struct tp_figures *f)
{
	char line[4096];
	int n = format_line(se, s, f, line, sizeof(line));

	se->lines++;
	if (n < 0 || append(se, line, (size_t)n) < 0)
		se->lost++;
}

void series_add(struct tp_series *se, const struct tp_sample *s, const struct tp_figures *f)
{
	if (!se)
		return;
	if (se->cct)
		add_line(se->cct, s, f);
	add_line(se, s, f);
}

void series_close(struct tp_series *se)
{
	if (!se)
		return;
	series_close(se->cct);
	if (se->lost)
		warn_msg("%s: %lu of %lu sample lines could not be written (%s)",
			 outfile_path(se->f), se->lost, se->lines,
			 outfile_error(se->f) ? strerror(outfile_error(se->f)) : "too long");
	outfile_close(se->f);
	free(se->head);
	free(se);
}
