/* SPDX-License-Identifier: MIT */
/* series.h: what `tpmon plot` reads of one run: the columns of its time
 * series (TEMPLATE.series, the header line "#wall_clock ..." naming them)
 * and what its summary says (declared limits, when and why the tree was
 * stopped), the summary read and checked as `tpmon report` reads one. */
#ifndef TPMON_REPORT_SERIES_H
#define TPMON_REPORT_SERIES_H

#include <jansson.h>
#include <stdbool.h>

/* The series columns the panels use. */
enum rp_col {
	RP_COL_WALL, RP_COL_CPU, RP_COL_CORES, RP_COL_PROCS, RP_COL_MEMORY, RP_COL_PSS,
	RP_COL_READ, RP_COL_WRITTEN, RP_COL_DISK,
	RP_COL_SENT, RP_COL_RECEIVED, RP_COL_GPU_MEMORY, RP_COL_GPU_CORES,	/* tpmon's own */
	RP_COL__COUNT
};

struct rp_series {
	int col[RP_COL__COUNT];		/* gnuplot column numbers, 0 if absent */
	double max[RP_COL__COUNT];	/* largest value of each column, at least 0 */
	bool known[RP_COL__COUNT];	/* a sample gives it a number (not nan) */
	double first, last;		/* times of the first and last samples */
	unsigned rows;
	/* the largest CPU time per second the plot's curve shows (over
	 * spans of at least RP_RATE_SPAN s), and where its rate stands */
	double cpu_peak;
	bool rate_started;
	double rate_t, rate_v;
};

/* The rate of a cumulative column (CPU time, bytes) that `tpmon plot`
 * draws: over spans of at least this many seconds since the last point
 * that ended one, held in between. */
#define RP_RATE_SPAN 0.25

/* The longest series line read, in bytes. */
#define RP_SERIES_LINE_MAX 65536

/* Read the series @path (a regular file, lines of at most
 * RP_SERIES_LINE_MAX bytes) into @s.  0, or -1 after a message when it
 * cannot be read or is no series (no header naming wall_clock, memory and
 * cpu_time; no sample). */
int rp_series_read(const char *path, struct rp_series *s);

/* What the summary says of the run. */
struct rp_run {
	double start;			/* s since the epoch, <= 0 if unknown */
	double wall;			/* s, <= 0 if unknown */
	double stopped_at;		/* s from the start, <0 never */
	char why[128];			/* the stop's cause, for its label
					 * (a limit's name: untrusted) */
	char *title;			/* the command, shown form, cut; owned */
	char figures[400];		/* the run in one line (untrusted) */
	json_t *limits;			/* borrowed from root, or NULL */
	json_t *root;			/* owned, NULL: no summary read */
};

/* The summary of the run TEMPLATE: TEMPLATE.tpmon.json (cctools mode,
 * which has every field), else TEMPLATE.summary, with the peak cores of
 * the curve of its series @s.  A file refused as
 * `tpmon report` refuses it (rp_summary_load()) is one warning line; a
 * run without a readable summary is still plotted, without limits (@run
 * then says nothing).  Free with rp_run_free(). */
void rp_run_read(const char *template, const struct rp_series *s, struct rp_run *run);
void rp_run_free(struct rp_run *run);

/* The declared limit of the resource @res, <0 when none. */
double rp_run_limit(const struct rp_run *run, const char *res);

#endif
