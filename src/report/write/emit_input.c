/* SPDX-License-Identifier: MIT */
/* emit_input.c: --recommend=input's requests as code the engines run: a
 * Nextflow closure over the size of the task's input files and
 * task.attempt, and a Snakemake include file that sets each rule's
 * mem_mb and runtime to a function of input.size_mb and attempt.  Both
 * compute what byinput.c's replay gives: the line, the margin, the
 * report's rounding, within [floor, cap] on the first attempt; a retry
 * RP_INPUT_GROWTH times the attempt before, at least the cap, within
 * --max.  Numbers only are written into the code: names go through the
 * escapes of escape.c. */
#include <inttypes.h>
#include <stdio.h>
#include "report/write/sizing_out.h"

/* "%.17g" keeps a double exact in Groovy and Python alike. */
#define NUM "%.17g"

static void nf_round(FILE *f, bool mem)
{
	if (mem)
		fputs("            def rnd = { double v -> double s = v <= 1024 ? 64 : "
		      "v <= 16384 ? 256 : 1024; Math.max(64d, Math.ceil(v / s - 1e-9) * s) }\n", f);
	else
		fputs("            def rnd = { double v -> Math.max(60d, "
		      "Math.ceil(v / 60 - 1e-9) * 60) }\n", f);
}

void rp_emit_nf_line(FILE *f, const char *key, const struct rp_line *l, bool mem, double top)
{
	fprintf(f, "        %s = {\n", key);
	fputs("            double x = (delegate.values().flatten().findAll { it instanceof "
	      "java.nio.file.Path }\n"
	      "                .sum { java.nio.file.Files.size(it) } ?: 0) / 1048576d\n", f);
	nf_round(f, mem);
	fprintf(f, "            double v = Math.max(0d, " NUM " * x + " NUM ") * " NUM "\n",
		l->slope, l->icpt, 1 + l->margin);
	fprintf(f, "            double g = v >= %" PRId64 " ? %" PRId64 " : Math.min(%" PRId64
		"d, Math.max(%" PRId64 "d, rnd(v)))\n", l->hi, l->hi, l->hi, l->lo);
	fprintf(f, "            for (int k = 1; k < task.attempt; k++)\n"
		"                g = rnd(Math.max(g * " NUM ", %" PRId64 "d))\n",
		RP_INPUT_GROWTH, l->hi);
	if (top >= 0)
		fprintf(f, "            g = Math.min(g, %.0fd)\n", top);
	fprintf(f, mem ? "            (g as long).MB\n" : "            ((g / 60) as long).min\n");
	fputs("        }\n", f);
}

/* The Python function every rule's requests call. */
static void smk_prelude(FILE *f)
{
	fputs("import math as _tpmon_math\n\n\n"
	      "def _tpmon_request(slope, icpt, margin, lo, hi, top, mem):\n"
	      "    def rnd(v):\n"
	      "        if not mem:\n"
	      "            return max(60, _tpmon_math.ceil(v / 60 - 1e-9) * 60)\n"
	      "        s = 64 if v <= 1024 else 256 if v <= 16384 else 1024\n"
	      "        return max(64, _tpmon_math.ceil(v / s - 1e-9) * s)\n\n"
	      "    def request(wildcards, input, attempt):\n"
	      "        v = max(0.0, slope * input.size_mb + icpt) * (1 + margin)\n"
	      "        g = hi if not v < hi else min(hi, max(lo, rnd(v)))\n"
	      "        for _ in range(1, attempt):\n", f);
	fprintf(f, "            g = rnd(max(g * " NUM ", hi))\n", RP_INPUT_GROWTH);
	fputs("        if top >= 0:\n"
	      "            g = min(g, top)\n"
	      "        return int(g) if mem else int(g // 60)\n"
	      "    return request\n\n\n"
	      "def _tpmon_set(name, key, value):\n"
	      "    proxy = getattr(rules, name, None)\n"
	      "    if proxy is not None:\n"
	      "        proxy.rule.resources[key] = value\n\n\n", f);
}

/* One resource of rule @name: the line's function, or the fixed value
 * (@fixed in MB or s; < 0: none). */
static void smk_resource(FILE *f, const char *name, const char *key, const struct rp_line *l,
			 int64_t fixed, bool mem, double top)
{
	if (!l->on && fixed < 0)
		return;
	fprintf(f, "_tpmon_set(\"%s\", \"%s\", ", name, key);
	if (l->on)
		fprintf(f, "_tpmon_request(" NUM ", " NUM ", " NUM ", %" PRId64 ", %" PRId64
			", %.0f, %s))\n", l->slope, l->icpt, l->margin, l->lo, l->hi,
			top >= 0 ? top : -1, mem ? "True" : "False");
	else
		fprintf(f, "%" PRId64 ")\n", mem ? fixed : fixed / 60);
}

int rp_emit_snakemake_input(FILE *f, const struct rp_sizing *z, const struct rp_cat *c,
			    const double max[RP_A__COUNT])
{
	size_t i;
	int written = 0;

	fputs("# Snakemake resources written by tpmon report --recommend=input\n"
	      "# Use: include: \"THIS_FILE\" at the end of the Snakefile, after its rules;\n"
	      "# mem_mb and runtime follow input.size_mb and the attempt (--restart-times).\n",
	      f);
	smk_prelude(f);
	for (i = 0; i < z->ng; i++) {
		const struct rp_rec *r = &z->rec[0][i];
		const char *name = c[i].group->name;

		if (!r->has || !rp_identifier(name))
			continue;
		smk_resource(f, name, "mem_mb", &r->line[RP_L_MEMORY], r->memory, true,
			     max[RP_A_MEMORY]);
		smk_resource(f, name, "runtime", &r->line[RP_L_WALL_TIME], r->wall_time, false,
			     -1);
		written++;
	}
	rp_emit_left_out(f, "#", z, c, rp_smk_why);
	return written;
}
