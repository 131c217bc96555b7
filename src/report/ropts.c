/* SPDX-License-Identifier: MIT */
/* ropts.c: getopt_long over `tpmon report`'s options. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/editdist.h"
#include "basic/messages.h"
#include "report/read/readpool.h"
#include "report/ropts.h"
#include "basic/units.h"

enum { OPT_BY = 256, OPT_MAX, OPT_CSV, OPT_JSON, OPT_PLOTS, OPT_HTML, OPT_TIMELINE,
       OPT_RECOMMEND, OPT_MARGIN, OPT_EMIT, OPT_JOBS, OPT_CACHE, OPT_REPLAY_CSV };

static const struct option long_opts[] = {
	{ "by", required_argument, NULL, OPT_BY },
	{ "max", required_argument, NULL, OPT_MAX },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "plots", required_argument, NULL, OPT_PLOTS },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "timeline", required_argument, NULL, OPT_TIMELINE },
	{ "recommend", required_argument, NULL, OPT_RECOMMEND },
	{ "margin", required_argument, NULL, OPT_MARGIN },
	{ "emit", required_argument, NULL, OPT_EMIT },
	{ "replay-csv", required_argument, NULL, OPT_REPLAY_CSV },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void usage(void)
{
	printf(
"Usage: tpmon report [OPTIONS] INPUT...\n"
"Sum up many tasks' resource summaries: per category, how the tasks ended,\n"
"min/median/p95/max/mean of each resource, and the first allocations that\n"
"Work Queue's and TaskVine's category code would choose for them.\n"
"\n"
"INPUT: .summary files, directories (searched recursively for *.summary;\n"
"X.tpmon.json is read instead of X.summary when both exist), Work Queue\n"
"or TaskVine transaction logs, Nextflow trace files, Snakemake benchmark\n"
"files (TSV or JSON Lines; the rule from rule_name, else from the path:\n"
"benchmarks/RULE/... or benchmarks/RULE.*), sacct --parsable2 output (one\n"
"task per job), mixed freely; each file recognised by its first line.\n"
"Their figures differ from tpmon's (the notes under the report say how).\n"
"\n"
"  --by=category|command|none   group tasks by their category field\n"
"                               (default), their program, or not at all\n"
"  --by=job                     instead, each batch job's tasks merged across\n"
"                               hosts (the summary's job: SLURM_JOB_ID or -V\n"
"                               job:NAME; sacct's JobID): nodes, tasks, summed\n"
"                               CPU time, each node's memory and cores, wall\n"
"                               time (the longest node span: clocks of hosts\n"
"                               are never compared), efficiency; with --json\n"
"                               or --csv, the same as JSON or CSV\n"
"  --max=RES=VALUE              explicit maximum for the allocations of RES\n"
"                               (cores, memory, disk; e.g. memory=4G),\n"
"                               as a category's max resources in cctools\n"
"  --csv=FILE|-                 one row per task, units in column names\n"
"  --json=FILE|-                the per-category table as JSON\n"
"  --plots=DIR                  histograms (PNG and SVG) per category and\n"
"                               resource with the allocations marked, and a\n"
"                               memory/wall-time scatter (needs gnuplot)\n"
"  --html=FILE                  one self-contained page: tables and plots\n"
"                               (and the timeline, when tasks have times)\n"
"  --timeline=FILE.png|FILE.svg every task with a start and an end as a bar\n"
"                               against time, a row per host, coloured by\n"
"                               group, stopped and failed tasks marked; under\n"
"                               it the running tasks, their summed cores and\n"
"                               memory (needs gnuplot)\n"
"  --recommend=STRATEGY         a request per group: max, quantile:Q,\n"
"                               throughput or waste (cctools' modes), or\n"
"                               input (memory and wall time on each task's\n"
"                               input size; max where it does not follow),\n"
"                               and a replay of the tasks under it (default\n"
"                               max)\n"
"  --margin=SHARE               added to max and quantile figures (0.1 or\n"
"                               10%%, the default)\n"
"  --emit=ENGINE:FILE           the recommendation as ENGINE reads it:\n"
"                               nextflow, snakemake, slurm, taskvine,\n"
"                               workqueue, htcondor (repeatable);\n"
"                               snakemake:FILE.smk a Snakefile include,\n"
"                               requests on input.size_mb\n"
"  --replay-csv=FILE|-           the replay of every strategy, a row per\n"
"                               group and strategy, then the totals\n"
"  --jobs=N                     read a directory's summaries on N threads\n"
"                               (default: one a core; the report is the\n"
"                               same with any N)\n"
"  --cache=FILE                 keep the tasks read from summaries in FILE;\n"
"                               the next report with the same inputs reads\n"
"                               only new and changed files (device, inode,\n"
"                               size, mtime, ctime), with the same output;\n"
"                               a link or file of another user in a sticky\n"
"                               directory is refused (as every output)\n"
"  -h, --help                   this help\n"
"\n"
"The terminal report is printed unless --csv, --replay-csv or --json writes\n"
"to stdout: the run in a line, its failed and stopped tasks by name and\n"
"cause, then the groups worst first, within 80 columns.  A request is never\n"
"under the retry of a task stopped at a limit.\n"
"Median and p95 interpolate linearly between closest ranks (as numpy).\n"
"Exit status: 0, or 1 when an input is missing, a directory holds no\n"
"summary, no task was read, or an output cannot be written; 2 when an\n"
"--emit file holds nothing usable (a warning says why).\n");
}

static int parse_by(struct rp_options *o, const char *arg)
{
	if (strcmp(arg, "category") == 0)
		o->by = RP_BY_CATEGORY;
	else if (strcmp(arg, "command") == 0)
		o->by = RP_BY_COMMAND;
	else if (strcmp(arg, "none") == 0)
		o->by = RP_BY_NONE;
	else if (strcmp(arg, "job") == 0)
		o->by = RP_BY_JOB;
	else {
		error_msg("report: --by: '%s' is not category, command, none or job", arg);
		return -1;
	}
	return 0;
}

static int parse_max(struct rp_options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char why[128];
	int a;

	for (a = 0; eq && a < RP_A__COUNT; a++) {
		const struct rp_res_info *ri = rp_res_info(rp_ares_res(a));
		const char *name = fig_info(ri->fig)->name;

		if (strlen(name) != (size_t)(eq - arg) ||
		    strncmp(arg, name, (size_t)(eq - arg)) != 0)
			continue;
		if (units_parse(ri->kind, eq + 1, &o->max[a], why, sizeof(why)) < 0) {
			error_msg("report: --max %s: %s", arg, why);
			return -1;
		}
		return 0;
	}
	error_msg("report: --max: '%s' is not RES=VALUE with RES cores, memory or disk",
		  arg);
	return -1;
}

static int sizing_opt(struct rp_options *o, int c, const char *arg)
{
	char why[160];
	int r;

	if (c == OPT_RECOMMEND)
		r = rp_strat_parse(arg, &o->sizing.strat, why, sizeof(why));
	else if (c == OPT_MARGIN)
		r = rp_margin_parse(arg, &o->sizing.margin, why, sizeof(why));
	else
		r = rp_emit_parse(arg, &o->sizing, why, sizeof(why));
	if (r < 0)
		error_msg("report: --%s: %s", c == OPT_RECOMMEND ? "recommend" :
			  c == OPT_MARGIN ? "margin" : "emit", why);
	o->sizing.on |= c == OPT_RECOMMEND;
	return r;
}

static int parse_jobs(struct rp_options *o, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (end == arg || *end || n < 1 || n > RP_JOBS_MAX) {
		error_msg("report: --jobs: '%s' is not a number of threads from 1 to %d", arg,
			  RP_JOBS_MAX);
		return -1;
	}
	o->jobs = (int)n;
	return 0;
}

int rp_options_parse(struct rp_options *o, int argc, char **argv)
{
	int c, a;

	memset(o, 0, sizeof(*o));
	for (a = 0; a < RP_A__COUNT; a++)
		o->max[a] = -1;
	o->sizing.strat.s = RP_S_MAX;
	o->sizing.margin = 0.1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_BY:
			if (parse_by(o, optarg) < 0)
				return -1;
			break;
		case OPT_MAX:
			if (parse_max(o, optarg) < 0)
				return -1;
			break;
		case OPT_CSV: o->csv = optarg; break;
		case OPT_JSON: o->json = optarg; break;
		case OPT_PLOTS: o->plots = optarg; break;
		case OPT_HTML: o->html = optarg; break;
		case OPT_TIMELINE: o->timeline = optarg; break;
		case OPT_CACHE: o->cache = optarg; break;
		case OPT_REPLAY_CSV: o->sizing.replay_csv = optarg; break;
		case OPT_JOBS:
			if (parse_jobs(o, optarg) < 0)
				return -1;
			break;
		case OPT_RECOMMEND: case OPT_MARGIN: case OPT_EMIT:
			if (sizing_opt(o, c, optarg) < 0)
				return -1;
			break;
		case 'h':
			usage();
			return 1;
		default: {
			const char *near = editdist_long_option(argv[optind - 1], long_opts);

			if (near)
				error_msg("report: did you mean --%s? (try 'tpmon report --help')", near);
			else
				error_msg("report: try 'tpmon report --help'");
			return -1;
		}
		}
	}
	if (o->by == RP_BY_JOB && (o->plots || o->html || o->timeline ||
				   o->sizing.on || o->sizing.nemit || o->sizing.replay_csv)) {
		error_msg("report: --by=job writes the jobs table, --json and --csv alone: not "
			  "with --plots, --html, --timeline, --recommend, --emit or --replay-csv");
		return -1;
	}
	if (o->json && o->csv && !strcmp(o->json, "-") && !strcmp(o->csv, "-")) {
		error_msg("report: --json and --csv cannot both be written to standard output");
		return -1;
	}
	o->inputs = argv + optind;
	o->ninputs = argc - optind;
	if (o->ninputs < 1) {
		error_msg("report: no input (try 'tpmon report --help')");
		return -1;
	}
	return 0;
}
