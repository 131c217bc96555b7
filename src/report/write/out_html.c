/* SPDX-License-Identifier: MIT */
/* out_html.c: the --html page: one self-contained file (inline CSS and
 * SVG, one inline script that sorts tables, nothing fetched, a
 * Content-Security-Policy that allows that script by its hash and nothing
 * else) with the run summary, each group's tables and plots.  Text from the inputs goes
 * through html_text(); an SVG is inlined only if html_svg_inert(). */
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/outfile.h"
#include "basic/messages.h"
#include "report/files/infile.h"
#include "report/write/fmt.h"
#include "report/write/html.h"
#include "report/write/output.h"

static const char style[] =
	"body{font-family:'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:1100px;"
	"color:#222;padding:0 1em}"
	"h1{font-size:1.5em;border-bottom:2px solid #2b5d8a;padding-bottom:.2em}"
	"h2{font-size:1.2em;margin-top:2em;color:#2b5d8a}"
	"table{border-collapse:collapse;margin:.6em 0 1em}"
	"th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}"
	"th{background:#eef3f8}td:first-child,th:first-child{text-align:left}"
	".counts span{display:inline-block;margin-right:1.2em}"
	".plots{display:flex;flex-wrap:wrap;gap:8px}"
	".plots svg{max-width:100%;height:auto;border:1px solid #eee}"
	"p.note{color:#555;font-size:.9em}"
	"table.overview td,table.savings td{white-space:nowrap}"
	"table.overview td.name{white-space:nowrap}"
	".verdict span{display:inline-block;margin-right:1.2em;font-weight:bold}"
	".verdict .bad{color:#c0392b}.verdict .ok{color:#1b7e5a}"
	"table.sortable th{cursor:pointer}td.text{text-align:left;overflow-wrap:anywhere}"
	"p.name{color:#555;font-size:.85em;overflow-wrap:anywhere;margin-top:-.6em}"
	"details>summary{cursor:pointer;color:#2b5d8a;margin:.3em 0}";

static void figures(FILE *f, const struct rp_cat *c)
{
	char b[32];
	int r;

	fputs("<table class=\"figures\"><tr><th>resource</th><th>tasks with a value</th>"
	      "<th>min</th><th>median</th><th>p95</th><th>max</th><th>mean</th></tr>\n", f);
	for (r = 0; r < RP_RES__COUNT; r++) {
		const struct rp_stats *s = &c->stats[r];

		if (!c->shown[r])
			continue;
		fprintf(f, "<tr><td>%s</td><td>%zu</td>", rp_res_fig(r)->name, s->n);
		fprintf(f, "<td>%s</td>", rp_fmt_value(b, sizeof(b), r, s->min));
		fprintf(f, "<td>%s</td>", rp_fmt_value(b, sizeof(b), r, s->median));
		fprintf(f, "<td>%s</td>", rp_fmt_value(b, sizeof(b), r, s->p95));
		fprintf(f, "<td>%s</td>", rp_fmt_value(b, sizeof(b), r, s->max));
		fprintf(f, "<td>%s</td></tr>\n", rp_fmt_value(b, sizeof(b), r, s->mean));
	}
	fputs("</table>\n", f);
}

static void allocations(FILE *f, const struct rp_cat *c)
{
	char al[32], fit[16], waste[16];
	int m, a;

	fputs("<table class=\"allocations\"><tr><th>cctools' first allocation</th>", f);
	for (a = 0; a < RP_A__COUNT; a++)
		fprintf(f, "<th>%s</th><th>fit</th><th>waste</th>",
			rp_res_fig(rp_ares_res(a))->name);
	fputs("</tr>\n", f);
	for (m = 0; m < RP_MODE__COUNT; m++) {
		fprintf(f, "<tr><td>%s</td>", rp_mode_label(m));
		for (a = 0; a < RP_A__COUNT; a++)
			fprintf(f, "<td>%s</td><td>%s</td><td>%s</td>",
				rp_fmt_alloc(al, sizeof(al), a, c->alloc[m][a]),
				rp_fmt_share(fit, sizeof(fit), c->fit[m][a].share),
				rp_fmt_share(waste, sizeof(waste), c->fit[m][a].waste));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Copy the SVG file @path into the page from its <svg element on, if it
 * is only a drawing; else leave it out with a warning. */
static void inline_svg(FILE *f, const char *path)
{
	char *buf, *start = NULL, why[128];
	size_t n = 0;

	buf = rp_infile_slurp(path, RP_PICTURE_MAX, "a picture", &n, why, sizeof(why));
	if (buf && n > 0)
		start = strstr(buf, "<svg");
	if (start && html_svg_inert(start, why, sizeof(why)))
		fputs(start, f);
	else if (!buf || n > 0)
		error_msg("warning: %s left out of the page: %s", path,
			  start || !buf ? why : "no <svg> element");
	free(buf);
}

static void plots(FILE *f, const struct rp_plot_set *set)
{
	int r;

	fputs("<div class=\"plots\">\n", f);
	if (set->scatter)
		inline_svg(f, set->scatter);
	for (r = 0; r < RP_RES__COUNT; r++)
		if (set->hist[r])
			inline_svg(f, set->hist[r]);
	fputs("</div>\n", f);
}

/* Beyond this many groups, each group's tables and plots are collapsed
 * under its heading and counts (a link from the overview opens its own). */
#define GROUPS_OPEN_MAX 12

static void group(FILE *f, const struct rp_cat *c, const struct rp_plot_set *set, size_t i,
		  const struct rp_page *pg, bool collapsed)
{
	fprintf(f, "<section class=\"category\" id=\"g-%zu\" data-category=\"", i);
	html_text(f, c->group->name);
	fputs("\"><h2 title=\"", f);
	html_text(f, c->group->name);
	fputs("\">", f);
	html_text(f, c->group->label);
	fputs("</h2>\n<p class=\"name\">", f);
	html_text(f, c->group->name);
	fprintf(f, "</p>\n<p class=\"counts\"><span>%zu task%s</span><span>%zu succeeded</span>"
		"<span>%zu stopped at a limit</span><span>%zu failed</span><span>%zu running "
		"(peaks so far)</span><span>%zu note%s</span></p>\n",
		c->tasks, c->tasks == 1 ? "" : "s", c->succeeded, c->exhausted, c->failed, c->running,
		c->notes, c->notes == 1 ? "" : "s");
	if (collapsed)
		fputs("<details><summary>figures, allocations and plots</summary>\n", f);
	figures(f, c);
	allocations(f, c);
	if (pg && pg->sizing)
		rp_sizing_html_group(f, pg->sizing, i);
	if (set)
		plots(f, set);
	if (collapsed)
		fputs("</details>\n", f);
	fputs("</section>\n", f);
}

/* The timeline's SVG document from its <svg element on, if it is only a
 * drawing. */
static void timeline(FILE *f, const char *svg)
{
	const char *start = strstr(svg, "<svg");
	char why[128];

	if (!start || !html_svg_inert(start, why, sizeof(why))) {
		error_msg("warning: the timeline is left out of the page: %s",
			  start ? why : "no <svg> element");
		return;
	}
	fputs("<section class=\"timeline\"><h2>Timeline</h2>\n<div class=\"plots\">\n", f);
	fputs(start, f);
	fputs("</div></section>\n", f);
}

int rp_out_html(const char *path, const struct rp_cat *c, size_t n,
		const struct rp_plot_set *sets, const struct rp_page *pg)
{
	char *buf = NULL;
	size_t len = 0, i, tasks = 0, failed = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f) {
		error_msg("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		tasks += c[i].tasks;
		failed += c[i].failed;
	}
	/* no fetch, no form, no base: inline style and the one script */
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src '" RP_HTML_SCRIPT_HASH "'; "
	      "base-uri 'none'; form-action 'none'\"><title>tpmon report", f);
	if (n == 1) {
		fputs(": ", f);
		html_text(f, c[0].group->name);
	}
	fprintf(f, "</title><style>%s</style></head><body>\n"
		"<h1>tpmon report: %zu tasks in %zu group%s, %zu failed</h1>\n", style, tasks,
		n, n == 1 ? "" : "s", failed);
	if (pg && pg->st)
		rp_html_run(f, pg->st, c, n);
	fputs("<p class=\"note\">First allocations: what the category code of Work "
	      "Queue and TaskVine (cctools) would choose. Fit: the tasks at or under "
	      "an allocation; waste: of allocation &times; wall time given to those "
	      "tasks, the share they left unused. Median and p95 interpolate between "
	      "closest ranks.</p>\n", f);
	for (i = 0; pg && i < pg->nnotes; i++) {
		fputs("<p class=\"note\">", f);
		html_text(f, pg->notes[i]);
		fputs("</p>\n", f);
	}
	if (pg && pg->sizing && pg->st) {
		rp_sizing_html(f, pg->sizing, pg->st, c, n);
		rp_sizing_html_across(f, pg->across_svg, pg->across_shown, n);
	}
	if (pg && pg->timeline_svg)
		timeline(f, pg->timeline_svg);
	for (i = 0; i < n; i++)
		group(f, &c[i], sets ? &sets[i] : NULL, i, pg, n > GROUPS_OPEN_MAX);
	fprintf(f, "<script>%s</script>\n</body></html>\n", rp_html_script);
	if (fclose(f) != 0) {
		error_msg("cannot write %s: %s", path, strerror(errno));
		free(buf);
		return -1;
	}
	r = rp_write_file(path, buf, len);
	if (r < 0)
		error_msg("cannot write %s: %s", path, outfile_strerror(errno));
	free(buf);
	return r;
}

void rp_plot_sets_clear(struct rp_plot_set *sets, size_t n)
{
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		for (r = 0; r < RP_RES__COUNT; r++) {
			free(sets[i].hist[r]);
			sets[i].hist[r] = NULL;
		}
		free(sets[i].scatter);
		sets[i].scatter = NULL;
	}
}
