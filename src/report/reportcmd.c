/* SPDX-License-Identifier: MIT */
/* reportcmd.c: report_main(): options -> read inputs -> group -> analyse ->
 * outputs. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/outfile.h"
#include "basic/messages.h"
#include "report/analyse/analysis.h"
#include "report/analyse/jobs.h"
#include "report/analyse/labels.h"
#include "report/analyse/notes.h"
#include "report/write/output.h"
#include "report/gnuplot/boxplots.h"
#include "report/gnuplot/groupplots.h"
#include "report/read/reader.h"
#include "report/reportcmd.h"
#include "report/ropts.h"
#include "report/gnuplot/timeline.h"
#include "basic/parfor.h"
#include "basic/xmalloc.h"

/* Remove a plot's SVG file @svg and the PNG beside it. */
static void remove_svg_png(const char *svg)
{
	char *png;

	if (!svg)
		return;
	unlink(svg);
	png = xasprintf("%.*s.png", (int)(strlen(svg) - 4), svg);
	unlink(png);
	free(png);
}

/* --html without --plots: the page's plots are drawn in a temporary
 * directory, removed once they are in the page.  0, or -1 after a message
 * (the page is then written without plots if it can be). */
static int html_alone(const char *path, const struct rp_store *st,
		      const struct rp_cat *c, size_t n, struct rp_plot_set *sets,
		      const struct rp_page *pg)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dir = xasprintf("%s/tpmon-html-XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
	int plotted = 0, status = 0;
	size_t i;
	int r;

	if (!mkdtemp(dir))
		error_msg("report: cannot create a temporary directory: %s", strerror(errno));
	else
		plotted = rp_plots_write(dir, st, c, n, sets) == 0;
	if (!plotted)
		status = -1;
	if (rp_out_html(path, c, n, plotted ? sets : NULL, pg) < 0)
		status = -1;
	for (i = 0; i < n; i++) {
		for (r = 0; r < RP_RES__COUNT; r++)
			remove_svg_png(sets[i].hist[r]);
		remove_svg_png(sets[i].scatter);
	}
	rmdir(dir);
	free(dir);
	return status;
}

static int outputs(const struct rp_options *o, const struct rp_store *st,
		   const struct rp_group *g, const struct rp_cat *c, size_t n,
		   const struct rp_sizing *z)
{
	const struct rp_sizing *zs = o->sizing.on ? z : NULL;
	bool to_stdout = (o->json && !strcmp(o->json, "-")) ||
			 (o->csv && !strcmp(o->csv, "-")) ||
			 (o->sizing.replay_csv && !strcmp(o->sizing.replay_csv, "-"));
	int status = 0;
	bool empty = false;

	if (!to_stdout) {
		rp_out_text(stdout, st, c, n, zs);
		rp_notes_text(stdout, st);
	}
	if (o->json) {
		char *notes[8];
		size_t nn = rp_notes(st, notes, 8), i;

		if (rp_out_json(o->json, c, n, notes, nn, zs) < 0)
			status = 1;
		for (i = 0; i < nn; i++)
			free(notes[i]);
	}
	if (o->sizing.nemit) {
		int e = rp_emit_all(z, c, o->max);

		if (e < 0)
			status = 1;
		else if (e > 0)
			empty = true;
	}
	if (o->csv && rp_out_csv(o->csv, st, g, n) < 0)
		status = 1;
	if (o->sizing.replay_csv && rp_out_replay_csv(o->sizing.replay_csv, z, c) < 0)
		status = 1;
	if (o->timeline && rp_timeline_write(o->timeline, st, g, n) < 0)
		status = 1;
	if (o->plots || o->html) {
		struct rp_plot_set *sets = xcalloc(n ? n : 1, sizeof(*sets));
		struct rp_page pg = { NULL, 0, NULL, z, st, { NULL, NULL, NULL }, 0 };
		char *notes[8], *svg = NULL;
		int plotted = 1;
		size_t i;

		if (o->plots && rp_plots_write(o->plots, st, c, n, sets) < 0)
			plotted = 0, status = 1;
		if (o->html) {
			pg.nnotes = rp_notes(st, notes, 8);
			pg.notes = notes;
			if (rp_timeline_svg(&svg, st, g, n) < 0)
				status = 1;
			pg.timeline_svg = svg;
			if (rp_boxplots_svg(pg.across_svg, &pg.across_shown, st, c, n) < 0)
				status = 1;
		}
		/* with --plots DIR the page takes its plots from DIR */
		if (o->html && o->plots &&
		    rp_out_html(o->html, c, n, plotted ? sets : NULL, &pg) < 0)
			status = 1;
		if (o->html && !o->plots && html_alone(o->html, st, c, n, sets, &pg) < 0)
			status = 1;
		for (i = 0; i < pg.nnotes; i++)
			free(notes[i]);
		free(svg);
		for (i = 0; i < 3; i++)
			free(pg.across_svg[i]);
		rp_plot_sets_clear(sets, n);
		free(sets);
	}
	/* an --emit file with nothing usable: 2, unless something failed */
	return status == 0 && empty ? 2 : status;
}

struct analyse_job {
	const struct rp_store *st;
	const struct rp_group *g;
	struct rp_cat *c;
	const struct rp_options *o;
};

static void analyse_part(size_t i, void *arg)
{
	const struct analyse_job *j = arg;
	size_t k = i / RP_ANALYSE_PARTS;

	rp_analyse_part(j->st, &j->g[k], j->o->max, &j->c[k], (int)(i % RP_ANALYSE_PARTS));
}

/* Every group's figures, on --jobs threads (the same with any number). */
static void analyse_groups(const struct rp_store *st, const struct rp_group *g,
			   struct rp_cat *c, size_t n, const struct rp_options *o)
{
	struct analyse_job j = { st, g, c, o };
	size_t i;

	for (i = 0; i < n; i++)
		rp_analyse_begin(&g[i], &c[i]);
	parfor(n * RP_ANALYSE_PARTS, o->jobs, analyse_part, &j);
}

/* Every file named for the report to write (and the cache, which it
 * reads too), judged before anything is read: what another user planted
 * is refused (outfile_planted()).  0, or -1 after one message. */
static int check_planted(const struct rp_options *o)
{
	const char *named[] = { o->cache, o->csv, o->json, o->html, o->timeline,
				o->sizing.replay_csv };
	size_t n = sizeof(named) / sizeof(named[0]), i;

	for (i = 0; i < n + o->sizing.nemit; i++) {
		const char *p = i < n ? named[i] : o->sizing.emit[i - n].path;

		if (!p || !strcmp(p, "-"))
			continue;
		if (outfile_planted(p) < 0) {
			error_msg("report: cannot write %s: %s", p, outfile_strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* --by=job: the jobs table on stdout (unless --json or --csv is "-"),
 * and --json, --csv.  0, or 1 when one cannot be written. */
static int jobs_report(const struct rp_options *o, const struct rp_store *st)
{
	struct rp_job *j;
	size_t nojob, n = rp_jobs_build(st, &j, &nojob);
	bool to_stdout = (o->json && !strcmp(o->json, "-")) || (o->csv && !strcmp(o->csv, "-"));
	int r = 0;

	if (!to_stdout && rp_jobs_text(stdout, j, n, nojob) < 0)
		r = -1;
	if (o->json && rp_out_jobs_json(o->json, j, n, nojob) < 0)
		r = -1;
	if (o->csv && rp_out_jobs_csv(o->csv, j, n) < 0)
		r = -1;
	rp_jobs_free(j, n);
	return r < 0 ? 1 : 0;
}

int report_main(int argc, char **argv)
{
	struct rp_options o;
	struct rp_store st;
	struct rp_group *g;
	struct rp_cat *c;
	struct rp_sizing z;
	struct rp_cache *cache;
	size_t n, i;
	int r, status = 0;

	r = rp_options_parse(&o, argc, argv);
	if (r != 0)
		return r > 0 ? 0 : 1;
	if (check_planted(&o) < 0)
		return 1;
	rp_store_init(&st);
	cache = o.cache ? rp_cache_open(o.cache, o.inputs, o.ninputs) : NULL;
	for (i = 0; i < (size_t)o.ninputs; i++) {
		if (cache)
			rp_cache_input(cache, (int)i);
		if (rp_read_input(&st, o.inputs[i], o.jobs, cache) < 0)
			status = 1;
	}
	if (cache && status == 0)
		rp_cache_save(cache);
	rp_cache_free(cache);
	if (status == 0 && st.n == 0) {
		error_msg("report: no task could be read from the inputs");
		status = 1;
	}
	if (status != 0) {
		rp_store_free(&st);
		return status;
	}
	if (o.by == RP_BY_JOB) {
		status = jobs_report(&o, &st);
		rp_store_free(&st);
		return status;
	}
	g = rp_store_group(&st, o.by, &n);
	rp_labels_assign(g, n);
	c = xreallocarray(NULL, n, sizeof(*c));
	analyse_groups(&st, g, c, n, &o);
	rp_sizing_compute(&z, &o.sizing, &st, c, n, o.max, o.jobs);
	status = outputs(&o, &st, g, c, n, &z);
	rp_sizing_free(&z);
	free(c);
	rp_groups_free(g, n);
	rp_store_free(&st);
	return status;
}
