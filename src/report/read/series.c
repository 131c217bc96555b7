/* SPDX-License-Identifier: MIT */
/* series.c: a run's time series and its summary, as `tpmon plot` reads
 * them (series.h): the series line by line through infile.c, bounded per
 * line; the summary through reader.c's rp_summary_load(), as the report
 * reads one. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "basic/compat.h"
#include "basic/messages.h"
#include "report/files/infile.h"
#include "report/read/reader.h"
#include "report/read/series.h"
#include "basic/figtable.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

/* The figure of each column but the first (wall_clock), by enum rp_col:
 * the column's name is its row's series column (basic/figtable.h). */
static const int col_fig[RP_COL__COUNT] = {
	-1, TP_RES_CPU_TIME, TP_RES_CORES, TP_RES_MAX_CONCURRENT_PROCESSES, TP_RES_MEMORY,
	TP_FIG_MEMORY_PSS, TP_RES_BYTES_READ, TP_RES_BYTES_WRITTEN, TP_RES_DISK,
	TP_RES_BYTES_SENT, TP_RES_BYTES_RECEIVED, TP_RES_GPU_MEMORY, TP_FIG_GPU_CORES,
};

static const char *col_name(int k)
{
	return col_fig[k] < 0 ? "wall_clock" : fig_info(col_fig[k])->series;
}

static int find_column(const char *header, const char *name)
{
	char *copy = xstrdup(header), *save = NULL, *tok;
	int i = 1, found = 0;

	for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save), i++)
		if (!strcmp(tok[0] == '#' ? tok + 1 : tok, name)) {
			found = i;
			break;
		}
	free(copy);
	return found;
}

/* The value of column @col (from 1) of @line into @v: false when it is
 * no number (tpmon writes nan for an unknown value). */
static bool col_value(const char *line, int col, double *v)
{
	const char *p = line;
	int i;

	for (i = 1; i < col && *p; i++) {
		p += strcspn(p, " \t");
		p += strspn(p, " \t");
	}
	return col > 0 && sscanf(p, "%lf", v) == 1 && isfinite(*v);
}

/* Raise @max to the value of column @col of @line; set @known when it is
 * a number. */
static void note_max(const char *line, int col, double *max, bool *known)
{
	double v;

	if (!col_value(line, col, &v))
		return;
	*known = true;
	if (v > *max)
		*max = v;
}

/* The CPU time per second that `tpmon plot`'s curve shows at this
 * line, by its rule (series.h, RP_RATE_SPAN), and its peak so far. */
static void note_cpu_rate(const char *line, struct rp_series *s)
{
	double t, v;

	if (!col_value(line, 1, &t) || !col_value(line, s->col[RP_COL_CPU], &v))
		return;
	if (!s->rate_started) {
		s->rate_started = true;
	} else if (t - s->rate_t >= RP_RATE_SPAN) {
		double r = (v - s->rate_v) / (t - s->rate_t);

		if (r > s->cpu_peak)
			s->cpu_peak = r;
	} else {
		return;
	}
	s->rate_t = t;
	s->rate_v = v;
}

/* One line of the series: the header, a sample after it, or a comment.
 * false at a sample whose time cannot be read (the file ends there). */
static bool series_line(const char *line, struct rp_series *s, bool *header)
{
	int k;

	if (!strncmp(line, "#wall_clock", 11)) {
		*header = true;
		for (k = 0; k < RP_COL__COUNT; k++)
			s->col[k] = find_column(line, col_name(k));
	} else if (line[0] != '#' && *header) {
		if (s->rows == 0 && sscanf(line, "%lf", &s->first) != 1)
			return false;
		if (sscanf(line, "%lf", &s->last) != 1)
			s->last = s->first;
		s->rows++;
		for (k = 0; k < RP_COL__COUNT; k++)
			note_max(line, s->col[k], &s->max[k], &s->known[k]);
		note_cpu_rate(line, s);
	}
	return true;
}

/* @path could not be opened (@why); where there is none, how to get one. */
static void no_series(const char *path, const char *why)
{
	size_t len = strlen(path);
	struct stat st;

	if (stat(path, &st) == 0 || errno != ENOENT || len < 8 ||
	    strcmp(path + len - 7, ".series"))
		error_msg("plot: cannot read %s: %s", path, why);
	else
		error_msg("plot: no %s: a series is written by tpmon --with-time-series "
			  "-O %.*s -- COMMAND", path, (int)(len - 7), path);
}

int rp_series_read(const char *path, struct rp_series *s)
{
	char why[256], *line;
	FILE *f = rp_infile_stream(path, why, sizeof(why));
	bool header = false;
	int r = 0;

	memset(s, 0, sizeof(*s));
	if (!f) {
		no_series(path, why);
		return -1;
	}
	line = xmalloc(RP_SERIES_LINE_MAX + 2);
	while (r == 0 && fgets(line, RP_SERIES_LINE_MAX + 2, f)) {
		size_t len = strlen(line);

		if (len == RP_SERIES_LINE_MAX + 1 && line[len - 1] != '\n') {
			error_msg("plot: %s: a line longer than %d kB: not a series", path,
				  RP_SERIES_LINE_MAX >> 10);
			r = -1;
		} else if (!series_line(line, s, &header)) {
			break;
		}
	}
	if (r == 0 && ferror(f)) {
		error_msg("plot: cannot read %s: %s", path, strerror(errno));
		r = -1;
	}
	free(line);
	fclose(f);
	if (r < 0)
		return -1;
	if (!header || !s->col[RP_COL_WALL] || !s->col[RP_COL_MEMORY] || !s->col[RP_COL_CPU]) {
		error_msg("plot: %s: no \"#wall_clock ...\" header naming the columns", path);
		return -1;
	}
	if (s->rows == 0) {
		error_msg("plot: %s: no samples", path);
		return -1;
	}
	return 0;
}

/* A number of the summary (the value of a [value, unit] pair), -1 if
 * none. */
static double num(const json_t *root, const char *key)
{
	const json_t *v = json_object_get(root, key);

	if (json_is_array(v))
		v = json_array_get(v, 0);
	return json_is_number(v) ? json_number_value(v) : -1;
}

/* @v ("%.4g") into @buf of 32 bytes; "?" when unknown (num() < 0). */
static const char *figure(char *buf, double v)
{
	if (v < 0)
		snprintf(buf, 32, "?");
	else
		snprintf(buf, 32, "%.4g", v);
	return buf;
}

/* Why the tree was stopped, from run->root, into run->why. */
static void stop_cause(struct rp_run *run)
{
	json_t *exceeded = json_object_get(run->root, "limits_exceeded");

	if (json_is_object(exceeded) && json_object_size(exceeded) > 0) {
		const char *key;
		json_t *v;

		json_object_foreach(exceeded, key, v) {
			char *name = safetext_clip(key, 24);

			snprintf(run->why, sizeof(run->why), "%s limit", name);
			free(name);
			break;
		}
	} else if (num(run->root, "monitor_signal") > 0) {
		snprintf(run->why, sizeof(run->why), "signal %d to tpmon",
			 (int)num(run->root, "monitor_signal"));
	} else if (num(run->root, "leftover_processes") > 0) {
		snprintf(run->why, sizeof(run->why), "main process ended, others left");
	}
}

/* The fields of run->root that the plot shows; the peak cores are those
 * of the curve of series @s (its cpu_peak), so that the title and the
 * curve agree. */
static void run_fields(struct rp_run *run, const struct rp_series *s)
{
	char f[5][32];
	const char *cmd;

	run->start = num(run->root, "start");
	run->wall = num(run->root, res_info(TP_RES_WALL_TIME)->name);
	run->stopped_at = num(run->root, "stopped_at");
	run->limits = json_object_get(run->root, "limits");
	if (!json_is_object(run->limits))
		run->limits = NULL;
	stop_cause(run);
	snprintf(run->figures, sizeof(run->figures),
		 "wall %s s, cpu %s s, peak %s cores, RSS %s MB, %s processes%s%s",
		 figure(f[0], run->wall), figure(f[1], num(run->root, res_info(TP_RES_CPU_TIME)->name)),
		 figure(f[2], s->cpu_peak),
		 figure(f[3], num(run->root, res_info(TP_RES_MEMORY)->name)),
		 figure(f[4], num(run->root, res_info(TP_RES_TOTAL_PROCESSES)->name)),
		 run->why[0] ? "; stopped: " : "", run->why);
	cmd = json_string_value(json_object_get(run->root, "command"));
	if (cmd)
		run->title = safetext_clip(cmd, 83);
}

void rp_run_read(const char *template, const struct rp_series *s, struct rp_run *run)
{
	static const char *const suffixes[] = { ".tpmon.json", ".summary" };
	bool skipped = false;
	size_t i;

	memset(run, 0, sizeof(*run));
	run->stopped_at = -1;
	for (i = 0; i < ARRAY_SIZE(suffixes) && !run->root; i++) {
		char *path = xasprintf("%s%s", template, suffixes[i]);

		if (access(path, F_OK) == 0 || errno != ENOENT) {
			char why[256];

			run->root = rp_summary_load(path, why, sizeof(why));
			if (!run->root) {
				char *p = safetext_clip(path, 480), *w = safetext_clip(why, 240);

				error_msg("plot: warning: skipping %s: %s", p, w);
				free(p);
				free(w);
				skipped = true;
			}
		}
		free(path);
	}
	if (run->root)
		run_fields(run, s);
	else if (!skipped)
		error_msg("plot: note: no summary for %s: no limits drawn", template);
}

void rp_run_free(struct rp_run *run)
{
	json_decref(run->root);
	free(run->title);
	run->root = NULL;
	run->title = NULL;
}

double rp_run_limit(const struct rp_run *run, const char *res)
{
	return run->limits ? num(run->limits, res) : -1;
}
