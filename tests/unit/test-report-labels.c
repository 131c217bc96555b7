/* SPDX-License-Identifier: MIT */
/* test-report-labels.c: the one label of each group (analyse/labels.c):
 * the shortest distinct ':'-suffix, cut at word boundaries with "..",
 * unique even where cutting makes two equal, and in shown form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/analyse/labels.h"
#include "tap.h"

#define ELL ".."

static struct rp_group *groups(const char *const *names, size_t n)
{
	struct rp_group *g = calloc(n, sizeof(*g));
	size_t i;

	for (i = 0; i < n; i++)
		g[i].name = strdup(names[i]);
	rp_labels_assign(g, n);
	return g;
}

static void free_groups(struct rp_group *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(g[i].name);
		free(g[i].label);
	}
	free(g);
}

static void suffixes(void)
{
	const char *in[] = { "A:B:FASTQC", "A:C:FASTQC", "A:B:SORT", "FASTQC", "X:Y:B:FASTQC" };
	const char *want[] = { "A:B:FASTQC", "C:FASTQC", "SORT", "FASTQC", "Y:B:FASTQC" };
	struct rp_group *g = groups(in, 5);
	int i;

	for (i = 0; i < 5; i++)
		is_str(g[i].label, want[i], "label of %s", in[i]);
	free_groups(g, 5);
}

/* cut at word boundaries: no word is split, the end is kept */
static void cuts(void)
{
	char *s = rp_label_cut("BAM_BEDGRAPH_BIGWIG_BEDTOOLS_UCSC:DEEPTOOLS_COMPUTEMATRIX", 32);

	is_str(s, "BAM_BEDGRAPH" ELL "COMPUTEMATRIX", "cut at words, head and tail");
	free(s);
	s = rp_label_cut("SHORT_NAME", 32);
	is_str(s, "SHORT_NAME", "a short name whole");
	free(s);
	s = rp_label_cut("ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOP", 32);
	ok(strstr(s, ELL) != NULL && strlen(s) <= 32, "one long word cut by characters: %s", s);
	free(s);
}

/* names that cut to the same label get (2), (3): no two equal */
static void unique(void)
{
	const char *in[] = {
		"P:WORKFLOW_ONE_ALIGN_EXTRA_X_STEP_LONG_NAME_SORT_FINAL",
		"Q:WORKFLOW_ONE_ALIGN_EXTRA_Y_STEP_LONG_NAME_SORT_FINAL",
		"R:WORKFLOW_ONE_ALIGN_EXTRA_Z_STEP_LONG_NAME_SORT_FINAL",
		"bad\x1b[31mname",
	};
	struct rp_group *g = groups(in, 4);
	size_t i, j, same = 0;

	for (i = 0; i < 4; i++)
		for (j = i + 1; j < 4; j++)
			same += strcmp(g[i].label, g[j].label) == 0;
	ok(same == 0, "no two labels equal");
	ok(strstr(g[1].label, " (2)") || strstr(g[2].label, " (2)"), "a clash numbered: %s",
	   g[1].label);
	is_str(g[3].label, "bad\\x1b[31mname", "an escape shown, not sent");
	for (i = 0; i < 4; i++)
		ok(strlen(g[i].label) <= RP_LABEL_MAX, "%s within %d characters", g[i].label,
		   RP_LABEL_MAX);
	free_groups(g, 4);
}

int main(void)
{
	plan(15);
	suffixes();
	cuts();
	unique();
	return done();
}
