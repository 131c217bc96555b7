/* SPDX-License-Identifier: MIT */
/* plotcmd.c: `tpmon plot`, plot_main(): the options; the run's series and
 * summary read (read/series.c, through the report's bounded reader); the
 * panels' script (gnuplot/panels.c) run by gnuplot in a private temporary
 * directory; the picture then written to its place as any other output
 * (outfile.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/outfile.h"
#include "report/gnuplot/gnuplot.h"
#include "report/gnuplot/panels.h"
#include "report/plotcmd.h"
#include "report/read/series.h"
#include "basic/xmalloc.h"

#define PLOT_USAGE "usage: tpmon plot TEMPLATE [-o FILE.png|FILE.svg]\n"

/* Copy the picture gnuplot made to @out, created as every output is. */
static int publish(const struct gp *g, const char *made, const char *out)
{
	size_t len = 0;
	char *data = gp_picture(g, made, &len);
	int r;

	if (!data)
		return -1;
	r = outfile_write_named(out, data, len);
	if (r < 0)
		error_msg("plot: cannot write %s: %s", out, outfile_strerror(errno));
	free(data);
	return r;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Parse the command line; 0, or 2 after the usage. */
static int parse(int argc, char **argv, const char **template, const char **out)
{
	int i;

	*template = NULL;
	*out = NULL;
	for (i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc) {
			*out = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(PLOT_USAGE "Draws TEMPLATE.series (tpmon --with-time-series) as stacked panels\n"
			      "against time: memory, cores, processes, I/O rates, disk; declared\n"
			      "limits as dashed lines, the moment the task was stopped as a red\n"
			      "line.  FILE defaults to TEMPLATE.png; .svg gives SVG.  Reads\n"
			      "TEMPLATE.tpmon.series instead when it exists (cctools mode).  Needs\n"
			      "gnuplot.\n",
			      stdout);
			return 1;
		} else if (argv[i][0] == '-' || *template) {
			fputs(PLOT_USAGE, stderr);
			return 2;
		} else {
			*template = argv[i];
		}
	}
	if (!*template) {
		fputs(PLOT_USAGE, stderr);
		return 2;
	}
	return 0;
}

int plot_main(int argc, char **argv)
{
	const char *template, *out;
	char *series = NULL, *def_out = NULL, *made = NULL;
	struct gp g = { 0 };
	struct rp_series s;
	struct rp_run run;
	double t0, span;
	bool svg;
	int r = parse(argc, argv, &template, &out), status = 1;

	if (r)
		return r == 1 ? 0 : r;
	if (!out)
		out = def_out = xasprintf("%s.png", template);
	svg = ends_with(out, ".svg");
	if (!svg && !ends_with(out, ".png")) {
		error_msg("plot: %s: the output must end in .png or .svg", out);
		free(def_out);
		return 2;
	}
	/* in cctools mode TEMPLATE.series has cctools' columns; tpmon's
	 * own are in TEMPLATE.tpmon.series */
	series = xasprintf("%s.tpmon.series", template);
	if (access(series, F_OK) != 0) {
		free(series);
		series = xasprintf("%s.series", template);
	}
	memset(&run, 0, sizeof(run));
	if (rp_series_read(series, &s) < 0)
		goto out;
	rp_run_read(template, &s, &run);
	t0 = run.start > 0 ? run.start : s.first;
	if (gp_open(&g, "plot") < 0)
		goto out;
	made = gp_path(&g, svg ? "plot.svg" : "plot.png");
	/* the time axis holds every sample: the series' last line may come
	 * after the summary's end (a slow monitor's final sample; gnuplot
	 * failed on a panel whose only known point lay past the axis) */
	span = run.wall > 0 ? run.wall : 1;
	if (s.last - t0 > span)
		span = s.last - t0;
	rp_panels_script(g.script, made, svg, series, &s, &run, t0, span);
	if (gp_run(&g) == 0 && publish(&g, made, out) == 0)
		status = 0;
	gp_close(&g);
out:
	rp_run_free(&run);
	free(series);
	free(made);
	free(def_out);
	return status;
}
