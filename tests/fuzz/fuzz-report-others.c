/* SPDX-License-Identifier: MIT */
/* fuzz-report-others.c: libFuzzer harness for the readers of other tools'
 * records in `tpmon report` (Nextflow traces, Snakemake benchmark files,
 * sacct --parsable2) through rp_foreign_parse_text(), the input taken
 * whole and also after each format's header line, so that the fuzzer
 * reaches the row parsers at once.  Aborts when a task breaks the
 * readers' contract: a value neither unknown (NAN) nor a finite
 * non-negative number, an end before the start, counts that do not add
 * up, a task without a source. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "report/read/foreign.h"
#include "report/read/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const headers[] = {
	"",
	"task_id\thash\tname\tstatus\texit\tsubmit\tstart\tcomplete\tduration\trealtime\t%cpu\tpeak_rss\thostname\tcpus\tmemory\n",
	"s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\trule_name\tthreads\n",
	"JobID|JobName|State|Elapsed|TotalCPU|MaxRSS|ReqMem|AllocCPUS|NodeList|Start|End|ExitCode|NNodes\n",
};

static void check_store(const struct rp_store *st, const struct rp_foreign_counts *c)
{
	size_t i;
	int r;

	if (c->tasks < 0 || (size_t)c->tasks != st->n)
		abort();
	for (i = 0; i < st->n; i++) {
		const struct rp_task *t = &st->tasks[i];

		if (!t->source)
			abort();
		for (r = 0; r < RP_RES__COUNT; r++)
			if (!isnan(t->v[r]) && (!isfinite(t->v[r]) || t->v[r] < 0))
				abort();
		for (r = 0; r < RP_G__COUNT; r++)
			if (!isnan(t->given[r]) && (!isfinite(t->given[r]) || t->given[r] < 0))
				abort();
		if (!isnan(t->started) && !isnan(t->ended) && t->ended < t->started)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t h;

	for (h = 0; h < sizeof(headers) / sizeof(headers[0]); h++) {
		size_t hl = strlen(headers[h]);
		char *text = malloc(hl + size + 1);
		struct rp_foreign_counts c;
		struct rp_store st;

		memcpy(text, headers[h], hl);
		memcpy(text + hl, data, size);
		rp_store_init(&st);
		rp_foreign_parse_text(&st, h ? "benchmarks/rule/x.tsv" : "fuzz", text, hl + size, &c);
		check_store(&st, &c);
		rp_store_free(&st);
		free(text);
	}
	return 0;
}
