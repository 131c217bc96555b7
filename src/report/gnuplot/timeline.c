/* SPDX-License-Identifier: MIT */
/* timeline.c: `tpmon report --timeline`: the bars' layout, the data files
 * and the gnuplot script of the workflow's timeline.
 * Hosts and group names are untrusted: they reach the script only
 * through gp_text(); the data files hold numbers only. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "basic/outfile.h"
#include "basic/messages.h"
#include "report/gnuplot/gnuplot.h"
#include "report/write/output.h"
#include "report/sizing/sizing.h"
#include "report/gnuplot/timeline.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

/* Colours of the groups: with more than KEY_MAX groups, the KEY_MAX - 1
 * that ran longest get one each and the others share OTHER ("other" in
 * the key); the key names each by its label (labels.h). */
static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#17becf", "#1f77b4", "#8c564b",
};
#define OTHER "#c8c8c8"
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))
#define KEY_MAX 12
/* Host labels shown at most (every k-th beyond). */
#define LABELS_MAX 40
/* Longest host name shown, in bytes of its shown form. */
#define HOST_MAX_SHOWN 20

static int by_host_start(const void *a, const void *b)
{
	const struct rp_tl_bar *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	if (c)
		return c;
	if (x->t0 != y->t0)
		return (x->t0 > y->t0) - (x->t0 < y->t0);
	return (x->task > y->task) - (x->task < y->task);
}

int rp_timeline_layout(struct rp_tl_layout *l, const struct rp_store *st,
		       const struct rp_group *g, size_t ng)
{
	double *lane_end = NULL, base = 0;
	size_t i, j, nlanes = 0, cap = 0;

	memset(l, 0, sizeof(*l));
	l->b = xreallocarray(NULL, st->n ? st->n : 1, sizeof(*l->b));
	l->start = INFINITY;
	for (i = 0; i < ng; i++)
		for (j = 0; j < g[i].n; j++) {
			const struct rp_task *t = &st->tasks[g[i].idx[j]];

			if (!isfinite(t->started) || !isfinite(t->ended) || t->ended < t->started)
				continue;
			l->b[l->n].task = g[i].idx[j];
			l->b[l->n].group = i;
			l->b[l->n].host = t->host ? t->host : "";
			l->b[l->n].t0 = t->started;
			l->b[l->n].t1 = t->ended;
			l->n++;
			if (t->started < l->start)
				l->start = t->started;
		}
	if (l->n == 0) {
		free(l->b);
		l->b = NULL;
		return 1;
	}
	for (i = 0; i < l->n; i++) {
		l->b[i].t0 -= l->start;
		l->b[i].t1 -= l->start;
		if (l->b[i].t1 > l->span)
			l->span = l->b[i].t1;
	}
	qsort(l->b, l->n, sizeof(*l->b), by_host_start);
	for (i = 0; i < l->n; i++) {
		size_t lane;

		if (i == 0 || strcmp(l->b[i].host, l->b[i - 1].host) != 0) {
			if (i > 0)
				base += (double)nlanes + 0.5;
			nlanes = 0;
			l->nhosts++;
		}
		for (lane = 0; lane < nlanes && lane_end[lane] > l->b[i].t0; lane++)
			;
		if (lane == nlanes) {
			if (nlanes == cap) {
				cap = cap ? 2 * cap : 16;
				lane_end = xreallocarray(lane_end, cap, sizeof(double));
			}
			nlanes++;
		}
		lane_end[lane] = l->b[i].t1;
		l->b[i].y = base + (double)lane;
	}
	l->rows = base + (double)nlanes;
	free(lane_end);
	return 0;
}

/* Seconds, minutes or hours, whichever reads best over @span. */
static double time_unit(double span, const char **name)
{
	if (span >= 3 * 3600) {
		*name = "h";
		return 3600;
	}
	if (span >= 180) {
		*name = "min";
		return 60;
	}
	*name = "s";
	return 1;
}

/* bars.dat: centre, row, half width, half height, colour; failed.dat and
 * stopped.dat: where such a task ended.  Numbers only. */
static int write_bars(const struct gp *gp, const struct rp_tl_layout *l,
		      const struct rp_store *st, double unit, char *paths[3], size_t marks[2],
		      const int *slot)
{
	FILE *f[3];
	size_t i;
	int k, r = 0;
	double minw = l->span / unit / 1500;

	f[0] = gp_data_open(gp, "bars.dat", &paths[0]);
	f[1] = gp_data_open(gp, "failed.dat", &paths[1]);
	f[2] = gp_data_open(gp, "stopped.dat", &paths[2]);
	for (i = 0; f[0] && f[1] && f[2] && i < l->n; i++) {
		const struct rp_tl_bar *b = &l->b[i];
		const struct rp_task *t = &st->tasks[b->task];
		double x0 = b->t0 / unit, x1 = b->t1 / unit, hw = fmax((x1 - x0) / 2, minw);
		int sl = slot[b->group];
		unsigned long rgb = strtoul((sl >= 0 ? palette[sl] : OTHER) + 1, NULL, 16);

		fprintf(f[0], "%.9g %.9g %.9g 0.38 %lu\n", (x0 + x1) / 2, b->y, hw, rgb);
		if (t->end == RP_FAILED)
			fprintf(f[1], "%.9g %.9g\n", x1, b->y), marks[0]++;
		else if (t->end == RP_EXHAUSTED)
			fprintf(f[2], "%.9g %.9g\n", x1, b->y), marks[1]++;
	}
	/* gnuplot refuses a file without a point: one outside the range */
	for (k = 1; k < 3; k++)
		if (f[k])
			fprintf(f[k], "-1e30 -1e30\n");
	for (k = 0; k < 3; k++)
		if (gp_data_close(gp, f[k], paths[k]) < 0)
			r = -1;
	return r;
}

struct event {
	double t;
	double d_tasks, d_cores, d_mem;
};

static int by_time(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->t != y->t)
		return (x->t > y->t) - (x->t < y->t);
	/* ends before starts at the same instant */
	return (x->d_tasks > y->d_tasks) - (x->d_tasks < y->d_tasks);
}

/* A task's cores for the sum: its mean (CPU time over wall time), else
 * its cores figure. */
static double mean_cores(const struct rp_task *t)
{
	if (t->v[RP_WALL_TIME] > 0 && !isnan(t->v[RP_CPU_TIME]))
		return t->v[RP_CPU_TIME] / t->v[RP_WALL_TIME];
	return isnan(t->v[RP_CORES]) ? 0 : t->v[RP_CORES];
}

/* load.dat: time, running tasks, summed cores, summed memory (MB), a line
 * at each start or end (drawn as steps).  The largest memory in *@mem_max. */
static int write_load(const struct gp *gp, const struct rp_tl_layout *l,
		      const struct rp_store *st, double unit, char **path,
		      double *mem_max, double *busy_max)
{
	struct event *e = xreallocarray(NULL, 2 * l->n, sizeof(*e));
	double tasks = 0, cores = 0, mem = 0;
	size_t i, n = 0;
	FILE *f = gp_data_open(gp, "load.dat", path);

	*mem_max = 0;
	*busy_max = 0;
	for (i = 0; i < l->n; i++) {
		const struct rp_task *t = &st->tasks[l->b[i].task];
		double c = mean_cores(t), m = isnan(t->v[RP_MEMORY]) ? 0 : t->v[RP_MEMORY];

		e[n++] = (struct event){ l->b[i].t0, 1, c, m };
		e[n++] = (struct event){ l->b[i].t1, -1, -c, -m };
	}
	qsort(e, n, sizeof(*e), by_time);
	if (f)
		fprintf(f, "0 0 0 0\n");
	for (i = 0; f && i < n; i++) {
		tasks += e[i].d_tasks;
		cores += e[i].d_cores;
		mem += e[i].d_mem;
		/* sums of many small steps: no -0.0000001 */
		if (cores < 1e-9)
			cores = 0;
		if (mem < 1e-9)
			mem = 0;
		if (i + 1 < n && e[i + 1].t == e[i].t)
			continue;
		fprintf(f, "%.9g %.0f %.6g %.6g\n", e[i].t / unit, tasks, cores, mem);
		*mem_max = fmax(*mem_max, mem);
		*busy_max = fmax(*busy_max, fmax(tasks, cores));
	}
	free(e);
	return gp_data_close(gp, f, *path);
}

/* A host or group name as shown in the picture, newly allocated. */
static char *safetext_clip_or_unknown(const char *s)
{
	return s[0] ? safetext_clip(s, HOST_MAX_SHOWN) : xstrdup("(host unknown)");
}

/* The length of the longest host label shown. */
static size_t longest_label(const struct rp_tl_layout *l)
{
	size_t i, best = 0;

	for (i = 0; i < l->n; i++)
		if (i == 0 || strcmp(l->b[i].host, l->b[i - 1].host) != 0) {
			char *name = safetext_clip_or_unknown(l->b[i].host);

			best = strlen(name) > best ? strlen(name) : best;
			free(name);
		}
	return best;
}

/* The y tics: each host's name (shown form, cut) at the middle of its
 * lanes, every k-th when there are many. */
static void host_tics(FILE *s, const struct rp_tl_layout *l)
{
	size_t i, first = 0, h = 0, every = l->nhosts / LABELS_MAX + 1;
	bool any = false;

	fputs("set ytics scale 0 (", s);
	for (i = 1; i <= l->n; i++) {
		if (i < l->n && strcmp(l->b[i].host, l->b[first].host) == 0)
			continue;
		if (h++ % every == 0) {
			double lo = l->b[first].y, hi = lo;
			char *name = safetext_clip_or_unknown(l->b[first].host);
			size_t j;

			for (j = first; j < i; j++)
				hi = fmax(hi, l->b[j].y);
			if (any)
				fputs(", ", s);
			gp_text(s, name);
			fputc(' ', s);
			gp_num(s, (lo + hi) / 2);
			any = true;
			free(name);
		}
		first = i;
	}
	fputs(")\n", s);
}

/* A faint line between two hosts' rows. */
static void host_lines(FILE *s, const struct rp_tl_layout *l)
{
	size_t i;

	fputs("unset arrow\n", s);
	for (i = 1; i < l->n && l->nhosts <= 200; i++)
		if (strcmp(l->b[i].host, l->b[i - 1].host) != 0) {
			double y = l->b[i].y - 0.75;

			fprintf(s, "set arrow from graph 0, first %.9g to graph 1, first %.9g "
				"nohead lc rgb '#bbbbbb' lw 1 back\n", y, y);
		}
}

struct ranked {
	size_t group;
	double time;
};

static int by_time_spent(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? 1 : -1;
	return (x->group > y->group) - (x->group < y->group);
}

/* The colour slot of each of the @ng groups: the groups with bars ranked
 * by their bars' summed time, the first KEY_MAX (all, when there are no
 * more) or KEY_MAX - 1 (when there are) slots 0, 1, ...; the rest -1
 * (other); groups without a bar -2.  *@nother: groups in other. */
static int *colour_slots(const struct rp_tl_layout *l, size_t ng, size_t *nother)
{
	struct ranked *r = xcalloc(ng ? ng : 1, sizeof(*r));
	int *slot = xreallocarray(NULL, ng ? ng : 1, sizeof(int));
	bool *used = xcalloc(ng ? ng : 1, sizeof(bool));
	size_t i, n = 0, keep;

	for (i = 0; i < ng; i++)
		r[i].group = i, slot[i] = -2;
	for (i = 0; i < l->n; i++) {
		r[l->b[i].group].time += l->b[i].t1 - l->b[i].t0;
		used[l->b[i].group] = true;
	}
	for (i = 0; i < ng; i++)
		if (used[i])
			r[n++] = r[i];
	qsort(r, n, sizeof(*r), by_time_spent);
	keep = n <= KEY_MAX ? n : KEY_MAX - 1;
	for (i = 0; i < n; i++)
		slot[r[i].group] = i < keep ? (int)i : -1;
	*nother = n - keep;
	free(r);
	free(used);
	return slot;
}

/* The groups and their colours, for the key. */
struct key {
	const struct rp_group *g;
	size_t ng;
	const int *slot;
	size_t nother;
};

/* The key's entries: a box per coloured group, "other", the marks. */
static void key_entries(FILE *s, const struct rp_group *g, size_t ng, const int *slot,
			size_t nother)
{
	size_t i;
	int k;

	for (k = 0; k < KEY_MAX; k++)
		for (i = 0; i < ng; i++) {
			if (slot[i] != k)
				continue;
			fprintf(s, ", NaN with boxes fs solid 0.85 lc rgb '%s' title ", palette[k]);
			gp_text(s, g[i].label);
		}
	if (nother) {
		char *name;

		fprintf(s, ", NaN with boxes fs solid 0.85 lc rgb '%s' title ", OTHER);
		name = xasprintf("other (%zu groups)", nother);
		gp_text(s, name);
		free(name);
	}
}

/* The script: two panels sharing the time axis. */
static void script(FILE *s, const struct rp_tl_layout *l, const struct key *key,
		   const size_t marks[2], const char *unit_name, double unit, char *bars[3],
		   const char *load, double mem_max, double busy_max, bool svg,
		   const char *out)
{
	int height = (int)fmin(2400, fmax(520, 330 + 14 * l->rows));
	double split = 1 - (double)(height - 230) / height;	/* bottom panel: 230 px */
	/* the marks no taller than a lane (about 14 px at size 1) */
	double mark = fmin(1.3, fmax(0.3, (height - 280) / (l->rows + 1) / 14));
	char start[64];
	const char *mem_unit;
	double mem_div;
	time_t t0 = (time_t)l->start;
	struct tm tm;

	if (!localtime_r(&t0, &tm) || !strftime(start, sizeof(start), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(start, sizeof(start), "the first start");
	if (svg)
		fprintf(s, "set terminal svg noenhanced size 1100,%d font 'DejaVu Sans,10' "
			"background '#ffffff'\n", height);
	else
		fprintf(s, "set terminal pngcairo noenhanced size 1100,%d font 'DejaVu Sans,10'\n",
			height);
	fputs("set output ", s);
	gp_file(s, out);
	/* room on the left for the longest host label (about 7 px a character) */
	fprintf(s, "\nset multiplot\nset lmargin at screen %.4f\nset rmargin at screen 0.70\n",
		fmin(0.17, fmax(0.07, (24 + 7.2 * (double)longest_label(l)) / 1100)));
	/* top: the bars */
	fprintf(s, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
		1 - 40.0 / height, split + 10.0 / height);
	fprintf(s, "set title \"%zu task%s on %zu host%s\"\n", l->n, l->n == 1 ? "" : "s",
		l->nhosts, l->nhosts == 1 ? "" : "s");
	fprintf(s, "set xrange [0:%.9g]\nset yrange [%.9g:-0.7]\nset format x ''\n",
		l->span / unit * 1.01 + 1e-9, l->rows - 0.3);
	fprintf(s, "set grid xtics lc rgb '#e0e0e0'\nset key at screen 0.745, screen %.4f left top "
		"vertical Left reverse samplen 1.5 spacing 1.2\nset style fill solid 0.85 noborder\n",
		1 - 40.0 / height);
	host_tics(s, l);
	host_lines(s, l);
	fputs("plot ", s);
	gp_file(s, bars[0]);
	fputs(" using 1:2:3:4:5 with boxxyerror lc rgb variable notitle", s);
	key_entries(s, key->g, key->ng, key->slot, key->nother);
	fputs(", ", s);
	gp_file(s, bars[1]);
	fprintf(s, " using 1:2 with points pt %d ps %.2f lw 2 lc rgb '%s' ", gp_endstyle[RP_FAILED].pt,
		mark, gp_endstyle[RP_FAILED].color);
	if (marks[0])
		fprintf(s, "title \"%s\", ", gp_endstyle[RP_FAILED].label);
	else
		fputs("notitle, ", s);
	gp_file(s, bars[2]);
	fprintf(s, " using 1:2 with points pt %d ps %.2f lc rgb '%s' ", gp_endstyle[RP_EXHAUSTED].pt,
		mark * 1.1, gp_endstyle[RP_EXHAUSTED].color);
	if (marks[1])
		fprintf(s, "title \"%s\"\n", gp_endstyle[RP_EXHAUSTED].label);
	else
		fputs("notitle\n", s);
	/* bottom: what ran at once */
	fprintf(s, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
		split - 10.0 / height, 55.0 / height);
	fputs("unset title\nunset arrow\nset format x '%g'\nset ytics auto\nset grid ytics xtics lc rgb '#e0e0e0'\n", s);
	/* memory in GB from 1 GB on, else in MB */
	mem_div = mem_max >= 1024 ? 1024 : 1;
	mem_unit = mem_max >= 1024 ? "GB" : "MB";
	fprintf(s, "set yrange [0:%.9g]\nset y2range [0:%.9g]\nset y2tics\nset ytics nomirror\n"
		"set format y2 '%%g'\n", busy_max * 1.15 + 1,
		mem_max / mem_div * 1.15 + (mem_max > 0 ? 0 : 1));
	fprintf(s, "set xlabel \"time since %s (%s)\"\nset ylabel \"tasks, cores\"\n"
		"set y2label \"memory (%s)\"\n", start, unit_name, mem_unit);
	fprintf(s, "set key at screen 0.745, screen %.4f left top vertical Left reverse "
		"samplen 1.5 spacing 1.2\nplot ", split - 10.0 / height);
	gp_file(s, load);
	fprintf(s, " using 1:2 with steps lw 2 lc rgb '#333333' title \"running tasks\", '' using 1:3 "
		"with steps lw 2 lc rgb '#2b8cbe' title \"cores (means)\", '' using 1:($4/%g) "
		"axes x1y2 with steps lw 2 lc rgb '#e6550d' title \"memory (peaks, %s)\"\n"
		"unset multiplot\nunset output\n", mem_div, mem_unit);
}

/* Draw into @g's directory; the picture's path in *@made.  0, 1, -1. */
static int draw(struct gp *gp, char **made, bool svg, const struct rp_store *st,
		const struct rp_group *g, size_t ng)
{
	struct rp_tl_layout l;
	const char *unit_name;
	char *bars[3] = { NULL, NULL, NULL }, *load = NULL;
	double unit, mem_max, busy_max;
	size_t marks[2] = { 0, 0 };
	struct key key = { g, ng, NULL, 0 };
	int *slot, r;

	*made = NULL;
	if (rp_timeline_layout(&l, st, g, ng) != 0)
		return 1;
	slot = colour_slots(&l, ng, &key.nother);
	key.slot = slot;
	/* tasks that all took no time: a second to draw them on */
	if (l.span <= 0)
		l.span = 1;
	unit = time_unit(l.span, &unit_name);
	*made = gp_path(gp, svg ? "timeline.svg" : "timeline.png");
	r = write_bars(gp, &l, st, unit, bars, marks, slot);
	if (r == 0)
		r = write_load(gp, &l, st, unit, &load, &mem_max, &busy_max);
	if (r == 0) {
		script(gp->script, &l, &key, marks, unit_name, unit, bars, load, mem_max,
		       busy_max, svg, *made);
		r = gp_run(gp);
	}
	free(bars[0]);
	free(bars[1]);
	free(bars[2]);
	free(load);
	free(slot);
	rp_timeline_layout_free(&l);
	return r;
}

void rp_timeline_layout_free(struct rp_tl_layout *l)
{
	free(l->b);
	l->b = NULL;
	l->n = 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

int rp_timeline_write(const char *path, const struct rp_store *st,
		      const struct rp_group *g, size_t ng)
{
	bool svg = ends_with(path, ".svg");
	struct gp gp;
	char *made, *data;
	size_t len;
	int r;

	if (!svg && !ends_with(path, ".png")) {
		error_msg("report: --timeline %s: the picture must end in .png or .svg", path);
		return -1;
	}
	if (gp_open(&gp, "report") < 0)
		return -1;
	r = draw(&gp, &made, svg, st, g, ng);
	if (r == 1)
		error_msg("report: note: no task has a start and an end time: no timeline drawn");
	if (r == 0) {
		data = gp_picture(&gp, made, &len);
		r = data ? rp_write_file(path, data, len) : -1;
		if (data && r < 0)
			error_msg("report: cannot write %s: %s", path, outfile_strerror(errno));
		free(data);
	}
	free(made);
	gp_close(&gp);
	return r;
}

int rp_timeline_svg(char **svg, const struct rp_store *st,
		    const struct rp_group *g, size_t ng)
{
	struct gp gp;
	char *made;
	size_t len;
	int r;

	*svg = NULL;
	if (gp_open(&gp, "report") < 0)
		return -1;
	r = draw(&gp, &made, true, st, g, ng);
	if (r == 0) {
		*svg = gp_picture(&gp, made, &len);
		if (!*svg)
			r = -1;
	}
	free(made);
	gp_close(&gp);
	return r;
}
