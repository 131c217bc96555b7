/* SPDX-License-Identifier: MIT */
/* html_run.c: the top of the --html page: the run at a glance (tasks by
 * how they ended, core hours and memory GB hours used against allocated,
 * the time span) and the table of tasks that failed or were stopped, with
 * each by its name (a Nextflow task's name, tag and hash; a summary's
 * category and command; its record's path on hover), their exit codes,
 * causes and notes, sortable by a small inline script
 * that the page's Content-Security-Policy allows by its hash only.  Text
 * from the inputs goes through html_text(). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/analyse/runsum.h"
#include "report/write/fmt.h"
#include "report/write/html.h"
#include "report/write/output.h"

/* The most rows of the failed-task table (the rest are counted). */
#define FAILED_ROWS_MAX 1000

/* Sorts a table.sortable by the column whose header is clicked (numbers by
 * a cell's data-v, else its text).  RP_HTML_SCRIPT_HASH is the SHA-256 of
 * exactly these bytes, base64 (tests/report-trust.test checks it). */
const char rp_html_script[] =
	"document.querySelectorAll('table.sortable th').forEach(function(h){"
	"h.addEventListener('click',function(){var b=h.closest('table').tBodies[0],"
	"i=h.cellIndex,d=h.dataset.dir==='a'?-1:1,r=Array.prototype.slice.call(b.rows);"
	"h.dataset.dir=d>0?'a':'d';r.sort(function(x,y){var p=x.cells[i].dataset.v||"
	"x.cells[i].textContent,q=y.cells[i].dataset.v||y.cells[i].textContent,"
	"m=parseFloat(p),n=parseFloat(q);return d*(isNaN(m)||isNaN(n)?p.localeCompare(q)"
	":m-n);});r.forEach(function(e){b.appendChild(e);});});});";

static void usage_row(FILE *f, const char *what, double used, double alloc)
{
	char u[32], a[32];

	fprintf(f, "<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n", what,
		rp_fmt_hours(u, sizeof(u), used), rp_fmt_hours(a, sizeof(a), alloc));
}

static void run_summary(FILE *f, const struct rp_runsum *s)
{
	char a[40], b[40];

	fprintf(f, "<section class=\"run\"><h2>Run summary</h2>\n<p class=\"verdict\">"
		"<span class=\"ok\">%zu succeeded</span><span class=\"bad\">%zu failed</span>"
		"<span class=\"bad\">%zu stopped at a limit</span><span>%zu running</span>"
		"<span>%zu notes</span></p>\n", s->succeeded, s->failed, s->exhausted,
		s->running, s->notes);
	if (s->running)
		fputs("<p class=\"note\">A running task is counted neither as succeeded nor as "
		      "failed: its figures are its peaks so far.</p>\n", f);
	fputs("<table class=\"usage\"><tr><th></th><th>used</th><th>allocated</th></tr>\n", f);
	usage_row(f, "CPU (core hours)", s->used.core_h, s->alloc.core_h);
	usage_row(f, "memory (GB hours)", s->used.mem_gbh, s->alloc.mem_gbh);
	fputs("</table>\n", f);
	fprintf(f, "<p>From %s to %s", rp_fmt_utc(a, sizeof(a), s->first),
		rp_fmt_utc(b, sizeof(b), s->last));
	if (!isnan(s->first) && !isnan(s->last) && s->last >= s->first) {
		char d[32];

		fprintf(f, " (%s)", rp_fmt_value(d, sizeof(d), RP_WALL_TIME, s->last - s->first));
	}
	fputs(".</p>\n", f);
}

/* A cell of untrusted text, "-" when NULL. */
static void text_cell(FILE *f, const char *s)
{
	fputs("<td class=\"text\">", f);
	html_text(f, s ? s : "-");
	fputs("</td>", f);
}

/* The task by its name (rp_task_name_dup()), its record's path on hover. */
static void task_cell(FILE *f, const struct rp_task *t)
{
	char *name = rp_task_name_dup(t);

	fputs("<td class=\"text\" title=\"", f);
	html_text(f, t->source ? t->source : "-");
	fputs("\">", f);
	html_text(f, name);
	fputs("</td>", f);
	free(name);
}

static void failed_row(void *ctx, const struct rp_cat *c, const struct rp_task *t)
{
	FILE *f = ctx;

	fputs("<tr><td class=\"name\" title=\"", f);
	html_text(f, c->group->name);
	fputs("\">", f);
	html_text(f, c->group->label);
	fputs("</td>", f);
	task_cell(f, t);
	if (t->exit_status >= 0)
		fprintf(f, "<td data-v=\"%ld\">%ld</td>", t->exit_status, t->exit_status);
	else
		fputs("<td data-v=\"-1\">-</td>", f);
	fputs(t->end == RP_EXHAUSTED ? "<td>stopped at a limit</td>" : "<td>failed</td>", f);
	text_cell(f, t->cause ? t->cause : t->exit_type);
	text_cell(f, t->detail);
	text_cell(f, t->notes_text);
	fputs("</tr>\n", f);
}

static void failed_table(FILE *f, const struct rp_store *st, const struct rp_cat *c, size_t n,
			 size_t bad)
{
	size_t shown;

	fprintf(f, "<section class=\"failed\"><h2>Tasks that failed or were stopped (%zu)</h2>\n"
		"<p class=\"note\">Click a column's header to sort by it.</p>\n"
		"<table class=\"sortable failed\"><thead><tr><th>group</th><th>task</th>"
		"<th>exit code</th><th>ended</th><th>cause</th><th>detail</th><th>notes</th>"
		"</tr></thead><tbody>\n", bad);
	shown = rp_runsum_failed(st, c, n, FAILED_ROWS_MAX, failed_row, f);
	fputs("</tbody></table>\n", f);
	if (shown > FAILED_ROWS_MAX)
		fprintf(f, "<p class=\"note\">and %zu more, not shown.</p>\n",
			shown - FAILED_ROWS_MAX);
	fputs("</section>\n", f);
}

void rp_html_run(FILE *f, const struct rp_store *st, const struct rp_cat *c, size_t n)
{
	struct rp_runsum s;

	rp_runsum_compute(st, c, n, &s);
	run_summary(f, &s);
	if (s.failed + s.exhausted > 0)
		failed_table(f, st, c, n, s.failed + s.exhausted);
}
