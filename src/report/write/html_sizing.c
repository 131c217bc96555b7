/* SPDX-License-Identifier: MIT */
/* html_sizing.c: the top of the --html page for a pipeline's owner: the
 * savings-and-risk table per strategy and an overview with a row per group, the largest footprint first (core hours
 * + memory GB hours), each linking to its section (id="g-INDEX").  Group names go through
 * html_text(). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/messages.h"
#include "report/write/fmt.h"
#include "report/write/html.h"
#include "report/write/sizing_out.h"
#include "basic/xmalloc.h"

struct order {
	size_t i;
	struct rp_usage fp;
};

static int by_footprint(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	int c = rp_footprint_cmp(&x->fp, &y->fp);

	if (c)
		return c;
	return (x->i > y->i) - (x->i < y->i);
}

static void rec_cell(FILE *f, const struct rp_rec *r)
{
	if (!r->has) {
		fputs("<td>none</td>", f);
		return;
	}
	fprintf(f, "<td>%" PRId64 " core%s, %" PRId64 " MB", r->cores, r->cores == 1 ? "" : "s",
		r->memory);
	if (r->wall_time >= 0)
		fprintf(f, ", %" PRId64 " min", r->wall_time / 60);
	fputs(r->fallback ? " (max: few tasks)</td>" : "</td>", f);
}

/* @s as html_text(), with a line break allowed after each ':' and '_'. */
static void breakable(FILE *f, const char *s)
{
	char *copy = xstrdup(s), *p = copy, *q;

	while ((q = p + strcspn(p, ":_")) && *q) {
		char sep[2] = { *q, '\0' };

		*q = '\0';
		html_text(f, p);
		html_text(f, sep);
		fputs("<wbr>", f);
		p = q + 1;
	}
	html_text(f, p);
	free(copy);
}

static void row(FILE *f, const struct rp_sizing *z, const struct rp_cat *c, size_t i,
		const struct rp_usage *fp)
{
	const struct rp_replay *p = &z->rep[0][i];
	char b[4][32], s[16];

	fprintf(f, "<tr><td class=\"name\"><a href=\"#g-%zu\" title=\"", i);
	html_text(f, c[i].group->name);
	fputs("\">", f);
	breakable(f, c[i].group->label);
	fprintf(f, "</a></td><td>%zu</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>",
		c[i].tasks, rp_fmt_hours(b[2], sizeof(b[2]), fp->core_h),
		rp_fmt_hours(b[3], sizeof(b[3]), fp->mem_gbh),
		rp_fmt_value(b[0], sizeof(b[0]), RP_MEMORY, c[i].stats[RP_MEMORY].max),
		rp_fmt_value(b[1], sizeof(b[1]), RP_MEMORY, c[i].stats[RP_MEMORY].p95));
	rec_cell(f, &z->rec[0][i]);
	if (p->req_tasks > 0 && p->req.mem_alloc > 0)
		snprintf(s, sizeof(s), "%.0f%%", 100 * (p->req.mem_alloc - p->rec_same.mem_alloc) /
			 p->req.mem_alloc);
	else
		snprintf(s, sizeof(s), "-");
	fprintf(f, "<td>%s</td><td>%zu of %zu</td></tr>\n", s, p->rec.exceeded, p->rec.tasks);
}

static void overview(FILE *f, const struct rp_sizing *z, const struct rp_store *st,
		     const struct rp_cat *c, size_t n)
{
	struct order *o = xreallocarray(NULL, n ? n : 1, sizeof(*o));
	char sn[64];
	size_t i;

	for (i = 0; i < n; i++) {
		o[i].i = i;
		o[i].fp = rp_footprint(st, &c[i]);
	}
	qsort(o, n, sizeof(*o), by_footprint);
	fprintf(f, "<section class=\"overview\"><h2>Overview</h2>\n<p class=\"note\">A row per "
		"group (its label; the whole name on hover and in its section), the largest "
		"footprint first (core hours, then memory GB hours: kept apart, never added); "
		"the recommendation is --recommend=%s, for the tasks' first try; saved: its "
		"memory hours against what the records requested; over: tasks above it on "
		"their first try.</p>\n",
		rp_strat_name(sn, sizeof(sn), &z->strat[0]));
	fputs("<table class=\"overview\"><tr><th>group</th><th>tasks</th><th>CPU (core h)</th>"
	      "<th>memory (GB h)</th><th>peak memory</th><th>p95 memory</th>"
	      "<th>recommendation (cores, MB, min)</th><th>saved (% of memory h)</th>"
	      "<th>over (tasks)</th></tr>\n", f);
	for (i = 0; i < n; i++)
		row(f, z, c, o[i].i, &o[i].fp);
	fputs("</table></section>\n", f);
	free(o);
}

static void tally_row(FILE *f, const char *name, const struct rp_tally *t, double base)
{
	fputs("<tr><td>", f);
	html_text(f, name);
	fprintf(f, "</td><td>%.2f</td><td>%.0f%%</td><td>%.2f</td><td>%zu</td><td>%zu</td><td>",
		t->mem_alloc / 1024, t->mem_alloc > 0 ? 100 * t->mem_used / t->mem_alloc : 0.0,
		t->core_alloc, t->exceeded, t->failed);
	if (base > 0)
		fprintf(f, "%.0f%%", 100 * (base - t->mem_alloc) / base);
	else
		fputs("-", f);
	fputs("</td></tr>\n", f);
}

static void savings(FILE *f, const struct rp_sizing *z)
{
	const struct rp_replay *t0 = &z->total[0];
	bool req = t0->req_tasks > 0 && t0->req_tasks == t0->rec.tasks;
	double base = req ? t0->req.mem_alloc : -1;
	char sn[64];
	size_t s;

	for (s = 0; !req && s < z->nstrat; s++)
		if (z->strat[s].s == RP_S_MAX)
			base = z->total[s].rec.mem_alloc;
	fprintf(f, "<section class=\"savings\"><h2>Savings and risk per strategy</h2>\n"
		"<p class=\"note\">The %zu tasks that ended well or were stopped with a retry, "
		"replayed under each strategy (margin %g%%), with its engine's retry; saved: "
		"memory hours against %s.</p>\n",
		t0->rec.tasks, z->opts.margin * 100, req ? "the records' own requests" : "max");
	fputs("<table class=\"savings\"><tr><th>strategy</th><th>memory GB hours</th>"
	      "<th>used</th><th>core hours</th><th>retried</th><th>failed</th><th>saved</th>"
	      "</tr>\n", f);
	for (s = 0; s < z->nstrat; s++)
		tally_row(f, rp_strat_name(sn, sizeof(sn), &z->strat[s]), &z->total[s].rec, base);
	if (req)
		tally_row(f, "requested", &t0->req, base);
	fputs("</table></section>\n", f);
}

void rp_sizing_html_across(FILE *f, char *const svg[3], size_t shown, size_t n)
{
	char why[128];
	size_t i;

	if (!svg[0] && !svg[1] && !svg[2])
		return;
	fputs("<section class=\"across\"><h2>Each resource across groups</h2>\n", f);
	if (shown < n)
		fprintf(f, "<p class=\"note\">The %zu largest of %zu groups.</p>\n", shown, n);
	fputs("<div class=\"plots\">\n", f);
	for (i = 0; i < 3; i++) {
		const char *start = svg[i] ? strstr(svg[i], "<svg") : NULL;

		if (start && html_svg_inert(start, why, sizeof(why)))
			fputs(start, f);
		else if (svg[i])
			error_msg("warning: a chart across groups is left out of the page: %s",
				  start ? why : "no <svg> element");
	}
	fputs("</div></section>\n", f);
}

void rp_sizing_html_group(FILE *f, const struct rp_sizing *z, size_t i)
{
	const struct rp_rec *r = &z->rec[0][i];
	const struct rp_replay *p = &z->rep[0][i];
	char sn[64], why[160];

	fprintf(f, "<p class=\"recommend\">Recommendation (%s): ",
		rp_strat_name(sn, sizeof(sn), &r->strat));
	if (!r->has)
		fprintf(f, "none: %s.", rp_rec_none_why(r));
	else {
		fprintf(f, "%" PRId64 " core%s, %" PRId64 " MB", r->cores, r->cores == 1 ? "" : "s",
			r->memory);
		if (r->disk >= 0)
			fprintf(f, ", disk %" PRId64 " MB", r->disk);
		if (r->wall_time >= 0)
			fprintf(f, ", %" PRId64 " min", r->wall_time / 60);
		fprintf(f, "; replayed: %zu of %zu tasks over it, %.1f of %.1f memory MB hours "
			"used.", p->rec.exceeded, p->rec.tasks, p->rec.mem_used, p->rec.mem_alloc);
	}
	if (rp_rec_floor_why(why, sizeof(why), r))
		fprintf(f, " Requests: %s.", why);
	if (r->fallback)
		fprintf(f, " %zu tasks, fewer than the %zu a quantile of %g needs: max instead.",
			r->used, r->need, r->strat.q);
	if (r->ex.failed || r->ex.no_memory || r->ex.absurd)
		fprintf(f, " Left out: %zu failed or stopped, %zu without memory, %zu absurd.",
			r->ex.failed, r->ex.no_memory, r->ex.absurd);
	/* numbers and fixed phrases only: nothing to escape */
	if (r->strat.s == RP_S_INPUT && r->has)
		rp_sizing_text_lines(f, r);
	fputs("</p>\n", f);
}

void rp_sizing_html(FILE *f, const struct rp_sizing *z, const struct rp_store *st,
		    const struct rp_cat *c, size_t n)
{
	savings(f, z);
	overview(f, z, st, c, n);
}
