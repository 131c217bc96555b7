/* SPDX-License-Identifier: MIT */
/* test-summary.c: the summary writer (output/summary.c) on a report filled
 * by the real rules (figures_fill()) from hand-made inputs: the file it
 * writes is read back with jansson, and each figure is checked against
 * the input, unknown figures are null (never 0), the lower bounds are
 * named, and hostile text (a command with quotes, newlines, invalid
 * UTF-8) comes back as the same JSON string. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/options.h"
#include "measure/figures.h"
#include "output/summary.h"
#include "tap.h"

#define MiB 1048576.0

/* FIELD of @root as [value, "unit"]: the value, NAN when it is not so. */
static const char *str_or(const char *s, const char *none)
{
	return s ? s : none;
}

static double value_of(json_t *root, const char *field, const char *unit)
{
	json_t *v = json_object_get(root, field);

	if (!json_is_array(v) || json_array_size(v) != 2 ||
	    !json_is_number(json_array_get(v, 0)) ||
	    strcmp(str_or(json_string_value(json_array_get(v, 1)), ""), unit) != 0)
		return -1e300;
	return json_number_value(json_array_get(v, 0));
}

static void fill(struct tp_figures *f, struct tp_summary *rep)
{
	struct tp_fill in;

	figures_init(f, rep, 2, false);
	rep->start = 1000;
	memset(&in, 0, sizeof(in));
	in.acct.cpu_ns = 3000000000ull;
	in.acct.io.read_bytes = (uint64_t)(5 * MiB);
	in.acct.io.write_bytes = (uint64_t)(7 * MiB);
	in.acct.ctxsw = 11;
	in.total_processes = 4;
	in.max_live = 3;
	in.machine_cpus = 8;
	in.tracking = TP_TRACK_PTRACE;
	in.tracking_name = "ptrace";
	figures_fill(f, &in, 10, true);
	figures_exit(f, true, 3 << 8);	/* exited with status 3 */
}

int main(void)
{
	char dir[] = "/tmp/test-summary.XXXXXX", *tmpl, *path;
	static char a0[] = "tpmon", a1[] = "-O", a3[] = "--", a4[] = "printf",
		    a5[] = "a\"b\n\xff";
	char *argv[] = { a0, a1, NULL, a3, a4, a5, NULL };
	struct tp_options o;
	struct tp_figures f;
	struct tp_summary rep;
	json_error_t err;
	json_t *root;
	json_t *cmd;

	plan(18);
	if (!mkdtemp(dir))
		return 99;
	tmpl = malloc(strlen(dir) + 8);
	path = malloc(strlen(dir) + 16);
	sprintf(tmpl, "%s/run", dir);
	sprintf(path, "%s/run.summary", dir);
	argv[2] = tmpl;
	memset(&o, 0, sizeof(o));
	is_int(options_parse(&o, 6, argv), 0, "options parsed");
	fill(&f, &rep);

	is_int(summary_write(&o, &rep), 0, "summary_write() wrote TEMPLATE.summary");
	root = json_load_file(path, 0, &err);
	ok(json_is_object(root), "the summary is a JSON object (%s)", root ? "" : err.text);
	is_double(value_of(root, "wall_time", "s"), 10, 1e-9, "wall_time [10, \"s\"]");
	is_double(value_of(root, "cpu_time", "s"), 3, 1e-9, "cpu_time [3, \"s\"]");
	is_double(value_of(root, "total_processes", "procs"), 4, 0, "total_processes [4, \"procs\"]");
	is_double(value_of(root, "max_concurrent_processes", "procs"), 3, 0,
		  "max_concurrent_processes [3, \"procs\"]");
	is_double(value_of(root, "start", "s"), 1000, 1e-6, "start as given");
	is_double(value_of(root, "end", "s"), 1010, 1e-6, "end is start + wall_time");
	ok(json_is_null(json_object_get(root, "memory")), "memory never sampled: null, not 0");
	ok(json_is_null(json_object_get(root, "bytes_sent")), "network not measured: null");
	is_str(json_string_value(json_object_get(root, "exit_type")), "normal", "exit_type");
	ok(json_integer_value(json_object_get(root, "exit_status")) == 3, "exit_status 3");
	cmd = json_object_get(root, "command");
	is_str(str_or(json_string_value(cmd), ""), "printf 'a\"b\n\xef\xbf\xbd'",
	       "the command line is one JSON string, as typed (the word quoted as a "
	       "shell reads it back): quote and newline kept, invalid UTF-8 as U+FFFD");
	is_double(value_of(root, "bytes_read", "MB"), 5, 1e-9, "bytes_read [5, \"MB\"]");
	is_double(value_of(root, "context_switches", "switches"), 11, 0,
		  "context_switches, exact under ptrace");
	ok(json_is_array(json_object_get(root, "lower_bounds")) &&
	   json_array_size(json_object_get(root, "lower_bounds")) == 0,
	   "lower_bounds: none under ptrace with every figure exact");
	ok(json_is_null(json_object_get(root, "limits_exceeded")), "no limit: limits_exceeded null");

	json_decref(root);
	unlink(path);
	rmdir(dir);
	free(tmpl);
	free(path);
	figures_summary_free(&rep);
	figures_free(&f);
	options_free(&o);
	return done();
}
