/* SPDX-License-Identifier: MIT */
/* text_run.c: what the terminal report leads with: the run in a line (tasks
 * by how they ended, the wall-clock span), the tasks that failed or were
 * stopped, each by its name and cause; the order of its groups, worst
 * first; and the fold that keeps every line within 80 columns.  Text from
 * the inputs is printed in its shown form (safetext.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/safetext.h"
#include "basic/xmalloc.h"
#include "report/analyse/runsum.h"
#include "report/write/fmt.h"
#include "report/write/output.h"

/* The most failed tasks named (the rest are counted). */
#define FAILED_SHOWN 20
/* Width of the terminal report. */
#define WIDTH 80

static void run_line(FILE *f, const struct rp_runsum *s)
{
	char a[40], b[40], d[32];

	/* (not "NAME: N tasks, ...", as a group's header) */
	fprintf(f, "run of %zu task%s: %zu succeeded, %zu stopped at a limit, %zu failed, "
		"%zu running\n", s->tasks, s->tasks == 1 ? "" : "s", s->succeeded, s->exhausted,
		s->failed, s->running);
	if (isnan(s->first) || isnan(s->last) || s->last < s->first)
		return;
	fprintf(f, "  from %s to %s (%s)\n", rp_fmt_utc(a, sizeof(a), s->first),
		rp_fmt_utc(b, sizeof(b), s->last),
		rp_fmt_value(d, sizeof(d), RP_WALL_TIME, s->last - s->first));
}

/* Why @t ended, a new string: its summary's cause, else its exit type
 * and status. */
static char *cause_dup(const struct rp_task *t)
{
	if (t->cause)
		return safetext_clip(t->cause, 24);
	if (t->exit_status >= 0)
		return xasprintf("exit %ld", t->exit_status);
	return safetext_clip(t->exit_type ? t->exit_type : "unknown", 24);
}

/* The shown form of @s, its start cut (to "...") so that it holds at
 * most @max bytes: the end of a task's name (its tag, its hash) is what
 * tells it from the others. */
static char *clip_start(const char *s, size_t max)
{
	char *shown = safetext_dup(s), *r;
	size_t len = strlen(shown), k;

	if (len <= max)
		return shown;
	for (k = len - (max - 3); ((unsigned char)shown[k] & 0xc0) == 0x80; k++)
		;
	r = xasprintf("...%s", shown + k);
	free(shown);
	return r;
}

/* "  failed   NAME: CAUSE", the group's whole name at the start of the
 * task's name given as its label (the headers' name for it), the start
 * cut so that the line fits. */
static void failed_line(void *ctx, const struct rp_cat *c, const struct rp_task *t)
{
	const struct rp_group *g = c->group;
	FILE *f = ctx;
	char *cause = cause_dup(t), *raw = rp_task_name_dup(t), *name;
	size_t glen = strlen(g->name), room = WIDTH - 2 - 9 - 2 - strlen(cause);

	if (strncmp(raw, g->name, glen) == 0 && strcmp(g->label, g->name) != 0) {
		char *with_label = xasprintf("%s%s", g->label, raw + glen);

		free(raw);
		raw = with_label;
	}
	name = clip_start(raw, room < 20 ? 20 : room);
	fprintf(f, "  %-9s%s: %s\n", t->end == RP_EXHAUSTED ? "stopped" : "failed", name, cause);
	free(name);
	free(raw);
	free(cause);
}

void rp_text_run(FILE *f, const struct rp_store *st, const struct rp_cat *c, size_t n)
{
	struct rp_runsum s;
	size_t bad;

	rp_runsum_compute(st, c, n, &s);
	run_line(f, &s);
	bad = s.failed + s.exhausted;
	if (bad == 0)
		return;
	fprintf(f, "\nfailed or stopped at a limit (%zu task%s):\n", bad, bad == 1 ? "" : "s");
	rp_runsum_failed(st, c, n, FAILED_SHOWN, failed_line, f);
	if (bad > FAILED_SHOWN)
		fprintf(f, "  and %zu more (--csv lists every task, with its status)\n",
			bad - FAILED_SHOWN);
}

struct ranked {
	size_t i;
	size_t bad;		/* failed and stopped */
	double waste;
};

static int ranked_cmp(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->bad != b->bad)
		return a->bad < b->bad ? 1 : -1;
	if (a->waste != b->waste)
		return a->waste < b->waste ? 1 : -1;
	return a->i < b->i ? -1 : a->i > b->i;
}

size_t *rp_text_order(const struct rp_store *st, const struct rp_cat *c, size_t n,
		      double *waste)
{
	struct ranked *r = xreallocarray(NULL, n ? n : 1, sizeof(*r));
	size_t *order = xreallocarray(NULL, n ? n : 1, sizeof(*order)), i;

	for (i = 0; i < n; i++) {
		r[i].i = i;
		r[i].bad = c[i].failed + c[i].exhausted;
		r[i].waste = waste[i] = rp_group_waste_gbh(st, &c[i]);
	}
	qsort(r, n, sizeof(*r), ranked_cmp);
	for (i = 0; i < n; i++)
		order[i] = r[i].i;
	free(r);
	return order;
}

/* Where to cut the @len bytes at @s, at most @max of them: after the last
 * blank, else at a character boundary. */
static size_t cut_at(const char *s, size_t len, size_t max)
{
	size_t k;

	if (len <= max)
		return len;
	for (k = max; k > max / 2; k--)
		if (s[k] == ' ')
			return k;
	for (k = max; k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80; k--)
		;
	return k ? k : max;
}

/* One line of @len bytes (no newline), folded with its indent plus 4. */
static void fold_line(FILE *f, const char *s, size_t len)
{
	size_t indent = strspn(s, " "), first = 1;

	if (indent > WIDTH / 2)
		indent = 0;
	while (len > 0) {
		size_t lead = first ? 0 : indent + 4;
		size_t k = cut_at(s, len, WIDTH - lead);

		fprintf(f, "%*s%.*s\n", (int)lead, "", (int)k, s);
		s += k, len -= k, first = 0;
		while (len > 0 && *s == ' ')
			s++, len--;
	}
}

void rp_text_fold(FILE *f, const char *text, size_t len)
{
	while (len > 0) {
		const char *nl = memchr(text, '\n', len);
		size_t k = nl ? (size_t)(nl - text) : len;

		if (k == 0)
			fputc('\n', f);
		else
			fold_line(f, text, k);
		k += nl != NULL;
		text += k, len -= k;
	}
}
