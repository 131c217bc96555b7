/* SPDX-License-Identifier: MIT */
/* panels.c: the gnuplot script of `tpmon plot` (panels.h), one panel per
 * entry of a table.  The summary's text reaches the script only as
 * gp_text() escapes, its numbers through gp_num(); the series is read by
 * gnuplot itself, by column number. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "basic/compat.h"
#include "basic/figtable.h"
#include "report/gnuplot/gnuplot.h"
#include "report/gnuplot/panels.h"
#include "basic/xmalloc.h"

/* When a panel, or its second curve, is drawn. */
enum when {
	ALWAYS,
	IF_NET,		/* the series has network figures */
	IF_GPU,		/* the series has GPU figures */
	IF_COLUMN,	/* the series has the curve's column */
	IF_KNOWN,	/* a sample gives the curve's column a number (tpmon
			 * writes nan for an unknown value: gnuplot refuses
			 * a panel with no number at all) */
};

struct curve {
	enum rp_col col;
	bool rate;		/* per second, of a cumulative column */
	const char *title;	/* NULL: no such curve */
	enum when when;
};

struct panel {
	const char *ylabel;
	struct curve a, b;
	int limit;		/* enum tp_res: the limit drawn, -1: none */
	const char *unit;	/* after the limit's value in the key */
	enum when when;
	bool count;		/* whole tics, a step of headroom on top */
};

/* Top to bottom; the first panel names the stop in its key, the last one
 * drawn carries the time axis. */
static const struct panel panels[] = {
	{ "memory (MB)", { RP_COL_MEMORY, false, "RSS (sum)", ALWAYS },
	  { RP_COL_PSS, false, "PSS (sum)", IF_COLUMN }, TP_RES_MEMORY, " MB", ALWAYS, false },
	{ "cores", { RP_COL_CPU, true, "CPU time per second", ALWAYS },
	  { RP_COL_GPU_CORES, false, "GPUs busy (SMs)", IF_GPU }, TP_RES_CORES, "", ALWAYS, false },
	{ "processes", { RP_COL_PROCS, false, "alive", ALWAYS }, { RP_COL_WALL, false, NULL, ALWAYS },
	  TP_RES_MAX_CONCURRENT_PROCESSES, "", ALWAYS, true },
	{ "I/O (MB/s)", { RP_COL_READ, true, "read", ALWAYS },
	  { RP_COL_WRITTEN, true, "written", ALWAYS }, -1, NULL, ALWAYS, false },
	{ "network (MB/s)", { RP_COL_RECEIVED, true, "received (TCP)", ALWAYS },
	  { RP_COL_SENT, true, "sent (TCP)", ALWAYS }, -1, NULL, IF_NET, false },
	{ "GPU memory (MB)", { RP_COL_GPU_MEMORY, false, "used by the tree", ALWAYS },
	  { RP_COL_WALL, false, NULL, ALWAYS }, TP_RES_GPU_MEMORY, " MB", IF_GPU, false },
	{ "disk (MB)", { RP_COL_DISK, false, "footprint", ALWAYS }, { RP_COL_WALL, false, NULL, ALWAYS },
	  TP_RES_DISK, " MB", IF_KNOWN, false },
};

/* What one script draws: the series, its x expression and the key's
 * text of the stop. */
struct frame {
	FILE *f;
	const char *series;
	const struct rp_series *s;
	const struct rp_run *run;
	char x[64];		/* the time axis, in the x unit */
	char xlabel[64];
	char stop[200];		/* "" when the tree was not stopped */
	int rates;		/* rate functions defined so far */
};

static bool shown(const struct frame *fr, enum when w, enum rp_col col)
{
	const struct rp_series *s = fr->s;

	switch (w) {
	case IF_NET:
		return fmax(s->max[RP_COL_SENT], s->max[RP_COL_RECEIVED]) > 0;
	case IF_GPU:
		return fmax(s->max[RP_COL_GPU_MEMORY], s->max[RP_COL_GPU_CORES]) > 0;
	case IF_COLUMN:
		return s->col[col] > 0;
	case IF_KNOWN:
		return s->known[col];
	default:
		return true;
	}
}

/* A whole tic step giving about 5 tics up to @max. */
static double tics_step(double max)
{
	static const double grow[] = { 2, 2.5, 2 };	/* 1, 2, 5, 10, 20, 50 ... */
	double step = 1;
	unsigned i = 0;

	while (max / step > 6)
		step *= grow[i++ % 3];
	return step;
}

/* The time axis: seconds, minutes or hours, whichever reads best. */
static void time_unit(double span, double *div, const char **name)
{
	*div = span > 3 * 3600 ? 3600 : span > 300 ? 60 : 1;
	*name = *div == 3600 ? "hours" : *div == 60 ? "minutes" : "seconds";
}

static const char *const style =
	"set style line 1 lc rgb '#1f77b4' lw 2\n"	/* blue: main figure */
	"set style line 2 lc rgb '#ff7f0e' lw 2\n"	/* orange: second figure */
	"set style line 3 lc rgb '#d62728' lw 1.5 dt 2\n"	/* red dashed: a limit */
	"set style line 9 lc rgb '#dddddd' lw 1\n"
	"set grid xtics ytics ls 9\n"
	"set border 3 lc rgb '#555555'\n"
	"set tics nomirror out scale 0.5\n"
	"set key at screen 0.775, graph 1 left top vertical Left reverse samplen 2 spacing 1.1 font ',9'\n"
	"set yrange [0:1<*]\n"	/* at least 0-1: no warning for a panel of zeros */

	"set datafile missing 'nan'\n";

/* The rate of a cumulative column over spans of at least RP_RATE_SPAN s
 * (series.h: the first samples come 10 ms apart, and CPU time in 10 ms
 * ticks; the title's peak cores is this curve's, computed by the reader),
 * held between two spans: rate(N, t, v) in the script, state in
 * variables suffixed N. */

/* Define rate@n(t, v) in the script: the rate of a cumulative column
 * since the last point at least RP_RATE_SPAN s before, held in between. */
static void define_rate(FILE *f, int n)
{
	fprintf(f, "pt%d = 0; pv%d = 0; r%d = 0; first%d = 1\n", n, n, n, n);
	fprintf(f, "rate%d(t, v) = (first%d || t - pt%d >= %g) ? "
		"(r%d = first%d ? 0 : (v - pv%d) / (t - pt%d), first%d = 0, pt%d = t, pv%d = v, r%d) : r%d\n",
		n, n, n, RP_RATE_SPAN, n, n, n, n, n, n, n, n, n);
}

/* The using expression of curve @c into @buf (a rate defined first). */
static void curve_using(struct frame *fr, const struct curve *c, char *buf, size_t len)
{
	int col = fr->s->col[c->col];

	if (c->rate) {
		define_rate(fr->f, ++fr->rates);
		snprintf(buf, len, "(%s):(rate%d($1, $%d))", fr->x, fr->rates, col);
	} else {
		snprintf(buf, len, "(%s):%d", fr->x, col);
	}
}

/* Panel @p: its curves, its limit, the stop when @first, the time axis
 * when @last. */
static void panel_plot(struct frame *fr, const struct panel *p, bool first, bool last)
{
	FILE *f = fr->f;
	bool b = p->b.title && shown(fr, p->b.when, p->b.col);
	char ua[160], ub[160];
	double lim = p->limit >= 0 ? rp_run_limit(fr->run, res_info(p->limit)->name) : -1;

	curve_using(fr, &p->a, ua, sizeof(ua));
	if (b)
		curve_using(fr, &p->b, ub, sizeof(ub));
	if (p->count) {
		double top = fmax(fr->s->max[p->a.col], lim), step = tics_step(top);

		/* whole tics, and a step of headroom above the highest */
		fprintf(f, "set ytics %g\nset yrange [0:%g]\n", step, (floor(top / step) + 1) * step);
	}
	fputs("set ylabel ", f);
	gp_text(f, p->ylabel);
	if (last) {
		fputs("\nset xlabel ", f);
		gp_text(f, fr->xlabel);
		fputs("\nset format x '%g'\n", f);
	} else {
		fputs("\nunset xlabel\nset format x ''\n", f);
	}
	fputs("plot ", f);
	gp_file(f, fr->series);
	fprintf(f, " using %s with lines ls 1 title ", ua);
	gp_text(f, p->a.title);
	if (b) {
		fputs(", ", f);
		gp_file(f, fr->series);
		fprintf(f, " using %s with lines ls 2 title ", ub);
		gp_text(f, p->b.title);
	}
	if (lim >= 0) {
		char *text = xasprintf("limit %g%s", lim, p->unit);

		fputs(", ", f);
		gp_num(f, lim);
		fputs(" with lines ls 3 title ", f);
		gp_text(f, text);
		free(text);
	}
	if (first && fr->stop[0]) {
		/* the stop is the red vertical line: name it in the key */
		fputs(", NaN with lines lc rgb '#d62728' lw 2 title ", f);
		gp_text(f, fr->stop);
	}
	fputc('\n', f);
	if (p->count)
		fputs("set ytics autofreq\nset yrange [0:1<*]\n", f);
}

/* The terminal, the style, the time axis, the stop's line and the title
 * over all panels, for @npanels panels. */
static void frame_open(struct frame *fr, const char *out, bool svg, double t0, double span,
		       int npanels)
{
	FILE *f = fr->f;
	const struct rp_run *run = fr->run;
	int height = 150 + 200 * npanels;
	const char *unit;
	double div;

	time_unit(span, &div, &unit);
	/* the start and the span come from the summary: numbers, via gp_num() */
	fputs("t0 = ", f);
	gp_num(f, t0);
	fprintf(f, "\nx_div = %g\n", div);
	snprintf(fr->x, sizeof(fr->x), "($%d - t0) / x_div", fr->s->col[RP_COL_WALL]);
	snprintf(fr->xlabel, sizeof(fr->xlabel), "time since the start (%s)", unit);
	if (svg)
		fprintf(f, "set terminal svg noenhanced size 1100,%d dynamic font 'sans,11' background '#ffffff'\n", height);
	else
		fprintf(f, "set terminal pngcairo noenhanced size 1100,%d font 'sans,10' background '#ffffff'\n", height);
	fputs("set output ", f);
	gp_file(f, out);
	fputc('\n', f);
	fputs(style, f);
	fputs("set xrange [0:", f);
	gp_num(f, span * 1.01 / div);
	fputs("]\n", f);
	if (run->stopped_at >= 0) {
		/* the moment the tree was stopped, on every panel */
		fputs("stop_x = ", f);
		gp_num(f, run->stopped_at / div);
		fputs("\nset arrow 1 from stop_x, graph 0 to stop_x, graph 1 nohead lc rgb '#d62728' lw 2\n", f);
		snprintf(fr->stop, sizeof(fr->stop), "stopped at %.4g s: %s", run->stopped_at,
			 run->why[0] ? run->why : "by tpmon");
	}
	fprintf(f, "set multiplot layout %d,1 margins 0.075,0.76,%.3f,%.3f spacing 0,%.3f title ",
		npanels, 60.0 / height, 1 - 90.0 / height, 29.0 / height);
	gp_text(f, run->title ? run->title : "tpmon");
	if (run->figures[0]) {
		fputs(" . \"\\n\" . ", f);
		gp_text(f, run->figures);
	}
	fputs(" font ',12'\n", f);
}

void rp_panels_script(FILE *f, const char *out, bool svg, const char *series,
		      const struct rp_series *s, const struct rp_run *run, double t0,
		      double span)
{
	struct frame fr = { .f = f, .series = series, .s = s, .run = run };
	size_t i, last = 0;
	int n = 0;

	for (i = 0; i < ARRAY_SIZE(panels); i++)
		if (shown(&fr, panels[i].when, panels[i].a.col)) {
			n++;
			last = i;
		}
	frame_open(&fr, out, svg, t0, span, n);
	for (i = 0; i < ARRAY_SIZE(panels); i++)
		if (shown(&fr, panels[i].when, panels[i].a.col))
			panel_plot(&fr, &panels[i], i == 0, i == last);
	fputs("unset multiplot\n", f);
}
