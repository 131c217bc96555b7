/* SPDX-License-Identifier: MIT */
/* options.c: getopt_long over tpmon's options and resource_monitor's, so
 * that engines which call resource_monitor can call tpmon unchanged. */
#include <errno.h>
#include <getopt.h>
#ifdef TP_STATIC_GLIBC
#include <gnu/libc-version.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/compat.h"
#include "basic/editdist.h"
#include "basic/messages.h"
#include "basic/phases.h"
#include "basic/shquote.h"
#include "config/options.h"
#include "basic/units.h"
#include "basic/xmalloc.h"

enum {
	OPT_MEASURE_ONLY = 256, OPT_KILL_GRACE, OPT_NO_PPRINT, OPT_MEASURE_DIR,
	OPT_NO_DISK, OPT_SERIES, OPT_INOTIFY, OPT_TRACKING, OPT_EXIT_CODES,
	OPT_SH, OPT_IGNORED_ARG, OPT_IGNORED, OPT_PID, OPT_UPDATE_SUMMARY,
	OPT_SNAPSHOT_EVENTS, OPT_RECORDS, OPT_TRACE, OPT_QUIET, OPT_CGROUP,
	OPT_NO_LIVE, OPT_METRICS_DIR, OPT_INFLUXDB, OPT_CATALOG, OPT_CATALOG_TASK,
	OPT_CATALOG_PROJECT, OPT_CATALOG_INTERVAL, OPT_INPUT,
};

static const struct option long_opts[] = {
	{ "with-output-files", required_argument, NULL, 'O' },
	{ "interval", required_argument, NULL, 'i' },
	{ "sh", required_argument, NULL, OPT_SH },
	{ "limits", required_argument, NULL, 'L' },
	{ "limits-file", required_argument, NULL, 'l' },
	{ "measure-only", no_argument, NULL, OPT_MEASURE_ONLY },
	{ "kill-grace", required_argument, NULL, OPT_KILL_GRACE },
	{ "verbatim-to-summary", required_argument, NULL, 'V' },
	{ "no-pprint", no_argument, NULL, OPT_NO_PPRINT },
	{ "measure-dir", required_argument, NULL, OPT_MEASURE_DIR },
	{ "without-disk-footprint", no_argument, NULL, OPT_NO_DISK },
	{ "with-input-size", no_argument, NULL, OPT_INPUT },
	{ "with-time-series", no_argument, NULL, OPT_SERIES },
	{ "with-inotify", no_argument, NULL, OPT_INOTIFY },
	{ "with-process-records", no_argument, NULL, OPT_RECORDS },
	{ "with-trace", no_argument, NULL, OPT_TRACE },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "tracking", required_argument, NULL, OPT_TRACKING },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "exit-codes", required_argument, NULL, OPT_EXIT_CODES },
	{ "debug", required_argument, NULL, 'd' },
	{ "debug-file", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'v' },
	/* resource_monitor options that tpmon accepts without acting on
	 * (doc/cctools.md says why for each) */
	{ "child-in-foreground", no_argument, NULL, 'f' },
	{ "accurate-short-processes", no_argument, NULL, OPT_IGNORED },
	{ "follow-chdir", no_argument, NULL, OPT_IGNORED },
	{ "catalog-task-name", required_argument, NULL, OPT_CATALOG_TASK },
	{ "catalog-project", required_argument, NULL, OPT_CATALOG_PROJECT },
	{ "catalog", required_argument, NULL, OPT_CATALOG },
	{ "catalog-interval", required_argument, NULL, OPT_CATALOG_INTERVAL },
	{ "no-live", no_argument, NULL, OPT_NO_LIVE },
	{ "metrics-dir", required_argument, NULL, OPT_METRICS_DIR },
	{ "influxdb", required_argument, NULL, OPT_INFLUXDB },
	{ "snapshot-events", required_argument, NULL, OPT_SNAPSHOT_EVENTS },
	{ "update-summary", no_argument, NULL, OPT_UPDATE_SUMMARY },
	{ "pid", required_argument, NULL, OPT_PID },
	{ NULL, 0, NULL, 0 }
};

/* --help, in two parts: what is run and written, then how it is measured,
 * limited and ended. */
static void usage_outputs(void)
{
	fputs(
"Usage: tpmon [OPTIONS] -- COMMAND [ARGS...]\n"
"       tpmon [OPTIONS] --sh 'SHELL COMMAND LINE'        (or -c)\n"
"       tpmon [OPTIONS] --pid PID      follow a running process and its\n"
"                                      descendants, from now on\n"
"       tpmon report [OPTIONS] INPUT...  sum up many summaries\n"
"       tpmon plot TEMPLATE [-o FILE.png|FILE.svg]    draw TEMPLATE.series\n"
"       tpmon top [-b] [-n N] [-d SECONDS] [-p|-t|-c|-m|-i]  the running tasks\n"
"       tpmon help [report|plot|top]   this help, or a subcommand's\n"
"Run COMMAND, follow its whole process tree, enforce limits, and write\n"
"a JSON summary of what the tree used to TEMPLATE.summary.\n"
"\n"
"Output:\n"
"  -O, --with-output-files=TEMPLATE\n"
"                              write TEMPLATE.summary (default resource-pid-PID\n"
"                              in the current directory; a TEMPLATE ending in\n"
"                              .summary is the summary's own name)\n"
"      --with-time-series      also write TEMPLATE.series, one line per sample\n"
"                              (cctools mode: cctools' 15 columns; all 19 in\n"
"                              TEMPLATE.tpmon.series)\n"
"      --with-inotify          also write TEMPLATE.files, the files opened by\n"
"                              the tree\n"
"      --with-process-records  also write TEMPLATE.processes, one JSON line per\n"
"                              process, written as it ends\n"
"      --with-trace            also write TEMPLATE.trace.json, a trace to open\n"
"                              in Perfetto or chrome://tracing\n"
"      --quiet                 no short summary on stderr when it is a terminal\n"
"  -V, --verbatim-to-summary='KEY: VALUE'\n"
"                              add a field to the summary (repeatable)\n"
"      --no-pprint             write the summary on one line\n"
"      --snapshot-events=FILE  take labelled snapshots of the figures when the\n"
"                              files FILE names change (resource_monitor's\n"
"                              format)\n"
"      --update-summary        rewrite the summary every interval while the task\n"
"                              runs (exit_type \"running\")\n"
"Live figures, while the task runs:\n"
"      --no-live               no runtime file for `tpmon top` (in\n"
"                              $TPMON_RUNTIME_DIR, $XDG_RUNTIME_DIR/tpmon or\n"
"                              /run/tpmon)\n"
"      --metrics-dir=DIR       write DIR/tpmon-PID.prom for node_exporter's\n"
"                              textfile collector, removed at the end\n"
"      --influxdb=URL          send samples to InfluxDB 1.x (line protocol),\n"
"                              e.g. http://localhost:8086/write?db=tpmon\n"
"      --catalog-task-name=NAME\n"
"                              send updates to cctools' catalog, as\n"
"                              resource_monitor does; with\n"
"                              --catalog=HOST[:PORT], --catalog-project=NAME,\n"
"                              --catalog-interval=SECONDS\n", stdout);
}

static void usage_limits(void)
{
	fputs(
"Measuring:\n"
"  -i, --interval=SECONDS      longest time between samples (default 1);\n"
"                              sampling starts at 10 ms and backs off\n"
"      --measure-dir=DIR       measure the disk footprint of DIR (repeatable;\n"
"                              default: the directory the task starts in,\n"
"                              unless it is /, /usr, /tmp... or holds more\n"
"                              than 1,000,000 entries: then disk is null)\n"
"      --without-disk-footprint\n"
"                              do not measure disk use\n"
"      --with-input-size       count the files read (input_size, input_files):\n"
"                              in the cgroup mode as root from a BPF program\n"
"                              on the opens, under ptrace by a stop at each\n"
"                              open call\n"
"      --tracking=auto|ptrace|cgroup|poll\n"
"                              follow the tree as the processes of its cgroup\n"
"                              (no ptrace, no stops: gdb, strace, sanitizers and\n"
"                              setuid programs run as they run bare; needs a\n"
"                              cgroup, see --cgroup), with ptrace events, or by\n"
"                              polling /proc (as root, from the kernel's fork,\n"
"                              exit and taskstats records: exact counts, CPU and\n"
"                              I/O); auto (the default): cgroup where tpmon can\n"
"                              have one, else ptrace (the summary's\n"
"                              tracking_reason says why); ptrace alone counts\n"
"                              the input, asked (--with-input-size)\n"
"      --cgroup=auto|no|PATH   contain, measure and limit the task in cgroups of\n"
"                              its own: cgroup v2 (in a delegated cgroup), or v1\n"
"                              and hybrid hosts as root; found by itself (auto,\n"
"                              the default), never (no), or in the v2 cgroup\n"
"                              PATH\n"
"Limits:\n"
"  -L, --limits=FILE|'RES: VALUE, ...'\n"
"                              limits from a JSON file or text (repeatable)\n"
"  -l, --limits-file=FILE      limits file, one 'RES: VALUE' per line\n"
"      --measure-only          report exceeded limits without stopping the task\n"
"      --kill-grace=SECONDS    time between SIGTERM and SIGKILL (default 1)\n"
"  Resources: wall_time cpu_time (s), memory virtual_memory swap_memory disk\n"
"  bytes_read bytes_written bytes_received bytes_sent gpu_memory (MB), bandwidth\n"
"  (Mbps), cores, gpus, total_files, max_concurrent_processes, total_processes;\n"
"  end (a deadline, s since the epoch).  Values take units: 2G, 512MiB, 90s,\n"
"  1.5h.  A limit is at most 1e15 (memory 8796093022207 MB) and at least the\n"
"  summary's last decimal (memory a page): outside that it is refused.\n"
"GPUs: NVIDIA's through NVML (libnvidia-ml.so.1), loaded at run time where an\n"
"  NVIDIA driver is there; TPMON_NVML_LIBRARY=PATH names another copy (always\n"
"  loaded), TPMON_NVML_LIBRARY= (empty) turns NVML off.  Every vendor's through\n"
"  DRM fdinfo (/proc/PID/fdinfo).\n"
"Exit status:\n"
"      --exit-codes=task|cctools\n"
"                              task (default): the task's own status, 128+N if\n"
"                              killed by signal N, 124 stopped for a limit, 125\n"
"                              tpmon failed, 126/127 cannot run COMMAND;\n"
"                              cctools: 0 ok, 1 task failed, 2 limit, 3\n"
"                              wall_time, 4 monitor error; notes only in the -o\n"
"                              file; the summary as cctools reads it, all in\n"
"                              TEMPLATE.tpmon.json. Default: TPMON_EXIT_CODES,\n"
"                              else cctools when run as resource_monitor or with\n"
"                              --no-pprint and --sh\n"
"Other:\n"
"  -d, --debug=SUBSYSTEM       debug messages (any subsystem: all); phases:\n"
"                              only the ms of each phase of the start and end\n"
"  -o, --debug-file=FILE       debug messages to FILE\n"
"  -h, --help                  this help (also: tpmon help)\n"
"  -v, --version               version\n"
"\n"
"See tpmon(1) for the summary fields and their units.\n", stdout);
}

void options_usage(void)
{
	usage_outputs();
	usage_limits();
}

static void push(const char ***list, size_t *n, const char *s)
{
	*list = xreallocarray(*list, *n + 2, sizeof(char *));
	(*list)[(*n)++] = s;
	(*list)[*n] = NULL;
}

static bool invoked_as_resource_monitor(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	base = base ? base + 1 : argv0;
	/* Work Queue, TaskVine and makeflow -T wq ship the monitor to their
	 * workers under the name cctools-monitor */
	return strstr(base, "resource_monitor") != NULL ||
	       strstr(base, "resource-monitor") != NULL ||
	       strcmp(base, "cctools-monitor") == 0;
}

/* "key: value" into @f.  0, or -1 when there is no colon or no key. */
static int split_field(const char *s, struct tp_field *f)
{
	const char *colon = strchr(s, ':');
	const char *k_end, *v;

	if (!colon)
		return -1;
	k_end = colon;
	while (s < k_end && (*s == ' ' || *s == '\t'))
		s++;
	while (k_end > s && (k_end[-1] == ' ' || k_end[-1] == '\t'))
		k_end--;
	if (k_end == s)
		return -1;
	v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	f->key = xasprintf("%.*s", (int)(k_end - s), s);
	f->value = xstrdup(v);
	return 0;
}

static int parse_seconds(const char *what, const char *arg, double *out, double min)
{
	char why[128];

	if (units_parse_seconds(arg, out, why, sizeof(why)) < 0) {
		error_msg("%s: %s: %s", what, arg, why);
		return -1;
	}
	if (*out < min) {
		error_msg("%s: %s: must be at least %g s", what, arg, min);
		return -1;
	}
	return 0;
}

/* @arg must be @first (stored as 0) or @second (1). */
static int parse_choice(const char *name, const char *arg, const char *first,
			const char *second, int *out)
{
	if (!strcmp(arg, first) || !strcmp(arg, second)) {
		*out = strcmp(arg, first) ? 1 : 0;
		return 0;
	}
	error_msg("%.*s: %s: expected %s or %s", (int)strcspn(name, "="), name, arg,
		  first, second);
	return -1;
}

/* --tracking=auto|ptrace|poll|cgroup */
/* -d SUBSYSTEM: "phases" prints the phase timer's lines alone (see
 * basic/phases.h); any other name, "all" among them, every debug line. */
static void set_debug(const char *arg)
{
	if (!strcmp(arg, "phases"))
		phases_enabled = true;
	else
		debug_enabled = true;
}

static const struct tp_tracking_info tracking_rows[TP_TRACK__COUNT] = {
	[TP_TRACK_AUTO] = { "auto", true, false, false },
	[TP_TRACK_PTRACE] = { "ptrace", true, true, false },
	[TP_TRACK_POLL] = { "poll", true, false, false },
	[TP_TRACK_CGROUP] = { "cgroup", true, false, true },
	/* --pid: the ptrace backend on a running tree */
	[TP_TRACK_ATTACH] = { "ptrace", false, false, false },
};

const struct tp_tracking_info *tracking_info(enum tp_tracking t)
{
	return &tracking_rows[t < TP_TRACK__COUNT ? t : TP_TRACK_AUTO];
}

static int parse_tracking(struct tp_options *o, const char *arg)
{
	char names[64] = "";
	size_t i;

	for (i = 0; i < TP_TRACK__COUNT; i++) {
		const struct tp_tracking_info *ti = &tracking_rows[i];

		if (!ti->option)
			continue;
		if (!strcmp(arg, ti->name)) {
			o->tracking = (enum tp_tracking)i;
			o->tracking_forced = i != TP_TRACK_AUTO;
			return 0;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 names[0] ? ", " : "", ti->name);
	}
	error_msg("--tracking: %s: expected one of %s", arg, names);
	return -1;
}

/* --cgroup=auto|no|PATH (an absolute path: in the cgroup file system, or
 * as /proc/self/cgroup names it). */
static int parse_cgroup(struct tp_options *o, const char *arg)
{
	o->cgroup_path = NULL;
	if (!strcmp(arg, "auto")) {
		o->cgroup = TP_CGROUP_AUTO;
	} else if (!strcmp(arg, "no")) {
		o->cgroup = TP_CGROUP_NO;
	} else if (arg[0] == '/') {
		o->cgroup = TP_CGROUP_PATH;
		o->cgroup_path = arg;
	} else {
		error_msg("--cgroup: %s: expected auto, no or an absolute path", arg);
		return -1;
	}
	return 0;
}

static int parse_limits(struct tp_options *o, int c, const char *arg)
{
	char err[512];
	int r = c == 'L' ? limitset_parse_arg(&o->limits, arg, err, sizeof(err)) :
			   limitset_parse_file(&o->limits, arg, err, sizeof(err));

	if (r < 0)
		error_msg("%s", err);
	return r;
}

static int parse_pid(const char *arg, pid_t *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v <= 0 || v > INT32_MAX) {
		error_msg("--pid: %s: expected a process id (a positive integer)", arg);
		return -1;
	}
	*pid = (pid_t)v;
	return 0;
}

/* --version: the version; a static tpmon also says which glibc it carries,
 * the only one beside which it loads NVML (see gpu.c). */
static void print_version(void)
{
	printf("tpmon %s\n", PACKAGE_VERSION);
#ifdef TP_STATIC_GLIBC
	printf("static binary with glibc %s: GPU figures where the system's glibc is %s\n",
	       gnu_get_libc_version(), gnu_get_libc_version());
#endif
}

/* -O TEMPLATE; a TEMPLATE that ends in ".summary" names the summary
 * itself (-O out.summary writes out.summary, not out.summary.summary). */
static void set_template(struct tp_options *o, const char *arg)
{
	static const char suffix[] = ".summary";
	size_t len = strlen(arg), n = sizeof(suffix) - 1;
	const char *base = strrchr(arg, '/');

	base = base ? base + 1 : arg;
	free(o->template);
	if (len > n && !strcmp(arg + len - n, suffix) && strlen(base) > n)
		o->template = xasprintf("%.*s", (int)(len - n), arg);
	else
		o->template = xstrdup(arg);
}

/* Apply one option; returns 0, 1 (served --help/--version), -1 (error).
 * @name is the option as written, for messages. */
static int apply(struct tp_options *o, int c, const char *arg, const char *name,
		 size_t *ndirs, int *explicit_codes)
{
	switch (c) {
	case 'O': set_template(o, arg); break;
	case 'i': return parse_seconds("--interval", arg, &o->interval, 0.01);
	case OPT_SH: o->sh = arg; break;
	case 'L': case 'l': return parse_limits(o, c, arg);
	case OPT_MEASURE_ONLY: o->measure_only = true; break;
	case OPT_KILL_GRACE: return parse_seconds("--kill-grace", arg, &o->kill_grace, 0);
	case 'V':
		o->verbatim = xreallocarray(o->verbatim, o->nverbatim + 1, sizeof(*o->verbatim));
		if (split_field(arg, &o->verbatim[o->nverbatim]) < 0) {
			error_msg("-V: %s: expected 'key: value'", arg);
			return -1;
		}
		o->nverbatim++;
		break;
	case OPT_NO_PPRINT: o->pprint = false; break;
	case OPT_MEASURE_DIR: push(&o->measure_dirs, ndirs, arg); break;
	case OPT_NO_DISK: o->disk = false; break;
	case OPT_INPUT: o->input = true; break;
	case OPT_SERIES: o->time_series = true; break;
	case OPT_UPDATE_SUMMARY: o->update_summary = true; break;
	case OPT_SNAPSHOT_EVENTS: o->snapshot_events = arg; break;
	case OPT_INOTIFY: o->inotify = true; break;
	case OPT_RECORDS: o->process_records = true; break;
	case OPT_TRACE: o->trace = true; break;
	case OPT_QUIET: o->quiet = true; break;
	case OPT_TRACKING:
		return parse_tracking(o, arg);
	case OPT_CGROUP:
		return parse_cgroup(o, arg);
	case OPT_EXIT_CODES:
		return parse_choice(name, arg, "task", "cctools", explicit_codes);
	case 'd': set_debug(arg); break;
	case 'o':
		if (error_set_debug_file(arg) < 0)
			return -1;
		break;
	case 'h': options_usage(); return 1;
	case 'v': print_version(); return 1;
	case 'f': break;	/* the task always runs in the foreground */
	case OPT_IGNORED: case OPT_IGNORED_ARG:
		warn_msg("note: %s: not implemented by tpmon, ignored", name);
		break;
	case OPT_PID:
		return parse_pid(arg, &o->pid);
	case OPT_NO_LIVE: o->live = false; break;
	case OPT_METRICS_DIR: o->metrics_dir = arg; break;
	case OPT_INFLUXDB: o->influxdb = arg; break;
	case OPT_CATALOG: o->catalog = arg; break;
	case OPT_CATALOG_TASK: o->catalog_task_name = arg; break;
	case OPT_CATALOG_PROJECT: o->catalog_project = arg; break;
	case OPT_CATALOG_INTERVAL:
		return parse_seconds("--catalog-interval", arg, &o->catalog_interval, 1);
	default:
		return -1;	/* getopt already said why */
	}
	return 0;
}

static void set_defaults(struct tp_options *o)
{
	memset(o, 0, sizeof(*o));
	o->interval = 1.0;
	o->kill_grace = 1.0;
	o->pprint = true;
	o->disk = true;
	o->tracking = TP_TRACK_AUTO;
	o->exit_codes = TP_CODES_TASK;
	o->live = true;
}

/* The exit-status convention, in this order: --exit-codes; then
 * TPMON_EXIT_CODES; then cctools when run under resource_monitor's names,
 * or with the command line every cctools engine writes ("MONITOR
 * --no-pprint ... --sh CMD": both are resource_monitor's spellings);
 * else tpmon's own.  Warnings then go where the convention wants them. */
static void choose_exit_codes(struct tp_options *o, const char *argv0, int explicit_codes)
{
	const char *codes = getenv("TPMON_EXIT_CODES");

	if (explicit_codes >= 0)
		o->exit_codes = (enum tp_exit_codes)explicit_codes;
	else if (codes && !strcmp(codes, "cctools"))
		o->exit_codes = TP_CODES_CCTOOLS;
	else if (codes && !strcmp(codes, "task"))
		o->exit_codes = TP_CODES_TASK;
	else if (invoked_as_resource_monitor(argv0) || (o->sh && !o->pprint))
		o->exit_codes = TP_CODES_CCTOOLS;
	else
		o->exit_codes = TP_CODES_TASK;
	error_warnings_quiet(o->exit_codes == TP_CODES_CCTOOLS);
}

/* --pid: no command, and nothing that needs the task started by tpmon. */
static int finish_pid(struct tp_options *o, int argc)
{
	if (o->sh || optind < argc) {
		error_msg("--pid: a command cannot be given too");
		return -1;
	}
	if (o->inotify || o->tracking_forced) {
		error_msg("--pid: %s needs a task started by tpmon",
			  o->inotify ? "--with-inotify" : "--tracking");
		return -1;
	}
	o->tracking = TP_TRACK_ATTACH;
	o->tracking_reason = "--pid: a running tree, traced from the attach on";
	o->argv = xcalloc(1, sizeof(char *));
	o->command = xasprintf("# following pid %d with --pid", (int)o->pid);
	if (!o->template)
		o->template = xasprintf("resource-pid-%d", (int)getpid());
	return 0;
}

static int finish(struct tp_options *o, int argc, char **argv)
{
	/* as resource_monitor: the catalog needs a task name */
	if (!o->catalog_task_name && (o->catalog || o->catalog_project || o->catalog_interval > 0)) {
		error_msg("--catalog, --catalog-project and --catalog-interval need --catalog-task-name");
		return -1;
	}
	if (o->influxdb && strncmp(o->influxdb, "http://", 7) && strncmp(o->influxdb, "https://", 8)) {
		error_msg("--influxdb: %s: expected an http:// or https:// URL", o->influxdb);
		return -1;
	}
	if (o->tracking == TP_TRACK_CGROUP && o->cgroup == TP_CGROUP_NO) {
		error_msg("--tracking=cgroup needs a cgroup: not with --cgroup=no");
		return -1;
	}
	if (o->pid)
		return finish_pid(o, argc);
	if (o->sh && optind < argc) {
		error_msg("give either --sh STRING or -- COMMAND, not both");
		return -1;
	}
	if (!o->sh && optind >= argc) {
		error_msg("no command given (try 'tpmon --help')");
		return -1;
	}
	if (o->sh) {
		o->argv = xcalloc(4, sizeof(char *));
		o->argv[0] = xstrdup("/bin/sh");
		o->argv[1] = xstrdup("-c");
		o->argv[2] = xstrdup(o->sh);
		o->command = xstrdup(o->sh);
	} else {
		int i, n = argc - optind;

		o->argv = xcalloc((size_t)n + 1, sizeof(char *));
		for (i = 0; i < n; i++)
			o->argv[i] = xstrdup(argv[optind + i]);
		o->command = shquote_argv(o->argv);
	}
	if (!o->template)
		o->template = xasprintf("resource-pid-%d", (int)getpid());
	return 0;
}

/* The long name of the option whose getopt value is @val, or NULL. */
static const char *long_name(int val)
{
	size_t i;

	if (val == 'c')
		val = OPT_SH;
	for (i = 0; long_opts[i].name; i++)
		if (long_opts[i].val == val)
			return long_opts[i].name;
	return NULL;
}

/* The long options that start with @word (@len bytes), ", "-separated
 * into @buf; how many. */
static size_t prefixed(const char *word, size_t len, char *buf, size_t size)
{
	size_t i, n = 0, used = 0;

	buf[0] = '\0';
	for (i = 0; long_opts[i].name; i++) {
		if (strncmp(long_opts[i].name, word, len))
			continue;
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s--%s", n ? ", " : "",
						 long_opts[i].name);
		n++;
	}
	return n;
}

/* An unknown long option @arg ("--limts" or "--limts=VALUE"): the
 * options it abbreviates, else the nearest by edit distance. */
static void unknown_long(const char *arg)
{
	const char *word = arg + 2;
	size_t len = strcspn(word, "="), i;
	const char *names[ARRAY_SIZE(long_opts)] = { NULL };
	const char *near;
	char cut[EDITDIST_MAX_LEN + 1], list[512];

	if (len && prefixed(word, len, list, sizeof(list)) > 1) {
		error_msg("--%.*s: ambiguous, it starts %s (try 'tpmon --help')", (int)len, word,
			  list);
		return;
	}
	snprintf(cut, sizeof(cut), "%.*s", (int)len, word);
	for (i = 0; long_opts[i].name; i++)
		names[i] = long_opts[i].name;
	near = editdist_nearest(cut, names, ARRAY_SIZE(names));
	if (near)
		error_msg("--%.*s: unknown option; did you mean --%s? (try 'tpmon --help')",
			  (int)len, word, near);
	else
		error_msg("--%.*s: unknown option (try 'tpmon --help')", (int)len, word);
}

/* Why getopt_long() refused @arg (it returned @c, ':' or '?', with
 * optopt), by the option's long name. */
static void refused(int c, const char *arg)
{
	const char *name = optopt ? long_name(optopt) : NULL;

	if (c == ':' && name && optopt < 256 && strncmp(arg, "--", 2))
		error_msg("-%c (--%s): missing its value (try 'tpmon --help')", optopt, name);
	else if (c == ':' && name)
		error_msg("--%s: missing its value (try 'tpmon --help')", name);
	else if (name && optopt >= 256)
		error_msg("--%s takes no value: %s (try 'tpmon --help')", name, arg);
	else if (optopt)
		error_msg("-%c: unknown option (try 'tpmon --help')", optopt);
	else if (!strncmp(arg, "--", 2))
		unknown_long(arg);
	else
		error_msg("%s: unknown option (try 'tpmon --help')", arg);
}

static int parse_all(struct tp_options *o, int argc, char **argv, int *explicit_codes)
{
	size_t ndirs = 0;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:O:i:c:L:l:V:d:o:hvf", long_opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			refused(c, argv[optind - 1]);
			return -1;
		}
		int r = apply(o, c == 'c' ? OPT_SH : c, optarg, argv[optind - 1], &ndirs,
			      explicit_codes);

		if (r)
			return r;
	}
	return finish(o, argc, argv);
}

int options_parse(struct tp_options *o, int argc, char **argv)
{
	int explicit_codes = -1, r;

	set_defaults(o);
	r = parse_all(o, argc, argv, &explicit_codes);
	choose_exit_codes(o, argv[0], explicit_codes);
	return r;
}

void options_free(struct tp_options *o)
{
	size_t i;

	if (o->argv) {
		char **a;

		for (a = o->argv; *a; a++)
			free(*a);
	}
	free(o->argv);
	free(o->command);
	free(o->template);
	free(o->measure_dirs);
	for (i = 0; i < o->nverbatim; i++) {
		free(o->verbatim[i].key);
		free(o->verbatim[i].value);
	}
	free(o->verbatim);
	memset(o, 0, sizeof(*o));
}
