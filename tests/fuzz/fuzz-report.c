/* SPDX-License-Identifier: MIT */
/* fuzz-report.c: libFuzzer harness for `tpmon report`'s readers of outside
 * input: the input as a Work Queue / TaskVine transaction log
 * (rp_txnlog_read() through fmemopen: its bounded lines, its check of
 * each record's measures) and as a summary (rp_summary_parse(): jansson,
 * the summary's keys, rp_summary_check(); then rp_summary_fill(), as the
 * reader does, and `tpmon plot` through rp_summary_load()).  Aborts
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
	json_decref(root);
	check_store(&st);
	rp_store_free(&st);
	return 0;
}
