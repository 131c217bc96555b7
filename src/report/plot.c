/* SPDX-License-Identifier: MIT */
/* plot.c: `tpmon plot`.  Reads the column names of TEMPLATE.series (the
 * header line "#wall_clock ...") and the run's summary (declared limits,
 * when and why the tree was stopped), writes a gnuplot script that draws
 * stacked panels against the time since the start, and runs gnuplot on
 * it (gnuplot.c: the summary's text reaches the script only as gp_text()
 * escapes).  gnuplot writes into a private temporary directory; the
 * picture is then written to its place as any other output (outfile.c). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compat.h"
#include "error.h"
#include "outfile.h"
#include "report/gnuplot.h"
#include "report/plot.h"
#include "safetext.h"
#include "xmalloc.h"

#define PLOT_USAGE "usage: tpmon plot TEMPLATE [-o FILE.png|FILE.svg]\n"

/* Series columns the panels use (gnuplot column numbers, 0 if absent). */
struct columns {
	int wall, cpu, cores, procs, memory, pss, read, written, disk;
	int sent, received, gpu_memory, gpu_cores;	/* tpmon's own columns */
	double procs_max;		/* largest value of the procs column */
	double net_max, gpu_max;	/* largest network and GPU figures: a
					 * panel only for what was measured */
};

/* What the summary says of the run. */
struct run {
	double start;			/* s since the epoch, 0 if unknown */
	double wall;			/* s, 0 if unknown */
	double stopped_at;		/* s from the start, <0 never */
	char why[128];			/* the stop's cause, for its label
					 * (a limit's name: untrusted) */
	char *title;			/* the command, shown form, cut */
	char figures[400];		/* the run in one line (untrusted) */
	json_t *limits;			/* borrowed from root, or NULL */
	json_t *root;
};

static int find_column(char *header, const char *name)
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

/* Raise @max to the value of column @col of @line. */
static void note_max(const char *line, int col, double *max)
{
	const char *p = line;
	int i;
	double v;

	for (i = 1; i < col && *p; i++) {
		p += strcspn(p, " \t");
		p += strspn(p, " \t");
	}
	if (col > 0 && sscanf(p, "%lf", &v) == 1 && v > *max)
		*max = v;
}

/* What a run's files may cost: a series line, a summary. */
#define PLOT_LINE_MAX 65536
#define PLOT_SUMMARY_MAX (8 << 20)

/* @path open for reading if it is a regular file (no wait on a FIFO) of
 * at most @max bytes (0: any size); else NULL with errno set (EINVAL:
 * not a regular file, EFBIG: too large). */
static FILE *open_regular(const char *path, off_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat sb;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || (max > 0 && sb.st_size > max)) {
		int err = errno;

		if (fstat(fd, &sb) == 0)
			err = !S_ISREG(sb.st_mode) ? EINVAL : EFBIG;
		close(fd);
		errno = err;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

/* The columns named by the header; the times of the first and last
 * samples.
 * -1 after a message when the file is no series. */
static int read_series(const char *path, struct columns *c, double *first, double *last,
		       unsigned *nrows)
{
	FILE *f = open_regular(path, 0);
	char *line;
	bool header = false;

	memset(c, 0, sizeof(*c));
	*nrows = 0;
	if (!f) {
		if (errno == EINVAL)
			error_msg("plot: cannot read %s: not a regular file", path);
		else
			perror_msg("plot: cannot read %s", path);
		return -1;
	}
	line = xmalloc(PLOT_LINE_MAX + 2);
	while (fgets(line, PLOT_LINE_MAX + 2, f)) {
		size_t len = strlen(line);

		if (len == PLOT_LINE_MAX + 1 && line[len - 1] != '\n') {
			error_msg("plot: %s: a line longer than %d kB: not a series", path,
				  PLOT_LINE_MAX >> 10);
			free(line);
			fclose(f);
			return -1;
		}
		if (!strncmp(line, "#wall_clock", 11)) {
			header = true;
			c->wall = find_column(line, "wall_clock");
			c->cores = find_column(line, "cores");
			c->cpu = find_column(line, "cpu_time");
			c->procs = find_column(line, "max_concurrent_processes");
			c->memory = find_column(line, "memory");
			c->pss = find_column(line, "memory_pss");
			c->read = find_column(line, "bytes_read");
			c->written = find_column(line, "bytes_written");
			c->disk = find_column(line, "disk");
			c->sent = find_column(line, "bytes_sent");
			c->received = find_column(line, "bytes_received");
			c->gpu_memory = find_column(line, "gpu_memory");
			c->gpu_cores = find_column(line, "gpu_cores");
		} else if (line[0] != '#' && header) {
			if (*nrows == 0 && sscanf(line, "%lf", first) != 1)
				break;
			if (sscanf(line, "%lf", last) != 1)
				*last = *first;
			(*nrows)++;
			note_max(line, c->procs, &c->procs_max);
			note_max(line, c->sent, &c->net_max);
			note_max(line, c->received, &c->net_max);
			note_max(line, c->gpu_memory, &c->gpu_max);
			note_max(line, c->gpu_cores, &c->gpu_max);
		}
	}
	free(line);
	fclose(f);
	if (!header || !c->wall || !c->memory || !c->cpu) {
		error_msg("plot: %s: no \"#wall_clock ...\" header naming the columns", path);
		return -1;
	}
	if (*nrows == 0) {
		error_msg("plot: %s: no samples", path);
		return -1;
	}
	return 0;
}

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

/* The summary, or in cctools mode TEMPLATE.tpmon.json, which has every
 * field.  A run without one is still plotted, without limits. */
static void read_summary(const char *template, struct run *run)
{
	const char *suffixes[] = { ".tpmon.json", ".summary" };
	json_t *exceeded;
	const char *cmd;
	size_t i;

	memset(run, 0, sizeof(*run));
	run->stopped_at = -1;
	for (i = 0; i < ARRAY_SIZE(suffixes) && !run->root; i++) {
		char *path = xasprintf("%s%s", template, suffixes[i]);
		FILE *f = open_regular(path, PLOT_SUMMARY_MAX);

		if (f) {
			run->root = json_loadf(f, 0, NULL);
			fclose(f);
		} else if (errno == EINVAL || errno == EFBIG) {
			error_msg("plot: note: %s is %s: not read", path,
				  errno == EINVAL ? "not a regular file" : "larger than 8 MB");
		}
		free(path);
	}
	if (!run->root) {
		error_msg("plot: note: no summary for %s: no limits drawn", template);
		return;
	}
	run->start = num(run->root, "start");
	run->wall = num(run->root, "wall_time");
	run->stopped_at = num(run->root, "stopped_at");
	run->limits = json_object_get(run->root, "limits");
	if (!json_is_object(run->limits))
		run->limits = NULL;
	exceeded = json_object_get(run->root, "limits_exceeded");
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
	{
		char f[5][32];

		snprintf(run->figures, sizeof(run->figures),
			 "wall %s s, cpu %s s, peak %s cores, RSS %s MB, %s processes%s%s",
			 figure(f[0], run->wall), figure(f[1], num(run->root, "cpu_time")),
			 figure(f[2], num(run->root, "cores")),
			 figure(f[3], num(run->root, "memory")),
			 figure(f[4], num(run->root, "total_processes")),
			 run->why[0] ? "; stopped: " : "", run->why);
	}
	cmd = json_string_value(json_object_get(run->root, "command"));
	if (cmd)
		run->title = safetext_clip(cmd, 83);
}

static double limit(const struct run *run, const char *res)
{
	return run->limits ? num(run->limits, res) : -1;
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

/* One panel: @using_a (and @using_b) from the series, with their titles;
 * @lim >= 0 draws a declared limit; @stop names the stop in the key. */
static void panel(FILE *f, const char *ylabel, const char *series, const char *using_a,
		  const char *title_a, const char *using_b, const char *title_b,
		  double lim, const char *lim_text, bool last, const char *xlabel, const char *stop)
{
	fputs("set ylabel ", f);
	gp_text(f, ylabel);
	if (last) {
		fputs("\nset xlabel ", f);
		gp_text(f, xlabel);
		fputs("\nset format x '%g'\n", f);
	} else {
		fputs("\nunset xlabel\nset format x ''\n", f);
	}
	fputs("plot ", f);
	gp_file(f, series);
	fprintf(f, " using %s with lines ls 1 title ", using_a);
	gp_text(f, title_a);
	if (using_b) {
		fputs(", ", f);
		gp_file(f, series);
		fprintf(f, " using %s with lines ls 2 title ", using_b);
		gp_text(f, title_b);
	}
	if (lim >= 0) {
		char *text;

		fputs(", ", f);
		gp_num(f, lim);
		fputs(" with lines ls 3 title ", f);
		text = xasprintf("limit %s", lim_text);
		gp_text(f, text);
		free(text);
	}
	if (stop) {
		/* the stop is the red vertical line: name it in the key */
		fputs(", NaN with lines lc rgb '#d62728' lw 2 title ", f);
		gp_text(f, stop);
	}
	fputc('\n', f);
}

/* The rate of a cumulative column over spans of at least RATE_SPAN s (the
 * first samples come 10 ms apart, and CPU time in 10 ms ticks), held
 * between two spans: rate(N, t, v) in the script, state in variables
 * suffixed N. */
#define RATE_SPAN 0.25

/* Define rate@n(t, v) in the script: the rate of a cumulative column
 * since the last point at least RATE_SPAN s before, held in between. */
static void define_rate(FILE *f, int n)
{
	fprintf(f, "pt%d = 0; pv%d = 0; r%d = 0; first%d = 1\n", n, n, n, n);
	fprintf(f, "rate%d(t, v) = (first%d || t - pt%d >= %g) ? "
		"(r%d = first%d ? 0 : (v - pv%d) / (t - pt%d), first%d = 0, pt%d = t, pv%d = v, r%d) : r%d\n",
		n, n, n, RATE_SPAN, n, n, n, n, n, n, n, n, n);
}

static void rate_using(char *buf, size_t len, int n, const char *x, int col)
{
	snprintf(buf, len, "(%s):(rate%d($1, $%d))", x, n, col);
}

static void write_script(FILE *f, const char *out, bool svg, const char *series,
			 const struct columns *c, const struct run *run, double t0, double span)
{
	double div;
	const char *unit;
	char x[64], use[160], use2[160], xlabel[64], text[64];
	char ra[160], rb[160], stop[200];
	double lim;

	bool net = c->net_max > 0, gpu = c->gpu_max > 0;
	int panels = 5 + net + gpu, height = 150 + 200 * panels;

	time_unit(span, &div, &unit);
	/* the start and the span come from the summary: numbers, via gp_num() */
	fputs("t0 = ", f);
	gp_num(f, t0);
	fprintf(f, "\nx_div = %g\n", div);
	snprintf(x, sizeof(x), "($%d - t0) / x_div", c->wall);
	snprintf(xlabel, sizeof(xlabel), "time since the start (%s)", unit);
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
	}
	fprintf(f, "set multiplot layout %d,1 margins 0.075,0.76,%.3f,%.3f spacing 0,%.3f title ", panels,
		60.0 / height, 1 - 90.0 / height, 29.0 / height);
	gp_text(f, run->title ? run->title : "tpmon");
	if (run->figures[0]) {
		fputs(" . \"\\n\" . ", f);
		gp_text(f, run->figures);
	}
	fputs(" font ',12'\n", f);
	/* memory */
	snprintf(use, sizeof(use), "(%s):%d", x, c->memory);
	snprintf(use2, sizeof(use2), "(%s):%d", x, c->pss);
	lim = limit(run, "memory");
	snprintf(text, sizeof(text), "%g MB", lim);
	if (run->stopped_at >= 0)
		snprintf(stop, sizeof(stop), "stopped at %.4g s: %s", run->stopped_at,
			 run->why[0] ? run->why : "by tpmon");
	panel(f, "memory (MB)", series, use, "RSS (sum)", c->pss ? use2 : NULL, "PSS (sum)", lim, text,
	      false, xlabel, run->stopped_at >= 0 ? stop : NULL);
	/* cores: CPU time per second */
	define_rate(f, 1);
	rate_using(use, sizeof(use), 1, x, c->cpu);
	snprintf(use2, sizeof(use2), "(%s):%d", x, c->gpu_cores);
	lim = limit(run, "cores");
	snprintf(text, sizeof(text), "%g", lim);
	panel(f, "cores", series, use, "CPU time per second", gpu ? use2 : NULL, "GPUs busy (SMs)",
	      lim, text, false, xlabel, NULL);
	/* processes */
	snprintf(use, sizeof(use), "(%s):%d", x, c->procs);
	lim = limit(run, "max_concurrent_processes");
	snprintf(text, sizeof(text), "%g", lim);
	{
		double top = c->procs_max > lim ? c->procs_max : lim, step = tics_step(top);

		/* whole tics, and a step of headroom above the highest */
		fprintf(f, "set ytics %g\nset yrange [0:%g]\n", step, (floor(top / step) + 1) * step);
	}
	panel(f, "processes", series, use, "alive", NULL, NULL, lim, text, false, xlabel, NULL);
	fputs("set ytics autofreq\nset yrange [0:1<*]\n", f);
	/* I/O rates */
	define_rate(f, 2);
	define_rate(f, 3);
	rate_using(ra, sizeof(ra), 2, x, c->read);
	rate_using(rb, sizeof(rb), 3, x, c->written);
	panel(f, "I/O (MB/s)", series, ra, "read", rb, "written", -1, NULL, false, xlabel, NULL);
	if (net) {
		define_rate(f, 4);
		define_rate(f, 5);
		rate_using(ra, sizeof(ra), 4, x, c->received);
		rate_using(rb, sizeof(rb), 5, x, c->sent);
		panel(f, "network (MB/s)", series, ra, "received (TCP)", rb, "sent (TCP)", -1, NULL,
		      false, xlabel, NULL);
	}
	if (gpu) {
		snprintf(use, sizeof(use), "(%s):%d", x, c->gpu_memory);
		lim = limit(run, "gpu_memory");
		snprintf(text, sizeof(text), "%g MB", lim);
		panel(f, "GPU memory (MB)", series, use, "used by the tree", NULL, NULL, lim, text,
		      false, xlabel, NULL);
	}
	/* disk */
	snprintf(use, sizeof(use), "(%s):%d", x, c->disk);
	lim = limit(run, "disk");
	snprintf(text, sizeof(text), "%g MB", lim);
	panel(f, "disk (MB)", series, use, "footprint", NULL, NULL, lim, text, true, xlabel, NULL);
	fputs("unset multiplot\n", f);
}

/* Copy the picture gnuplot made to @out, created as every output is. */
static int publish(const char *made, const char *out)
{
	FILE *f = fopen(made, "re");
	char *data = NULL;
	size_t len = 0, cap = 0, n;
	int r;

	if (!f) {
		error_msg("plot: gnuplot wrote no picture");
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			data = xreallocarray(data, cap, 1);
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	r = len > 0 ? outfile_write(out, data, len) : -1;
	if (r < 0)
		error_msg("plot: cannot write %s: %s", out, len ? strerror(errno) : "empty picture");
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
	struct columns c;
	struct run run;
	double first = 0, last = 0, t0;
	unsigned rows;
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
	if (read_series(series, &c, &first, &last, &rows) < 0)
		goto out;
	read_summary(template, &run);
	t0 = run.start > 0 ? run.start : first;
	if (gp_open(&g, "plot") < 0)
		goto out;
	made = gp_path(&g, svg ? "plot.svg" : "plot.png");
	write_script(g.script, made, svg, series, &c, &run, t0,
		     run.wall > 0 ? run.wall : last - t0 > 0 ? last - t0 : 1);
	if (gp_run(&g) == 0 && publish(made, out) == 0)
		status = 0;
	gp_close(&g);
out:
	json_decref(run.root);
	free(run.title);
	free(series);
	free(made);
	free(def_out);
	return status;
}
