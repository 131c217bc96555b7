/* SPDX-License-Identifier: MIT */
/* fuzz-report.c: libFuzzer harness for `tpmon report`'s readers of outside
 * input: the input as a Work Queue / TaskVine transaction log
 * (rp_txnlog_read() through fmemopen: its bounded lines, its check of
 * each record's measures) and as a summary (rp_summary_parse(): jansson,
 * the summary's keys, rp_summary_check(); then rp_summary_fill(), as the
 * reader does, and `tpmon plot` through rp_summary_load()); and the
 * one-pass scanner (rp_sumscan_fill()) against jansson: what it takes,
 * jansson must take, with the same figures and strings.  Aborts
 * when a task read breaks the reader's contract: a value neither unknown
 * (NAN) nor a finite non-negative number, a string longer than
 * RP_STRING_MAX, a task without a source. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include "report/read/rsummary.h"
#include "report/read/store.h"
#include "report/read/sumscan.h"
#include "report/read/txnlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_store(const struct rp_store *st)
{
	size_t i;
	int r;

	for (i = 0; i < st->n; i++) {
		const struct rp_task *t = &st->tasks[i];

		if (!t->source)
			abort();
		if ((t->category && strlen(t->category) > RP_STRING_MAX) ||
		    (t->command && strlen(t->command) > RP_STRING_MAX) ||
		    (t->host && strlen(t->host) > RP_STRING_MAX))
			abort();
		for (r = 0; r < RP_RES__COUNT; r++)
			if (!isnan(t->v[r]) && (!isfinite(t->v[r]) || t->v[r] < 0))
				abort();
	}
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The scanner over @data: when it takes it, @root (jansson's reading)
 * must exist and @t (filled from it) hold what the scanner read. */
static void check_scan(const uint8_t *data, size_t size, const json_t *root,
		       const struct rp_task *t)
{
	struct rp_task f;
	char *copy = malloc(size + 1);

	if (!copy)
		return;
	memcpy(copy, data, size);
	copy[size] = '\0';
	rp_task_init(&f);
	if (rp_sumscan_fill(&f, copy, size) == 0) {
		if (!root || memcmp(f.v, t->v, sizeof(f.v)) != 0 ||
		    memcmp(&f.started, &t->started, sizeof(double)) != 0 ||
		    memcmp(&f.ended, &t->ended, sizeof(double)) != 0 ||
		    !str_eq(f.category, t->category) || !str_eq(f.command, t->command) ||
		    !str_eq(f.host, t->host) || !str_eq(f.exit_type, t->exit_type) ||
		    f.exit_status != t->exit_status)
			abort();
	}
	rp_task_clear(&f);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rp_store st;
	json_t *root;
	char why[128];
	FILE *f;

	rp_store_init(&st);
	f = size ? fmemopen((void *)data, size, "r") : NULL;
	if (f) {
		rp_txnlog_read(&st, f, "fuzz");
		fclose(f);
	}
	root = rp_summary_parse((const char *)data, size, why, sizeof(why));
	if (root)
		rp_summary_fill(rp_store_add(&st, "fuzz"), root);
	check_scan(data, size, root, root ? &st.tasks[st.n - 1] : NULL);
	json_decref(root);
	check_store(&st);
	rp_store_free(&st);
	return 0;
}
