/* SPDX-License-Identifier: MIT */
/* out_text.c: the terminal report, 80 columns wide: the run and its
 * failures (text_run.c), then each group, worst first.  A group's name is
 * printed in its shown form (safetext.h): no escape sequence, carriage
 * return, backspace or bidi override from an input reaches the terminal. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/outfile.h"
#include "report/write/fmt.h"
#include "report/write/output.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

/* Longest whole name printed under a group's header. */
#define NAME_MAX_SHOWN 400

int rp_write_file(const char *path, const void *data, size_t len)
{
	return outfile_write_named(path, data, len);
}

const char *rp_fmt_alloc(char *buf, size_t len, enum rp_ares a, int64_t v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else if (a == RP_A_CORES)
		snprintf(buf, len, "%" PRId64, v);
	else
		snprintf(buf, len, "%" PRId64 " MB", v);
	return buf;
}

/* The group's label and counts, on one line when they fit, else the
 * counts under the label; then the memory its max seen allocation leaves
 * unused (@waste GB hours: the order's second key). */
static void title(FILE *f, const struct rp_cat *c, double waste)
{
	char counts[200];
	int k;

	k = snprintf(counts, sizeof(counts), "%zu task%s, %zu succeeded, %zu stopped at a limit, "
		     "%zu failed", c->tasks, c->tasks == 1 ? "" : "s", c->succeeded,
		     c->exhausted, c->failed);
	if (c->running)
		k += snprintf(counts + k, sizeof(counts) - (size_t)k, ", %zu running (peaks so far)",
			      c->running);
	if (c->notes)
		snprintf(counts + k, sizeof(counts) - (size_t)k, ", %zu note%s", c->notes,
			 c->notes == 1 ? "" : "s");
	if (strlen(c->group->label) + 2 + strlen(counts) <= 80)
		fprintf(f, "%s: %s\n", c->group->label, counts);
	else
		fprintf(f, "%s:\n  %s\n", c->group->label, counts);
	if (waste >= 0.01) {	/* (less is noise) */
		char w[32];

		fprintf(f, "  memory left unused at cctools' max seen: %s GB hours\n",
			rp_fmt_hours(w, sizeof(w), waste));
	}
	/* the whole name, in shown form, where the label is not all of it */
	if (strcmp(c->group->label, c->group->name) != 0) {
		char *name = safetext_clip(c->group->name, NAME_MAX_SHOWN);

		fprintf(f, "  (%s)\n", name);
		free(name);
	}
}

static void figures(FILE *f, const struct rp_cat *c)
{
	char b[5][32];
	int r;

	fprintf(f, "  %-20s%11s%11s%11s%11s%11s\n", "resource", "min", "median",
		"p95", "max", "mean");
	for (r = 0; r < RP_RES__COUNT; r++) {
		const struct rp_stats *s = &c->stats[r];

		if (!c->shown[r])
			continue;
		fprintf(f, "  %-20s%11s%11s%11s%11s%11s\n", rp_res_fig(r)->name,
			rp_fmt_value(b[0], sizeof(b[0]), r, s->min),
			rp_fmt_value(b[1], sizeof(b[1]), r, s->median),
			rp_fmt_value(b[2], sizeof(b[2]), r, s->p95),
			rp_fmt_value(b[3], sizeof(b[3]), r, s->max),
			rp_fmt_value(b[4], sizeof(b[4]), r, s->mean));
	}
}

static void allocations(FILE *f, const struct rp_cat *c)
{
	char al[32], fit[16], waste[16];
	int m, a;

	fputs("  cctools' first allocations (what Work Queue and TaskVine would choose):\n", f);
	fprintf(f, "  %-14s", "first alloc.");
	for (a = 0; a < RP_A__COUNT; a++)
		fprintf(f, "%10s %4s %5s", rp_res_fig(rp_ares_res(a))->name,
			"fit", "waste");
	fprintf(f, "\n");
	for (m = 0; m < RP_MODE__COUNT; m++) {
		fprintf(f, "  %-14s", rp_mode_label(m));
		for (a = 0; a < RP_A__COUNT; a++)
			fprintf(f, "%10s %4s %5s",
				rp_fmt_alloc(al, sizeof(al), a, c->alloc[m][a]),
				rp_fmt_share(fit, sizeof(fit), c->fit[m][a].share),
				rp_fmt_share(waste, sizeof(waste), c->fit[m][a].waste));
		fprintf(f, "\n");
	}
}

/* The groups, worst first, and what the tables mean. */
static void groups(FILE *f, const struct rp_store *st, const struct rp_cat *c, size_t n,
		   const struct rp_sizing *z)
{
	double *waste = xreallocarray(NULL, n ? n : 1, sizeof(double));
	size_t *order = rp_text_order(st, c, n, waste), k;

	for (k = 0; k < n; k++) {
		size_t i = order[k];

		fprintf(f, "\n");
		title(f, &c[i], waste[i]);
		figures(f, &c[i]);
		allocations(f, &c[i]);
		if (z)
			rp_sizing_text_group(f, z, i);
	}
	free(order);
	free(waste);
	if (n > 0)
		fprintf(f, "\nfirst alloc.: what cctools' category code would choose "
			"(fit: tasks at or\nunder it; waste: allocated x wall time "
			"left unused by the tasks that fit;\n0: cctools truncated "
			"the largest value seen, under 1, to 0)\n");
	if (z && n > 0)
		rp_sizing_text(f, z, c);
}

void rp_out_text(FILE *f, const struct rp_store *st, const struct rp_cat *c, size_t n,
		 const struct rp_sizing *z)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {		/* (no memory: unfolded, straight out) */
		rp_text_run(f, st, c, n);
		groups(f, st, c, n, z);
		return;
	}
	rp_text_run(m, st, c, n);
	groups(m, st, c, n, z);
	fclose(m);
	rp_text_fold(f, buf, len);
	free(buf);
}
