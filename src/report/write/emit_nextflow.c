/* SPDX-License-Identifier: MIT */
/* emit_nextflow.c: a Nextflow config (-c FILE) with a withName block per
 * process, on its fully qualified name, which overrides the pipeline's
 * labels.  quantile:Q retries as nf-core's task.attempt pattern (memory
 * and time times the attempt; memory only where the group's failures
 * were all OOM kills, by their summaries' ending.cause); throughput and waste retry with cctools'
 * max allocation; input writes closures over the inputs' sizes
 * (emit_input.c); --max becomes process.resourceLimits. */
#include <inttypes.h>
#include <stdio.h>
#include "report/write/sizing_out.h"

static void header(FILE *f, const struct rp_sizing *z, const char *what)
{
	char sn[64];

	fprintf(f, "%s written by tpmon report --recommend=%s --margin=%g%%\n", what,
		rp_strat_name(sn, sizeof(sn), &z->strat[0]), z->opts.margin * 100);
}

/* "memory = 1536.MB", or a closure when tries differ. */
static void resource(FILE *f, const char *key, const struct rp_rec *r, int64_t v,
		     int64_t retry, const char *unit)
{
	bool cc = r->strat.s == RP_S_THROUGHPUT || r->strat.s == RP_S_WASTE;

	if (r->strat.s == RP_S_QUANTILE)
		fprintf(f, "        %s = { %" PRId64 ".%s * task.attempt }\n", key, v, unit);
	else if (cc && retry > v)
		fprintf(f, "        %s = { task.attempt == 1 ? %" PRId64 ".%s : %" PRId64
			".%s }\n", key, v, unit, retry, unit);
	else
		fprintf(f, "        %s = %" PRId64 ".%s\n", key, v, unit);
}

/* input: memory and time on the input size where fitted; retries as
 * byinput.c's replay (maxRetries 2); a group that fell back is max's. */
static void block_input(FILE *f, const struct rp_rec *r, const double max[RP_A__COUNT])
{
	const struct rp_line *m = &r->line[RP_L_MEMORY], *w = &r->line[RP_L_WALL_TIME];

	fprintf(f, " {\n        cpus = %" PRId64 "\n", r->cores);
	if (m->on)
		rp_emit_nf_line(f, "memory", m, true, max[RP_A_MEMORY]);
	else
		fprintf(f, "        memory = %" PRId64 ".MB\n", r->memory);
	if (r->disk >= 0)
		fprintf(f, "        disk = %" PRId64 ".MB\n", r->disk);
	if (w->on)
		rp_emit_nf_line(f, "time", w, false, -1);
	else if (r->wall_time >= 0)
		fprintf(f, "        time = %" PRId64 ".min\n", r->wall_time / 60);
	if (m->on)
		fprintf(f, "        errorStrategy = { task.exitStatus in ((130..145) + 104) ? "
			"'retry' : 'finish' }\n        maxRetries = %d\n", RP_RETRIES);
	fputs("    }\n", f);
}

static void block(FILE *f, const struct rp_rec *r, const double max[RP_A__COUNT])
{
	bool retry = r->strat.s != RP_S_MAX;

	if (r->strat.s == RP_S_INPUT) {
		block_input(f, r, max);
		return;
	}
	fprintf(f, " {\n        cpus = %" PRId64 "\n", r->cores);
	resource(f, "memory", r, r->memory, r->retry[RP_A_MEMORY], "MB");
	if (r->disk >= 0)
		resource(f, "disk", r, r->disk, r->retry[RP_A_DISK], "MB");
	/* failures that were all OOM kills: the retry raises memory only */
	if (r->wall_time >= 0 && r->retry_memory_only)
		fprintf(f, "        time = %" PRId64 ".min\n", r->wall_time / 60);
	else if (r->wall_time >= 0)
		resource(f, "time", r, r->wall_time / 60, -1, "min");
	if (retry)
		fprintf(f, "        errorStrategy = { task.exitStatus in ((130..145) + 104) ? "
			"'retry' : 'finish' }\n        maxRetries = %d\n",
			r->strat.s == RP_S_QUANTILE ? RP_RETRIES : 1);
	fputs("    }\n", f);
}

static void limits(FILE *f, const double max[RP_A__COUNT])
{
	const char *sep = "";

	if (max[RP_A_CORES] < 0 && max[RP_A_MEMORY] < 0 && max[RP_A_DISK] < 0)
		return;
	fputs("    resourceLimits = [", f);
	if (max[RP_A_CORES] >= 0)
		fprintf(f, "%scpus: %.0f", sep, max[RP_A_CORES]), sep = ", ";
	if (max[RP_A_MEMORY] >= 0)
		fprintf(f, "%smemory: %.0f.MB", sep, max[RP_A_MEMORY]), sep = ", ";
	if (max[RP_A_DISK] >= 0)
		fprintf(f, "%sdisk: %.0f.MB", sep, max[RP_A_DISK]);
	fputs("]\n", f);
}

/* Why a process is left out, or NULL. */
static const char *nf_why(const struct rp_rec *r, const char *name)
{
	if (!r->has)
		return rp_rec_none_why(r);
	return rp_printable_ascii(name) ? NULL : "a byte outside printable ASCII";
}

int rp_emit_nextflow(FILE *f, const struct rp_sizing *z, const struct rp_cat *c,
		     const double max[RP_A__COUNT])
{
	size_t i, none = 0, bad = 0;
	int written = 0;

	header(f, z, "// Nextflow config");
	fputs("// Use: nextflow run PIPELINE -c THIS_FILE (withName overrides labels)\n", f);
	fputs("process {\n", f);
	limits(f, max);
	for (i = 0; i < z->ng; i++) {
		const struct rp_rec *r = &z->rec[0][i];

		if (!r->has) {
			none++;
			continue;
		}
		if (!rp_printable_ascii(c[i].group->name)) {
			bad++;
			continue;
		}
		fputs("    withName: ", f);
		rp_groovy_regex(f, c[i].group->name);
		block(f, r, max);
		written++;
	}
	fputs("}\n", f);
	if (none)
		fprintf(f, "// %zu process%s without a usable task: left out\n", none,
			none == 1 ? "" : "es");
	if (bad)
		fprintf(f, "// %zu name%s with bytes outside printable ASCII: left out\n",
			bad, bad == 1 ? "" : "s");
	rp_emit_left_out(f, "//", z, c, nf_why);
	return written;
}
