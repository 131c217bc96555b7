/* SPDX-License-Identifier: MIT */
/* notes.c: the report's notes on its sources. */
#include <stdlib.h>
#include <string.h>
#include "report/analyse/notes.h"
#include "basic/xmalloc.h"

static const char nextflow[] =
	"Nextflow traces: memory is peak_rss, the sum of each process's own peak "
	"(VmHWM), peaks that may never have happened at once, read by ps every "
	"few seconds (a short task may have none); cores is %cpu / 100, the mean "
	"over the task's realtime, and cpu_time is %cpu / 100 x realtime; "
	"wall_time is realtime; bytes_read and bytes_written are read_bytes and "
	"write_bytes; tasks are grouped by process (or by name without its tag).";
static const char snakemake[] =
	"Snakemake benchmark files: memory is max_rss and memory_pss max_pss, "
	"the largest sum over the job's processes at a psutil sample (every "
	"0.5 s, then every 30 s; a job that ended before the first sample gets "
	"NA from Snakemake 8 and 0 from Snakemake 7, both unknown here); cores is "
	"cpu_time / s, the mean; tasks are grouped by rule_name where the file "
	"has it, else by the benchmark file's directory (benchmarks/RULE/...) or "
	"name (benchmarks/RULE.tsv).";
static const char sacct[] =
	"sacct: one task per job; memory is the largest MaxRSS of its steps, and "
	"a step's MaxRSS is its largest single task, not the sum over its tasks "
	"(and is sampled, every 30 s by default); cores is TotalCPU / Elapsed, "
	"the mean; OUT_OF_MEMORY and TIMEOUT count as stopped at a limit; "
	"tasks are grouped by JobName.";

size_t rp_notes(const struct rp_store *st, char **out, size_t max)
{
	size_t n = 0;

	if (n < max && st->kinds[RP_K_NEXTFLOW])
		out[n++] = xstrdup(nextflow);
	if (n < max && st->kinds[RP_K_SNAKEMAKE])
		out[n++] = xstrdup(snakemake);
	if (n < max && st->kinds[RP_K_SACCT])
		out[n++] = xstrdup(sacct);
	if (n < max && st->unended)
		out[n++] = xasprintf("%zu record%s of tasks that did not end there "
				     "(Nextflow's CACHED, Slurm's PENDING or RUNNING) "
				     "left out.", st->unended, st->unended == 1 ? "" : "s");
	return n;
}

/* @s on @f in lines of at most @width columns, broken at spaces. */
static void wrap(FILE *f, const char *s, size_t width)
{
	while (strlen(s) > width) {
		size_t cut = width;

		while (cut > 0 && s[cut] != ' ')
			cut--;
		if (cut == 0)
			cut = width;
		fprintf(f, "%.*s\n", (int)cut, s);
		s += cut;
		while (*s == ' ')
			s++;
	}
	fprintf(f, "%s\n", s);
}

void rp_notes_text(FILE *f, const struct rp_store *st)
{
	char *notes[8];
	size_t n = rp_notes(st, notes, 8), i;

	for (i = 0; i < n; i++) {
		fputc('\n', f);
		wrap(f, notes[i], 78);
		free(notes[i]);
	}
}
