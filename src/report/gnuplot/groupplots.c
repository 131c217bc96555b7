/* SPDX-License-Identifier: MIT */
/* groupplots.c: `tpmon report --plots`: each group's histograms and its
 * memory/wall-time scatter as gnuplot scripts and data files (gnuplot.c
 * runs them; a category's name reaches a script only as
 * gp_text() escapes, and an output's name only from [A-Za-z0-9._-]). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "basic/outfile.h"
#include "basic/messages.h"
#include "report/gnuplot/gnuplot.h"
#include "report/write/output.h"
#include "report/gnuplot/groupplots.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

/* Picture size in pixels, and colors of the three modes' marks. */
#define PLOT_W 720
#define PLOT_H 400
/* Longest group name in a title, in bytes of its shown form. */
#define TITLE_NAME_MAX 60
static const char *const mode_color[RP_MODE__COUNT] = {
	"#d95f02", "#1b9e77", "#7570b3"
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Longest group part of a picture's file name, in bytes: a file name
 * must stay under NAME_MAX with the resource and suffix added. */
#define FILE_NAME_MAX 100

static char *safe_name(const char *name, size_t index, const struct rp_cat *c)
{
	char *s = xstrdup(name[0] ? name : "_");
	size_t i;

	if (strlen(s) > FILE_NAME_MAX)
		s[FILE_NAME_MAX] = '\0';

	for (i = 0; s[i]; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_'))
			s[i] = '_';
	}
	if (s[0] == '.')
		s[0] = '_';
	/* two names may map to one: the later group gets its index appended */
	for (i = 0; i < index; i++) {
		char *other = safe_name(c[i].group->name, 0, c);
		int same = strcmp(other, s) == 0;

		free(other);
		if (same) {
			char *t = xasprintf("%s-%zu", s, index);

			free(s);
			return t;
		}
	}
	return s;
}

/* 1, 2 or 5 times a power of ten, at least @raw. */
static double round_step(double raw)
{
	double p, m;

	if (!(raw > 0))
		return 1;
	p = pow(10, floor(log10(raw)));
	m = raw / p;
	return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10);
}

/* A bin width near @range/20: for a resource that cctools buckets, when
 * the data spread over several of its buckets, a whole number of them, so
 * that bars end where allocations can fall; else a round number. */
static double bin_width(double lo, double hi, double bucket)
{
	double raw = (hi - lo) / 20;

	if (bucket > 0 && raw >= bucket / 2)
		return bucket * round(raw / bucket);
	if (!(raw > 0))
		raw = hi > 0 ? hi / 10 : 1;
	return round_step(raw);
}

/* The tallest bar of @c's values of @r in bins of @w (as bin() in the
 * script: (end - w, end], 0 in the first). */
static size_t tallest_bar(const struct rp_store *st, const struct rp_cat *c,
			  enum rp_res r, double w)
{
	double *k = xreallocarray(NULL, c->group->n ? c->group->n : 1, sizeof(double));
	size_t i, n = 0, run = 0, best = 0;

	for (i = 0; i < c->group->n; i++) {
		double v = st->tasks[c->group->idx[i]].v[r];

		if (!isnan(v))
			k[n++] = v <= 0 ? 1 : ceil(v / w);
	}
	qsort(k, n, sizeof(double), cmp_double);
	for (i = 0; i < n; i++) {
		run = (i > 0 && k[i] == k[i - 1]) ? run + 1 : 1;
		if (run > best)
			best = run;
	}
	free(k);
	return best;
}

/* The axis label of resource @r: "memory (MB)". */
static void axis_label(FILE *f, const char *axis, enum rp_res r)
{
	char *label = xasprintf("%s (%s)", rp_res_fig(r)->name, rp_res_fig(r)->unit);

	fprintf(f, "set %slabel ", axis);
	gp_text(f, label);
	fputc('\n', f);
	free(label);
}

/* A plot's title: the group's name (shown form, cut to fit the picture),
 * @what and, when @n > 0, the number of tasks. */
static char *group_title(const struct rp_cat *c, const char *what, size_t n)
{
	char *name = safetext_clip(c->group->name, TITLE_NAME_MAX), *t;

	if (n > 0)
		t = xasprintf("%s: %s, %zu tasks", name, what, n);
	else
		t = xasprintf("%s: %s", name, what);
	free(name);
	return t;
}

static void both_terminals(FILE *f, const char *base, const char *plot_cmd)
{
	char *png = xasprintf("%s.png", base), *svg = xasprintf("%s.svg", base);

	fprintf(f, "set terminal pngcairo noenhanced size %d,%d font 'DejaVu Sans,10'\n"
		"set output ", PLOT_W, PLOT_H);
	gp_file(f, png);
	fprintf(f, "\n%s\nset terminal svg noenhanced size %d,%d font 'DejaVu Sans,10' background '#ffffff'\n"
		"set output ", plot_cmd, PLOT_W, PLOT_H);
	gp_file(f, svg);
	fprintf(f, "\n%s\nunset output\n", plot_cmd);
	free(png);
	free(svg);
}

/* The key entries and vertical lines for the allocations of @r; one past
 * @limit gets no line (it would squeeze the bars into a sliver) and its
 * key entry says so.  Returns the largest allocation drawn, or -inf. */
static double mark_allocations(FILE *f, const struct rp_cat *c, enum rp_res r,
			       double limit, FILE *keys)
{
	double right = -INFINITY;
	char al[32], *title;
	int a, m;

	for (a = 0; a < RP_A__COUNT; a++) {
		if (rp_ares_res(a) != r)
			continue;
		for (m = 0; m < RP_MODE__COUNT; m++) {
			int64_t v = c->alloc[m][a];
			bool drawn = (double)v <= limit;

			if (v < 0)
				continue;
			if (drawn)
				fprintf(f, "set arrow from %lld, graph 0 to %lld, graph 1 nohead "
					"lw 2 dt %d lc rgb '%s' front\n", (long long)v,
					(long long)v, m + 2, mode_color[m]);
			fprintf(keys, ", NaN with lines lw 2 dt %d lc rgb '%s' title ",
				m + 2, mode_color[m]);
			title = xasprintf("%s %s%s", rp_mode_label(m),
					  rp_fmt_alloc(al, sizeof(al), a, v),
					  drawn ? "" : " (off scale)");
			gp_text(keys, title);
			free(title);
			if (drawn && (double)v > right)
				right = (double)v;
		}
	}
	return right;
}

/* The key above the plot, titled @title. */
static void key_above(FILE *f, const char *title)
{
	fputs("set key above horizontal title ", f);
	gp_text(f, title);
	fputc('\n', f);
}

/* "plot " and the plot elements of @what (its text in a memory stream)
 * then @keys, drawn in PNG and SVG as @base.png and @base.svg. */
static void draw_both(FILE *f, const char *base, const char *what, const char *keys)
{
	char *cmd = xasprintf("plot %s%s", what, keys);

	both_terminals(f, base, cmd);
	free(cmd);
}

/* The data file @index-RES.dat: @c's finite values of @r, one a line.
 * Its path in *@path.  0, or -1 after a message. */
static int histogram_data(struct gp *g, size_t index, const struct rp_store *st,
			  const struct rp_cat *c, enum rp_res r, char **path)
{
	char *name = xasprintf("%zu-%s.dat", index, rp_res_fig(r)->name);
	FILE *d = gp_data_open(g, name, path);
	size_t i;

	free(name);
	for (i = 0; d && i < c->group->n; i++) {
		double v = st->tasks[c->group->idx[i]].v[r];

		if (isfinite(v))
			fprintf(d, "%.15g\n", v);
	}
	return gp_data_close(g, d, *path);
}

/* The x axis of a histogram of bins of @w: up to the largest value and
 * the allocations drawn (their key entries into *@keys, owned). */
static void histogram_axes(FILE *f, const struct rp_store *st, const struct rp_cat *c,
			   enum rp_res r, double w, char **keys)
{
	const struct rp_stats *s = &c->stats[r];
	double right = ceil(s->max / w) * w, lo;
	size_t keylen;
	FILE *k = open_memstream(keys, &keylen);

	/* allocations up to 4 times the data's reach are drawn */
	right = fmax(right, mark_allocations(f, c, r, fmax(right, w) * 4, k));
	fclose(k);
	lo = fmin(0, s->min);
	/* every value 0 (nothing written, say): one bar's width to draw on */
	if (right <= lo)
		right = lo + w;
	/* ticks from 0 (no negative label for a resource that cannot be) */
	fprintf(f, "set xrange [%.15g:%.15g]\nset xtics %.15g, %.15g\n",
		lo - (right - lo) * 0.02, right + (right - lo) * 0.04, lo,
		round_step((right - lo) / 8));
	if (tallest_bar(st, c, r, w) <= 10)
		fprintf(f, "set ytics 1\n");
}

static int histogram(struct gp *g, const char *dir, size_t index, const char *name,
		     const struct rp_store *st, const struct rp_cat *c,
		     enum rp_res r, struct rp_plot_set *set)
{
	const struct rp_stats *s = &c->stats[r];
	double w = bin_width(s->min, s->max, rp_res_info(r)->bucket);
	char *data = NULL, *base, *keys, *title, *what;
	FILE *f = g->script;

	if (histogram_data(g, index, st, c, r, &data) < 0) {
		free(data);
		return -1;
	}
	fprintf(f, "reset\nunset arrow\nset style fill solid 0.6 border lc rgb '#2b5d8a'\n"
		"set boxwidth %.15g absolute\nset grid ytics lc rgb '#dddddd'\n"
		"set ylabel 'tasks'\nset yrange [0:*]\n"
		"set offsets 0, 0, graph 0.05, 0\n", w * 0.9);
	axis_label(f, "x", r);
	title = group_title(c, rp_res_fig(r)->name, s->n);
	key_above(f, title);
	histogram_axes(f, st, c, r, w, &keys);
	/* bars hold (end - w, end], as cctools' buckets; the first holds 0 too */
	fprintf(f, "bin(x) = x <= 0 ? %.15g : ceil(x / %.15g) * %.15g - %.15g\n",
		w / 2, w, w, w / 2);
	{
		size_t len;
		FILE *m = open_memstream(&what, &len);

		gp_file(m, data);
		fputs(" using (bin($1)):(1) smooth frequency with boxes "
		      "lc rgb '#4a90c8' title 'tasks'", m);
		fclose(m);
	}
	base = xasprintf("%s/%s-%s", dir, name, rp_res_fig(r)->name);
	draw_both(f, base, what, keys);
	set->hist[r] = xasprintf("%s.svg", base);
	free(what);
	free(keys);
	free(title);
	free(data);
	free(base);
	return 0;
}

/* The data files @index-scatter-E.dat, one per way a task ended (E):
 * wall time and memory of @c's tasks that have both.  Their paths in
 * @data, their lines in @count.  0, or -1 after a message. */
static int scatter_data(struct gp *g, size_t index, const struct rp_store *st,
			const struct rp_cat *c, char *data[3], size_t count[3])
{
	FILE *d[3];
	size_t i;
	int e, r = 0;

	for (e = 0; e < 3; e++) {
		char *name = xasprintf("%zu-scatter-%d.dat", index, e);

		d[e] = gp_data_open(g, name, &data[e]);
		free(name);
	}
	for (i = 0; d[0] && d[1] && d[2] && i < c->group->n; i++) {
		const struct rp_task *t = &st->tasks[c->group->idx[i]];

		if (t->end == RP_RUNNING || !isfinite(t->v[RP_MEMORY]) ||
		    !isfinite(t->v[RP_WALL_TIME]))
			continue;
		fprintf(d[t->end], "%.15g %.15g\n", t->v[RP_WALL_TIME], t->v[RP_MEMORY]);
		count[t->end]++;
	}
	for (e = 0; e < 3; e++)
		if (gp_data_close(g, d[e], data[e]) < 0)
			r = -1;
	return r;
}

/* The memory allocations of @c as horizontal lines (their key entries
 * into *@keys, owned); one far above the tasks (over twice the largest)
 * only in the key, so that the scale shows the tasks, as the histograms
 * do.  The top of the y range in *@top. */
static void memory_allocations(FILE *f, const struct rp_cat *c, char **keys, double *top)
{
	size_t keylen;
	FILE *k = open_memstream(keys, &keylen);
	double data_top = c->stats[RP_MEMORY].max;
	int e;

	*top = data_top;
	for (e = 0; e < RP_MODE__COUNT; e++) {
		int64_t v = c->alloc[e][RP_A_MEMORY];
		char *key;

		if (v < 0)
			continue;
		if (isfinite(data_top) && data_top > 0 && (double)v > 2 * data_top) {
			fprintf(k, ", NaN with lines lw 1.5 dt %d lc rgb '%s' title ", e + 2,
				mode_color[e]);
			key = xasprintf("%s %lld MB (off scale)", rp_mode_label(e), (long long)v);
			gp_text(k, key);
			free(key);
			continue;
		}
		*top = fmax(*top, (double)v);
		fprintf(f, "set arrow from graph 0, first %lld to graph 1, first %lld nohead "
			"lw 1.5 dt %d lc rgb '%s' back\n", (long long)v, (long long)v, e + 2,
			mode_color[e]);
		fprintf(k, ", NaN with lines lw 1.5 dt %d lc rgb '%s' title ", e + 2,
			mode_color[e]);
		key = xasprintf("%s %lld MB", rp_mode_label(e), (long long)v);
		gp_text(k, key);
		free(key);
	}
	fclose(k);
}

/* The plot elements of the points in the data files @data (@count lines
 * each), a new string; NULL when there is no point. */
static char *scatter_points(char *const data[3], const size_t count[3])
{
	char *what;
	size_t len;
	FILE *m = open_memstream(&what, &len);
	int e, any = 0;

	for (e = 0; e < 3; e++) {
		if (!count[e])
			continue;
		if (any++)
			fputs(", ", m);
		gp_file(m, data[e]);
		fprintf(m, " using 1:2 with points pt %d ps 0.9 lc rgb '%s' title '%s (%zu)'",
			gp_endstyle[e].pt, gp_endstyle[e].color, gp_endstyle[e].label, count[e]);
	}
	fclose(m);
	if (!any) {
		free(what);
		return NULL;
	}
	return what;
}

static int scatter(struct gp *g, const char *dir, size_t index, const char *name,
		   const struct rp_store *st, const struct rp_cat *c,
		   struct rp_plot_set *set)
{
	char *data[3] = { NULL, NULL, NULL }, *what, *title, *keys;
	size_t count[3] = { 0, 0, 0 };
	FILE *f = g->script;
	double top;
	int e;

	if (scatter_data(g, index, st, c, data, count) < 0) {
		for (e = 0; e < 3; e++)
			free(data[e]);
		return -1;
	}
	fprintf(f, "reset\nunset arrow\nset grid lc rgb '#dddddd'\n"
		"set xrange [0:*]\nset offsets 0, graph 0.05, graph 0.05, 0\n");
	axis_label(f, "x", RP_WALL_TIME);
	axis_label(f, "y", RP_MEMORY);
	title = group_title(c, "memory against wall time", 0);
	key_above(f, title);
	free(title);
	memory_allocations(f, c, &keys, &top);
	fputs("set yrange [0:", f);
	gp_num(f, isfinite(top) ? top * 1.08 + 1 : 1);
	fputs("]\n", f);
	what = scatter_points(data, count);
	if (what) {
		char *base = xasprintf("%s/%s-memory-wall_time", dir, name);

		draw_both(f, base, what, keys);
		set->scatter = xasprintf("%s.svg", base);
		free(base);
	}
	free(what);
	free(keys);
	for (e = 0; e < 3; e++)
		free(data[e]);
	return 0;
}

/* Does figure @r vary across the tasks of @c?  A histogram of one value,
 * or of one task, says nothing its table does not: none is drawn. */
static bool varies(const struct rp_cat *c, int r)
{
	const struct rp_stats *s = &c->stats[r];

	return c->shown[r] && s->n >= 2 && s->max > s->min;
}

int rp_plots_write(const char *dir, const struct rp_store *st,
		   const struct rp_cat *c, size_t n, struct rp_plot_set *sets)
{
	struct rp_plot_set local;
	struct gp g;
	size_t i;
	int r, status = 0;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		error_msg("report: cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	/* gnuplot opens each picture itself, following what is there */
	if (outfile_shared_dir(dir)) {
		error_msg("report: --plots=%s: a sticky directory others may write; "
			  "its pictures would follow what they plant: give a directory of your own", dir);
		return -1;
	}
	if (gp_open(&g, "report") < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct rp_plot_set *set = sets ? &sets[i] : &local;
		char *name = safe_name(c[i].group->name, i, c);

		memset(set, 0, sizeof(*set));
		for (r = 0; r < RP_RES__COUNT; r++)
			if (varies(&c[i], r) && histogram(&g, dir, i, name, st, &c[i], r, set) < 0)
				status = -1;
		if ((varies(&c[i], RP_MEMORY) || varies(&c[i], RP_WALL_TIME)) &&
		    scatter(&g, dir, i, name, st, &c[i], set) < 0)
			status = -1;
		if (!sets)
			rp_plot_sets_clear(set, 1);
		free(name);
	}
	if (status == 0)
		status = gp_run(&g);
	gp_close(&g);
	return status;
}
