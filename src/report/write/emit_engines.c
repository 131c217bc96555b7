/* SPDX-License-Identifier: MIT */
/* emit_engines.c: the recommendations as a Snakemake profile (7.21's
 * set-threads and set-resources lists), as #SBATCH lines per Slurm job
 * name, as HTCondor submit-description lines per group, and as a Python
 * snippet that gives a TaskVine or Work Queue
 * manager each category's first allocation and mode. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "report/write/sizing_out.h"
#include "basic/xmalloc.h"

static void header(FILE *f, const struct rp_sizing *z, const char *what)
{
	char sn[64];

	fprintf(f, "# %s written by tpmon report --recommend=%s --margin=%g%%\n", what,
		rp_strat_name(sn, sizeof(sn), &z->strat[0]), z->opts.margin * 100);
}

const char *rp_smk_why(const struct rp_rec *r, const char *name)
{
	if (!r->has)
		return rp_rec_none_why(r);
	return rp_identifier(name) ? NULL : "not a rule name";
}

/* ... of the other files. */
static const char *none_why(const struct rp_rec *r, const char *name)
{
	(void)name;
	return r->has ? NULL : rp_rec_none_why(r);
}

/* The counts of the groups left out, then each named with its reason. */
static void left_out(FILE *f, size_t none, size_t bad, const char *why,
		     const struct rp_sizing *z, const struct rp_cat *c,
		     const char *(*each)(const struct rp_rec *r, const char *name))
{
	if (none)
		fprintf(f, "# %zu group%s without a usable task: left out\n", none,
			none == 1 ? "" : "s");
	if (bad)
		fprintf(f, "# %zu group%s %s: left out\n", bad, bad == 1 ? "" : "s", why);
	rp_emit_left_out(f, "#", z, c, each);
}

/* One list item "NAME<key>V", as a YAML string. */
static void yaml_item(FILE *f, const char *name, const char *key, int64_t v)
{
	char *item = xasprintf("%s%s%" PRId64, name, key, v);

	fputs("  - ", f);
	rp_yaml_string(f, item);
	fputc('\n', f);
	free(item);
}

int rp_emit_snakemake(FILE *f, const struct rp_sizing *z, const struct rp_cat *c)
{
	size_t i, none = 0, bad = 0;
	int written = 0;
	int pass;

	header(f, z, "Snakemake profile (7.21 syntax)");
	fputs("# Use: save as DIR/config.yaml, run snakemake --profile DIR\n", f);
	for (pass = 0; pass < 2; pass++) {
		fputs(pass == 0 ? "set-threads:\n" : "set-resources:\n", f);
		for (i = 0; i < z->ng; i++) {
			const struct rp_rec *r = &z->rec[0][i];
			const char *name = c[i].group->name;

			if (!r->has || !rp_identifier(name)) {
				if (pass == 0 && r->has)
					bad++;
				else if (pass == 0)
					none++;
				continue;
			}
			if (pass == 0) {
				yaml_item(f, name, "=", r->cores);
				written++;
				continue;
			}
			yaml_item(f, name, ":mem_mb=", r->memory);
			if (r->disk >= 0)
				yaml_item(f, name, ":disk_mb=", r->disk);
			if (r->wall_time >= 0)
				yaml_item(f, name, ":runtime=", r->wall_time / 60);
		}
	}
	left_out(f, none, bad, "whose name is not a rule name", z, c, rp_smk_why);
	return written;
}

static void slurm_time(FILE *f, int64_t s)
{
	int64_t m = s / 60;

	if (m >= 1440)
		fprintf(f, "#SBATCH --time=%" PRId64 "-%02d:%02d:00\n", m / 1440,
			(int)(m % 1440 / 60), (int)(m % 60));
	else
		fprintf(f, "#SBATCH --time=%02d:%02d:00\n", (int)(m / 60), (int)(m % 60));
}

/* For each group with a usable task: a blank line, "# @label: " and its
 * name as %XX, then @lines(its recommendation); then those without one,
 * counted and named.  The groups written. */
static int per_group(FILE *f, const struct rp_sizing *z, const struct rp_cat *c,
		     const char *label, void (*lines)(FILE *f, const struct rp_rec *r,
						      const double *max), const double *max)
{
	size_t i, none = 0;
	int written = 0;

	for (i = 0; i < z->ng; i++) {
		const struct rp_rec *r = &z->rec[0][i];

		if (!r->has) {
			none++;
			continue;
		}
		fprintf(f, "\n# %s: ", label);
		rp_percent(f, c[i].group->name);
		fputc('\n', f);
		lines(f, r, max);
		written++;
	}
	left_out(f, none, 0, "", z, c, none_why);
	return written;
}

static void sbatch_lines(FILE *f, const struct rp_rec *r, const double *max)
{
	(void)max;
	fprintf(f, "#SBATCH --cpus-per-task=%" PRId64 "\n#SBATCH --mem=%" PRId64 "M\n",
		r->cores, r->memory);
	if (r->disk >= 0)
		fprintf(f, "#SBATCH --tmp=%" PRId64 "M\n", r->disk);
	if (r->wall_time >= 0)
		slurm_time(f, r->wall_time);
}

int rp_emit_slurm(FILE *f, const struct rp_sizing *z, const struct rp_cat *c)
{
	header(f, z, "Slurm requests");
	fputs("# Use: copy a job name's #SBATCH lines into its batch script.\n"
	      "# Names are shown with each byte but [A-Za-z0-9._+-] as %XX.\n", f);
	return per_group(f, z, c, "job", sbatch_lines, NULL);
}

/* The memory (MB) of a second attempt, within --max; -1: none.  As the
 * Nextflow config's: quantile doubles it (the task.attempt pattern),
 * throughput and waste take cctools' retry, max and input have none (a
 * group's largest task already fits). */
static int64_t retry_memory(const struct rp_rec *r, const double max[RP_A__COUNT])
{
	int64_t v = -1;

	if (r->strat.s == RP_S_QUANTILE)
		v = 2 * r->memory;
	else if (r->strat.s == RP_S_THROUGHPUT || r->strat.s == RP_S_WASTE)
		v = r->retry[RP_A_MEMORY];
	if (v > 0 && max[RP_A_MEMORY] >= 0 && v > (int64_t)max[RP_A_MEMORY])
		v = (int64_t)max[RP_A_MEMORY];
	return v > r->memory ? v : -1;
}

static void submit_lines(FILE *f, const struct rp_rec *r, const double *max)
{
	int64_t retry = retry_memory(r, max);

	fprintf(f, "request_cpus = %" PRId64 "\nrequest_memory = %" PRId64 "\n", r->cores,
		r->memory);
	if (r->disk >= 0)
		fprintf(f, "request_disk = %" PRId64 "\n", r->disk * 1024);
	if (retry > 0)
		fprintf(f, "retry_request_memory = %" PRId64 "\n", retry);
	if (r->wall_time >= 0)
		fprintf(f, "allowed_execute_duration = %" PRId64 "\n", r->wall_time);
}

int rp_emit_htcondor(FILE *f, const struct rp_sizing *z, const struct rp_cat *c,
		     const double max[RP_A__COUNT])
{
	header(f, z, "HTCondor requests");
	fputs("# Use: copy a group's lines into its submit description (HTCondor 23\n"
	      "# or later). request_memory and retry_request_memory are in MB,\n"
	      "# request_disk in KiB, allowed_execute_duration in seconds: condor_submit's\n"
	      "# own units. A job evicted for its memory runs again with\n"
	      "# retry_request_memory.\n"
	      "# Names are shown with each byte but [A-Za-z0-9._+-] as %XX.\n", f);
	return per_group(f, z, c, "group", submit_lines, max);
}

static const char *mode_name(const struct rp_strat *s, bool vine)
{
	if (s->s == RP_S_THROUGHPUT)
		return vine ? "VINE_ALLOCATION_MODE_MAX_THROUGHPUT" : "WORK_QUEUE_ALLOCATION_MODE_MAX_THROUGHPUT";
	if (s->s == RP_S_WASTE)
		return vine ? "VINE_ALLOCATION_MODE_MIN_WASTE" : "WORK_QUEUE_ALLOCATION_MODE_MIN_WASTE";
	return vine ? "VINE_ALLOCATION_MODE_MAX" : "WORK_QUEUE_ALLOCATION_MODE_MAX";
}

static void cc_max(FILE *f, const double max[RP_A__COUNT])
{
	const char *sep = "";

	fputs("TPMON_MAX = {", f);
	if (max[RP_A_CORES] >= 0)
		fprintf(f, "%s\"cores\": %.0f", sep, max[RP_A_CORES]), sep = ", ";
	if (max[RP_A_MEMORY] >= 0)
		fprintf(f, "%s\"memory\": %.0f", sep, max[RP_A_MEMORY]), sep = ", ";
	if (max[RP_A_DISK] >= 0)
		fprintf(f, "%s\"disk\": %.0f", sep, max[RP_A_DISK]);
	fputs("}\n", f);
}

int rp_emit_cctools(FILE *f, const struct rp_sizing *z, const struct rp_cat *c,
		    const double max[RP_A__COUNT], bool vine)
{
	size_t i, none = 0;
	int written = 0;

	header(f, z, vine ? "TaskVine categories" : "Work Queue categories");
	fprintf(f, "# Use: from this module import tpmon_categories; tpmon_categories(%s)\n"
		"# A task over its first allocation is retried with the category's\n"
		"# max (TPMON_MAX, from --max; else a whole worker).  exact=True turns\n"
		"# the manager's proportional resources off, so that a task gets the\n"
		"# recommended memory and disk, not a share of the worker as large as\n"
		"# its share of cores.\n", vine ? "m" : "q");
	fputs(vine ? "import ndcctools.taskvine.cvine as _cc\n\nTPMON_MODE = _cc."
		   : "import ndcctools.work_queue as _cc\n\nTPMON_MODE = _cc.", f);
	fprintf(f, "%s\n", mode_name(&z->strat[0], vine));
	cc_max(f, max);
	fputs("TPMON_CATEGORIES = [\n", f);
	for (i = 0; i < z->ng; i++) {
		const struct rp_rec *r = &z->rec[0][i];

		if (!r->has) {
			none++;
			continue;
		}
		fputs("    (", f);
		rp_python_bytes(f, c[i].group->name);
		written++;
		fprintf(f, ", {\"cores\": %" PRId64 ", \"memory\": %" PRId64, r->cores, r->memory);
		if (r->disk >= 0)
			fprintf(f, ", \"disk\": %" PRId64, r->disk);
		fputs("}),\n", f);
	}
	fputs("]\n\n\ndef tpmon_categories(m, exact=False):\n"
	      "    if exact:\n"
	      "        m.tune(\"proportional-resources\", 0)\n"
	      "    for name, res in TPMON_CATEGORIES:\n"
	      "        name = name.decode(\"utf-8\")\n", f);
	fputs(vine ? "        m.set_category_mode(name, TPMON_MODE)\n"
		     "        m.set_category_first_allocation_guess(name, res)\n"
		     "        if TPMON_MAX:\n"
		     "            m.set_category_resources_max(name, TPMON_MAX)\n"
		   : "        m.specify_category_mode(name, TPMON_MODE)\n"
		     "        m.specify_category_first_allocation_guess(name, res)\n"
		     "        if TPMON_MAX:\n"
		     "            m.specify_category_max_resources(name, TPMON_MAX)\n", f);
	left_out(f, none, 0, "", z, c, none_why);
	return written;
}
