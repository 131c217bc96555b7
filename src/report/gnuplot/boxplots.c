/* SPDX-License-Identifier: MIT */
/* boxplots.c: for the --html page, a chart per resource with every group
 * side by side as a box plot (quartiles, whiskers to the smallest and
 * largest value, the median marked), the largest footprint first, named
 * by distinct short names; a log scale when the values span more than
 * 50 times.  Names reach gnuplot only through gp_text(); the data files
 * hold numbers only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/gnuplot/gnuplot.h"
#include "report/gnuplot/boxplots.h"
#include "report/sizing/sizing.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

/* Groups drawn at most (the largest footprints). */
#define BOX_MAX 80
/* Longest name on the axis, in bytes of its shown form. */

struct box {
	size_t i;
	struct rp_usage fp;
};

static int by_fp(const void *a, const void *b)
{
	const struct box *x = a, *y = b;

	int c = rp_footprint_cmp(&x->fp, &y->fp);

	if (c)
		return c;
	return (x->i > y->i) - (x->i < y->i);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One data line "X MIN Q1 MEDIAN Q3 MAX" of group @c's values of @r
 * divided by @div; the range seen in @lo/@hi.  0 when it has none. */
static int box_line(FILE *d, const struct rp_store *st, const struct rp_cat *c,
		    enum rp_res r, double div, size_t x, double *lo, double *hi)
{
	double *v = xreallocarray(NULL, c->group->n ? c->group->n : 1, sizeof(double));
	size_t i, n = 0;

	for (i = 0; i < c->group->n; i++) {
		const struct rp_task *t = &st->tasks[c->group->idx[i]];

		if (!isnan(t->v[r]) && rp_task_usable(t) != 3)
			v[n++] = t->v[r] / div;
	}
	if (n) {
		qsort(v, n, sizeof(double), cmp_d);
		fprintf(d, "%zu %.9g %.9g %.9g %.9g %.9g\n", x, v[0], rp_quantile(v, n, 0.25),
			rp_quantile(v, n, 0.5), rp_quantile(v, n, 0.75), v[n - 1]);
		if (v[0] > 0)
			*lo = fmin(*lo, v[0]);
		*hi = fmax(*hi, v[n - 1]);
	}
	free(v);
	return n > 0;
}

/* The x tics: the labels of the @m groups of @b (labels.h: one name per
 * group, unique).  Returns the longest label's length. */
static size_t tics(FILE *s, const struct box *b, size_t m, const struct rp_cat *c)
{
	size_t i, longest = 0;

	fputs("set xtics rotate by 60 right nomirror font ',9' (", s);
	for (i = 0; i < m; i++) {
		const char *shown = c[b[i].i].group->label;

		fputs(i ? ", " : "", s);
		gp_text(s, shown);
		fprintf(s, " %zu", i + 1);
		longest = strlen(shown) > longest ? strlen(shown) : longest;
	}
	fputs(")\n", s);
	return longest;
}

/* The script and data of resource @r's chart into @g; its SVG's path. */
static char *chart(struct gp *g, const struct rp_store *st, const struct rp_cat *c,
		   const struct box *b, size_t m, enum rp_res r, const char *what)
{
	char *dat = gp_path(g, rp_res_fig(r)->name), *svg;
	FILE *d = fopen(dat, "wxe"), *s = g->script;
	double lo = INFINITY, hi = 0, div = 1;
	const char *unit = rp_res_fig(r)->unit;
	size_t i, drawn = 0, longest;

	if (!d) {
		free(dat);
		return NULL;
	}
	for (i = 0; r == RP_WALL_TIME && i < m; i++)
		if (c[b[i].i].stats[r].max > 600)
			div = 60, unit = "min";
	for (i = 0; i < m; i++)
		drawn += box_line(d, st, &c[b[i].i], r, div, i + 1, &lo, &hi);
	fclose(d);
	if (!drawn) {
		free(dat);
		return NULL;
	}
	svg = xasprintf("%s.svg", dat);
	fputs("reset\nset terminal svg noenhanced size 1100,560 font 'DejaVu Sans,10' "
	      "background '#ffffff'\nset output ", s);
	gp_file(s, svg);
	fprintf(s, "\nset title \"%s per group (%s), largest footprint first\"\n", what, unit);
	fprintf(s, "set xrange [0:%zu]\nset grid ytics lc rgb '#e0e0e0'\n"
		"set style fill solid 0.45 border lc rgb '#2b5d8a'\nset boxwidth 0.6\n", m + 1);
	if (hi > 0 && isfinite(lo) && hi / lo > 50)
		fputs("set logscale y\n", s);
	else
		fputs("set yrange [0:*]\n", s);
	/* room for the labels, at 60 degrees: about half a line (and, on the
	 * left, a third of a character) a character */
	longest = tics(s, b, m, c);
	fprintf(s, "set bmargin %.1f\nset lmargin %.1f\nset rmargin 2\n",
		2 + 0.45 * (double)longest, fmax(8, 0.35 * (double)longest));
	fputs("plot ", s);
	gp_file(s, dat);
	fputs(" using 1:3:2:6:5 with candlesticks lc rgb '#4e79a7' notitle whiskerbars 0.5, "
	      "'' using 1:4:4:4:4 with candlesticks lc rgb '#111111' lw 2 notitle\nunset output\n", s);
	free(dat);
	return svg;
}

/* The whole of the file @path in a new NUL-terminated buffer, or NULL. */
static char *slurp(const char *path)
{
	FILE *in = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!in)
		return NULL;
	n = getdelim(&buf, &cap, '\0', in);
	fclose(in);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The charts of the @m largest of the groups (@b, by footprint) into
 * @svg. */
static int draw(char *svg[3], const struct rp_store *st, const struct rp_cat *c,
		const struct box *b, size_t m)
{
	static const enum rp_res res[] = { RP_MEMORY, RP_WALL_TIME, RP_CORES };
	static const char *const what[] = { "memory", "wall time", "cores" };
	char *path[3] = { NULL, NULL, NULL };
	struct gp g;
	size_t i;
	int r;

	if (gp_open(&g, "report") < 0)
		return -1;
	for (i = 0; i < 3; i++)
		path[i] = chart(&g, st, c, b, m, res[i], what[i]);
	r = gp_run(&g);
	for (i = 0; i < 3; i++) {
		if (r == 0 && path[i])
			svg[i] = slurp(path[i]);
		free(path[i]);
	}
	gp_close(&g);
	return r;
}

int rp_boxplots_svg(char *svg[3], size_t *shown, const struct rp_store *st,
		    const struct rp_cat *c, size_t n)
{
	struct box *b;
	size_t i, m = n;
	int r;

	svg[0] = svg[1] = svg[2] = NULL;
	*shown = 0;
	if (n < 2)
		return 0;
	if (m > BOX_MAX)
		m = BOX_MAX;
	b = xreallocarray(NULL, n, sizeof(*b));
	for (i = 0; i < n; i++) {
		b[i].i = i;
		b[i].fp = rp_footprint(st, &c[i]);
	}
	qsort(b, n, sizeof(*b), by_fp);
	r = draw(svg, st, c, b, m);
	free(b);
	*shown = m;
	return r;
}
