/* SPDX-License-Identifier: MIT */
/* test-limits.c: unit tests of limits.c: JSON, text, files, -L arguments,
 * hostile inputs, exact messages, atomicity on error, limits_exceeded. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/limitset.h"
#include "tap.h"

#define ERRLEN 256

/* A spec that must be rejected: each needle must be in the message. */
struct reject_case {
	const char *text;
	const char *needle[3];
};

/* Limits set before each rejection, to check they survive it. */
static void baseline(struct tp_limits *l)
{
	memset(l, 0, sizeof(*l));
	l->set[TP_RES_DISK] = true;
	l->value[TP_RES_DISK] = 77;
}

static bool one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

/* Check a rejection: rc, untouched limits, message content and shape. */
static void check_rejected(const char *what, const char *text, int rc,
			   const struct tp_limits *before,
			   const struct tp_limits *after, const char *err,
			   const char *const needle[3])
{
	int i;

	ok(rc == -1, "%s \"%s\" rejected", what, text);
	ok(memcmp(before, after, sizeof(*before)) == 0,
	   "%s \"%s\" leaves the limits unchanged", what, text);
	ok(one_line(err) && err[0], "%s \"%s\" message is one printable line",
	   what, text);
	for (i = 0; i < 3 && needle[i]; i++)
		like(err, needle[i], "%s \"%s\" message mentions %s", what, text,
		     needle[i]);
}

static void reject_text(const char *origin, const struct reject_case *c)
{
	struct tp_limits before, l;
	char err[ERRLEN] = "";
	int rc;

	baseline(&before);
	l = before;
	rc = limitset_parse_text(&l, c->text, origin, err, sizeof(err));
	check_rejected("text", c->text, rc, &before, &l, err, c->needle);
}

static void reject_json(const char *origin, const char *text, size_t len,
			const char *const needle[3])
{
	struct tp_limits before, l;
	char err[ERRLEN] = "";
	int rc;

	baseline(&before);
	l = before;
	rc = limitset_parse_json(&l, text, len, origin, err, sizeof(err));
	check_rejected("json", text, rc, &before, &l, err, needle);
}

static const struct reject_case text_rejects[] = {
	{ "", { "-L: no limits given" } },
	{ "   ", { "-L: no limits given" } },
	{ ",,,", { "-L: no limits given" } },
	{ "\n\n# only a comment\n", { "-L: no limits given" } },
	{ "memory:", { "-L: memory: missing value" } },
	{ "memory:   ", { "-L: memory: missing value" } },
	{ ": 5", { "-L: missing resource name" } },
	{ "memory: 5 5", { "-L: memory: 5 5: not a number" } },
	{ "memory 5", { "-L: expected \"resource: value\", got \"memory 5\"" } },
	{ "memory", { "-L: expected", "\"memory\"" } },
	{ "foo: 5", { "-L: unknown resource \"foo\"" } },
	{ "Memory: 5", { "unknown resource \"Memory\"" } },
	{ "cores: -1", { "-L: cores: -1: must be positive" } },
	{ "cores: 0", { "-L: cores: 0: must be positive" } },
	{ "memory: 0", { "-L: memory: 0: must be positive" } },
	{ "memory: -0", { "-L: memory: -0: must be positive" } },
	{ "memory: 0K", { "-L: memory: 0K: must be positive" } },
	{ "swap_memory: -0", { "-L: swap_memory: -0: must not be negative" } },
	{ "bytes_read: -1G", { "-L: bytes_read: -1G: must not be negative" } },
	{ "wall_time: -5s", { "-L: wall_time: -5s: must be positive" } },
	{ "memory: 1e400", { "-L: memory: 1e400: out of range" } },
	{ "memory: 1e99999", { "memory: 1e99999: out of range" } },
	{ "memory: 2e15", { "-L: memory: 2e15: too large: at most 8796093022207 MB" } },
	{ "memory: 1e13G", { "memory: 1e13G: too large: at most 8796093022207 MB" } },
	{ "memory: 1e15", { "-L: memory: 1e15: too large: at most 8796093022207 MB" } },
	{ "memory: 1e15 GB", { "-L: memory: 1e15 GB: too large: at most 8796093022207 MB" } },
	{ "memory: 8796093022208", { "memory: 8796093022208: too large: at most 8796093022207 MB" } },
	{ "memory: 1e400", { "memory: 1e400: out of range: at most 8796093022207 MB" } },
	{ "memory: 1e-300", { "-L: memory: 1e-300: must be at least" } },
	{ "memory: 1e-400", { "-L: memory: 1e-400: must be at least" } },
	{ "memory: 1K", { "-L: memory: 1K: must be at least" } },
	{ "swap_memory: 1e-300", { "swap_memory: 1e-300: must be at least 0.001 MB" } },
	{ "disk: 1e-9", { "-L: disk: 1e-9: must be at least 0.001 MB" } },
	{ "disk: 2e15", { "-L: disk: 2e15: too large: at most 1000000000000000 MB" } },
	{ "bytes_written: 1e-300 K", { "bytes_written: 1e-300 K: must be at least 0.001 MB" } },
	{ "bandwidth: 1e-300", { "-L: bandwidth: 1e-300: must be at least 0.001 Mbps" } },
	{ "bandwidth: 1e16", { "-L: bandwidth: 1e16: too large: at most 1000000000000000 Mbps" } },
	{ "cores: 1e-300", { "-L: cores: 1e-300: must be at least 0.001 cores" } },
	{ "cores: 1e16", { "-L: cores: 1e16: too large: at most 1000000000000000 cores" } },
	{ "wall_time: 1e-300", { "-L: wall_time: 1e-300: must be at least 0.000001 s" } },
	{ "wall_time: 1e-300h", { "-L: wall_time: 1e-300h: must be at least 0.000001 s" } },
	{ "cpu_time: 1e-7", { "-L: cpu_time: 1e-7: must be at least 0.000001 s" } },
	{ "cpu_time: 1e12d", { "-L: cpu_time: 1e12d: too large: at most 1000000000000000 s" } },
	{ "max_concurrent_processes: 1e-300", { "max_concurrent_processes: 1e-300: must be at least 1 procs" } },
	{ "total_processes: 2e15", { "total_processes: 2e15: too large: at most 1000000000000000 procs" } },
	{ "gpus: 1e-300", { "-L: gpus: 1e-300: must be at least 1 gpus" } },
	{ "gpu_memory: 1e-300", { "-L: gpu_memory: 1e-300: must be at least 0.001 MB" } },
	{ "end: 1e-300", { "-L: end: 1e-300: must be from 1 to 1000000000000000 s since the epoch" } },
	{ "end: 1e300", { "-L: end: 1e300: must be from 1 to" } },
	{ "memory: 0x10", { "-L: memory: 0x10: not a number" } },
	{ "memory: nan", { "-L: memory: nan: not a number" } },
	{ "memory: inf", { "-L: memory: inf: not a number" } },
	{ "memory: -inf", { "-L: memory: -inf: not a number" } },
	{ "memory: 12Q", { "-L: memory: 12Q: unknown unit \"Q\"" } },
	{ "memory: 5s", { "-L: memory: 5s: unit \"s\" does not fit a size" } },
	{ "wall_time: 2G", { "-L: wall_time: 2G: unit \"G\" does not fit a time" } },
	{ "cores: 2G", { "-L: cores: 2G: cores takes no unit" } },
	{ "cores: 2 procs", { "cores: 2 procs: cores takes no unit" } },
	{ "total_files: 5 procs", { "total_files: 5 procs: a count takes no unit" } },
	{ "total_processes: 1.5", { "total_processes: 1.5: must be a whole number" } },
	{ "max_concurrent_processes: 3K", { "max_concurrent_processes: 3K:" } },
	{ "memory: \"2G\"", { "memory: \"2G\": not a number" } },
	{ "memory: 5: 6", { "memory: 5: 6: not a number" } },
	{ "memory: 1, foo: 2", { "unknown resource \"foo\"" } },
	{ "memory: 1\ncores: 2\nfoo: 3\n", { "-L:3: unknown resource \"foo\"" } },
	{ "# c\n\nmemory: 1G\ncores: x\n", { "-L:4: cores: x: not a number" } },
	{ "memory: 1; cores: 2", { "-L: memory: 1; cores: 2: not a number" } },
	{ "memory: 5 # trailing comment", { "memory: 5 # trailing comment: not a number" } },
	{ "memory: 1G\x01", { "memory: 1G?: not a number" } },
	{ "\x01\x02: 5", { "unknown resource \"??\"" } },
	{ "memory: 123456789012345678901234567890123456789012345678901234567890x",
	  { "memory: 1234567890123456789012345678901234567890...: " } },
};

static void test_text_rejects(void)
{
	size_t i;

	for (i = 0; i < sizeof(text_rejects) / sizeof(text_rejects[0]); i++)
		reject_text("-L", &text_rejects[i]);
}

static void test_text_good(void)
{
	struct tp_limits l;
	char err[ERRLEN] = "";
	int r;

	memset(&l, 0, sizeof(l));
	ok(limitset_parse_text(&l, "memory: 2048, cores: 2", "-L", err,
			     sizeof(err)) == 0, "text \"memory: 2048, cores: 2\"");
	is_double(l.value[TP_RES_MEMORY], 2048, 0, "memory 2048 MB");
	is_double(l.value[TP_RES_CORES], 2, 0, "cores 2");
	for (r = 0; r < TP_RES__COUNT; r++)
		if (r != TP_RES_MEMORY && r != TP_RES_CORES && l.set[r])
			break;
	ok(l.set[TP_RES_MEMORY] && l.set[TP_RES_CORES] && r == TP_RES__COUNT,
	   "exactly memory and cores are set");

	memset(&l, 0, sizeof(l));
	ok(limitset_parse_text(&l,
			     "# limits for a job\n"
			     "\n"
			     "  memory : 1.5G  \n"
			     "\twall_time:1.5h\r\n"
			     "cpu_time: 250ms, disk: 512MiB,\n"
			     "   # indented comment, foo: 1\n"
			     "swap_memory: 0, bytes_read: 0, bytes_written: 0\n"
			     "total_files: 10 files, max_concurrent_processes: 4 procs\n"
			     "total_processes: 1e3\n"
			     "virtual_memory: 2 TiB\n"
			     "cores: 1.5 cores\n",
			     "limits.txt", err, sizeof(err)) == 0,
	   "multi-line text with comments, units, CRLF and trailing comma");
	if (err[0])
		diag("err: %s", err);
	is_double(l.value[TP_RES_MEMORY], 1536, 0, "memory 1.5G = 1536 MB");
	is_double(l.value[TP_RES_WALL_TIME], 5400, 0, "wall_time 1.5h = 5400 s");
	is_double(l.value[TP_RES_CPU_TIME], 0.25, 1e-12, "cpu_time 250ms = 0.25 s");
	is_double(l.value[TP_RES_DISK], 512, 0, "disk 512MiB = 512 MB");
	ok(l.set[TP_RES_SWAP_MEMORY] && l.value[TP_RES_SWAP_MEMORY] == 0,
	   "swap_memory 0 is set");
	ok(l.set[TP_RES_BYTES_READ] && l.set[TP_RES_BYTES_WRITTEN],
	   "bytes_read and bytes_written 0 are set");
	is_double(l.value[TP_RES_TOTAL_FILES], 10, 0, "total_files \"10 files\"");
	is_double(l.value[TP_RES_MAX_CONCURRENT_PROCESSES], 4, 0,
		  "max_concurrent_processes \"4 procs\"");
	is_double(l.value[TP_RES_TOTAL_PROCESSES], 1000, 0, "total_processes 1e3");
	is_double(l.value[TP_RES_VIRTUAL_MEMORY], 2097152, 0,
		  "virtual_memory 2 TiB = 2097152 MB");
	is_double(l.value[TP_RES_CORES], 1.5, 0, "cores \"1.5 cores\"");

	memset(&l, 0, sizeof(l));
	ok(limitset_parse_text(&l, "memory: 1, memory: 2", "-L", err,
			     sizeof(err)) < 0 && strstr(err, "memory is given twice") &&
	   !l.set[TP_RES_MEMORY], "a resource named twice in one text is refused");
	ok(limitset_parse_text(&l, "memory: 1\nwall_time: 3\nmemory: 2", "f", err,
			     sizeof(err)) < 0 && strstr(err, "f:3: "),
	   "also on different lines of a file, with the line");
	ok(limitset_parse_text(&l, "memory: 1", "-L", err, sizeof(err)) == 0 &&
	   limitset_parse_text(&l, "memory: 2", "-L", err, sizeof(err)) == 0,
	   "two separate -L texts may name the same resource");
	is_double(l.value[TP_RES_MEMORY], 2, 0, "the later -L wins");
	ok(limitset_parse_text(&l, "memory: 5,", "-L", err, sizeof(err)) == 0 &&
	   l.value[TP_RES_MEMORY] == 5, "a trailing comma is an empty entry");
	ok(limitset_parse_text(&l, "memory:3", "-L", err, sizeof(err)) == 0 &&
	   l.value[TP_RES_MEMORY] == 3, "no space after the colon");
	ok(limitset_parse_text(&l, "memory: 64K", "-L", err, sizeof(err)) == 0 &&
	   l.value[TP_RES_MEMORY] == 0.0625, "a tiny positive memory limit");
	ok(limitset_parse_text(&l, "memory: 8796093022207", "-L", err, sizeof(err)) == 0 &&
	   l.value[TP_RES_MEMORY] == 8796093022207.0,
	   "8796093022207 MB (2^63 bytes less 1 MiB) is the largest memory");
	ok(limitset_parse_text(&l, "disk: 1e15", "-L", err, sizeof(err)) == 0 &&
	   l.value[TP_RES_DISK] == 1e15, "1e15 MB is the largest disk");
	ok(limitset_parse_text(&l, "wall_time: 1e15", "-L", err, sizeof(err)) == 0 &&
	   l.value[TP_RES_WALL_TIME] == 1e15, "1e15 s is the largest wall_time");
	ok(limitset_parse_text(&l, "wall_time: 1us", "-L", err, sizeof(err)) < 0,
	   "no unit us");
	ok(limitset_parse_text(&l, "wall_time: 0.000001, cores: 0.001, gpus: 1", "-L",
			       err, sizeof(err)) == 0 &&
	   l.value[TP_RES_WALL_TIME] == 0.000001 && l.value[TP_RES_CORES] == 0.001,
	   "the smallest wall_time and cores: the summary's last decimal");
}

/* JSON values that must be accepted: @res gets @want. */
static void accept_json(const char *text, enum tp_res res, double want)
{
	struct tp_limits l;
	char err[ERRLEN] = "";

	memset(&l, 0, sizeof(l));
	if (!ok(limitset_parse_json(&l, text, strlen(text), "limits.json", err,
				  sizeof(err)) == 0, "json %s accepted", text))
		diag("err: %s", err);
	ok(l.set[res], "json %s sets %s", text, res_info(res)->name);
	is_double(l.value[res], want, fabs(want) * 1e-12, "json %s: %s is %g",
		  text, res_info(res)->name, want);
}

static void test_json_good(void)
{
	static const char all[] =
		"{\"memory\": 2048, \"wall_time\": \"90s\", \"disk\": [1, \"GB\"],\n"
		" \"cores\": 2, \"cpu_time\": [1.5, \"h\"], \"swap_memory\": 0,\n"
		" \"max_concurrent_processes\": [5, \"procs\"]}";
	struct tp_limits l;
	char err[ERRLEN] = "";
	int r, n = 0;

	memset(&l, 0, sizeof(l));
	ok(limitset_parse_json(&l, all, strlen(all), "limits.json", err,
			     sizeof(err)) == 0, "json with every value form");
	is_double(l.value[TP_RES_MEMORY], 2048, 0, "memory 2048");
	is_double(l.value[TP_RES_WALL_TIME], 90, 0, "wall_time \"90s\"");
	is_double(l.value[TP_RES_DISK], 1024, 0, "disk [1, \"GB\"]");
	is_double(l.value[TP_RES_CORES], 2, 0, "cores 2");
	is_double(l.value[TP_RES_CPU_TIME], 5400, 0, "cpu_time [1.5, \"h\"]");
	is_double(l.value[TP_RES_SWAP_MEMORY], 0, 0, "swap_memory 0");
	is_double(l.value[TP_RES_MAX_CONCURRENT_PROCESSES], 5, 0,
		  "max_concurrent_processes [5, \"procs\"]");
	for (r = 0; r < TP_RES__COUNT; r++)
		n += l.set[r];
	is_int(n, 7, "exactly 7 limits set");

	accept_json("{\"memory\": \"2G\"}", TP_RES_MEMORY, 2048);
	accept_json("{\"memory\": \"512MiB\"}", TP_RES_MEMORY, 512);
	accept_json("{\"memory\": [2048, \"MB\"]}", TP_RES_MEMORY, 2048);
	accept_json("{\"memory\": [1, \"gib\"]}", TP_RES_MEMORY, 1024);
	accept_json("{\"memory\": [4, \"K\"]}", TP_RES_MEMORY, 4.0 / 1024);
	accept_json("{\"memory\": 1.5e3}", TP_RES_MEMORY, 1500);
	accept_json("{\"wall_time\": \"250ms\"}", TP_RES_WALL_TIME, 0.25);
	accept_json("{\"wall_time\": [2, \"min\"]}", TP_RES_WALL_TIME, 120);
	accept_json("{\"wall_time\": [2, \"\"]}", TP_RES_WALL_TIME, 2);
	accept_json("{\"cores\": [2, \"cores\"]}", TP_RES_CORES, 2);
	accept_json("{\"cores\": 0.5}", TP_RES_CORES, 0.5);
	accept_json("{\"total_files\": \"10 files\"}", TP_RES_TOTAL_FILES, 10);
	accept_json("{\"total_files\": 5.0}", TP_RES_TOTAL_FILES, 5);
	accept_json("{\"total_processes\": 1e3}", TP_RES_TOTAL_PROCESSES, 1000);
	accept_json("{\"bytes_read\": 0}", TP_RES_BYTES_READ, 0);
	accept_json("{\"bytes_written\": [0, \"G\"]}", TP_RES_BYTES_WRITTEN, 0);
	accept_json("  \n\t{\"disk\": 1}  \n", TP_RES_DISK, 1);

	memset(&l, 0, sizeof(l));
	ok(limitset_parse_json(&l, "{}", 2, "limits.json", err, sizeof(err)) == 0,
	   "an empty JSON object is accepted");
	ok(limitset_parse_json(&l, "{\"memory\": 5}XXXXXXX", 13, "limits.json",
			     err, sizeof(err)) == 0 && l.value[TP_RES_MEMORY] == 5,
	   "only len bytes of the JSON text are read");
}

static void test_json_rejects(void)
{
	static const char nul_after[] = "{\"memory\": 5}\0garbage";
	static const char nul_key[] = "{\"mem\0ory\": 5}";
	struct {
		const char *text;
		const char *needle[3];
	} const c[] = {
		{ "", { "limits.json: invalid JSON at line 1" } },
		{ "   ", { "limits.json: invalid JSON at line 1" } },
		{ "5", { "limits.json: invalid JSON" } },
		{ "\"memory\"", { "limits.json: invalid JSON" } },
		{ "[1]", { "limits.json: limits must be a JSON object" } },
		{ "[]", { "must be a JSON object" } },
		{ "{", { "invalid JSON" } },
		{ "{\"memory\": 5,}", { "invalid JSON at line 1, column 14" } },
		{ "{\"memory\": 5} {}", { "invalid JSON" } },
		{ "{\n  \"memory\": 5\n  \"cores\": 1\n}", { "invalid JSON at line 3" } },
		{ "{\"memory\": 1, \"memory\": 2}", { "invalid JSON", "duplicate" } },
		{ "{\"memory\": NaN}", { "invalid JSON" } },
		{ "{\"memory\": 1e400}", { "invalid JSON" } },
		{ "{\"memory\": 99999999999999999999999}", { "invalid JSON" } },
		{ "{\"memory\": 0x10}", { "invalid JSON" } },
		{ "{\"memory\": \"mem\\u0000ory\"}", { "invalid JSON" } },
		{ "{\"mem\\u0000ory\": 5}", { "invalid JSON" } },
		{ "{\"memory\": \"12Q\"}", { "limits.json: memory: \"12Q\": unknown unit \"Q\"" } },
		{ "{\"foo\": 1}", { "limits.json: unknown resource \"foo\"" } },
		{ "{\"m\\u00e9moire\": 1}", { "unknown resource \"m??moire\"" } },
		{ "{\"memory\": -1}", { "limits.json: memory: -1: must be positive" } },
		{ "{\"memory\": -0.0}", { "limits.json: memory: -0: must be positive" } },
		{ "{\"swap_memory\": -1}", { "swap_memory: -1: must not be negative" } },
		{ "{\"memory\": 0}", { "limits.json: memory: 0: must be positive" } },
		{ "{\"disk\": -0}", { "limits.json: disk: 0: must be positive" } },
		{ "{\"cores\": 0}", { "cores: 0: must be positive" } },
		{ "{\"total_processes\": 0}", { "total_processes: 0: must be positive" } },
		{ "{\"memory\": true}", { "memory: true: expected a number" } },
		{ "{\"memory\": false}", { "memory: false: expected a number" } },
		{ "{\"memory\": null}", { "memory: null: expected a number" } },
		{ "{\"memory\": {}}", { "memory: {}: expected a number" } },
		{ "{\"memory\": []}", { "memory: []: expected a number" } },
		{ "{\"memory\": [1]}", { "memory: [1]: expected" } },
		{ "{\"memory\": [1, \"G\", 3]}", { "memory: [1,\"G\",3]: expected" } },
		{ "{\"memory\": [\"1\", \"G\"]}", { "memory: [\"1\",\"G\"]: expected" } },
		{ "{\"memory\": [1, 2]}", { "memory: [1,2]: expected" } },
		{ "{\"memory\": [1, null]}", { "memory: [1,null]: expected" } },
		{ "{\"memory\": [1, \"Q\"]}", { "memory: [1,\"Q\"]: unknown unit \"Q\"" } },
		{ "{\"memory\": [-1, \"G\"]}", { "memory: [-1,\"G\"]: must be positive" } },
		{ "{\"memory\": 1e300}", { "memory: 1e+300: too large: at most 8796093022207 MB" } },
		{ "{\"memory\": 1e15}", { "memory: 1e+15: too large: at most 8796093022207 MB" } },
		{ "{\"memory\": 1e-300}", { "memory: 1e-300: must be at least" } },
		{ "{\"memory\": [1e-300, \"G\"]}", { "memory: [1e-300,\"G\"]: must be at least" } },
		{ "{\"memory\": [1e15, \"GB\"]}", { "at most 8796093022207 MB" } },
		{ "{\"wall_time\": 1e-300}", { "wall_time: 1e-300: must be at least 0.000001 s" } },
		{ "{\"end\": 1e-300}", { "end: 1e-300: must be from 1" } },
		{ "{\"memory\": [1e12, \"T\"]}", { "memory: [1000000000000.0,\"T\"]: too large" } },
		{ "{\"memory\": \"1e400\"}", { "memory: \"1e400\": out of range" } },
		{ "{\"memory\": \"-0\"}", { "memory: \"-0\": must be positive" } },
		{ "{\"memory\": \"0x10\"}", { "memory: \"0x10\": not a number" } },
		{ "{\"memory\": \"nan\"}", { "memory: \"nan\": not a number" } },
		{ "{\"memory\": \"inf\"}", { "memory: \"inf\": not a number" } },
		{ "{\"memory\": \"\"}", { "memory: \"\": empty value" } },
		{ "{\"memory\": \"5s\"}", { "memory: \"5s\": unit \"s\" does not fit a size" } },
		{ "{\"memory\": \"1\\nG\"}", { "memory: \"1\\nG\": not a number" } },
		{ "{\"wall_time\": \"2G\"}", { "wall_time: \"2G\": unit \"G\" does not fit a time" } },
		{ "{\"cores\": \"2G\"}", { "cores: \"2G\": cores takes no unit" } },
		{ "{\"cores\": [2, \"G\"]}", { "cores: [2,\"G\"]: cores takes no unit" } },
		{ "{\"cores\": [2, \"procs\"]}", { "cores takes no unit, got \"procs\"" } },
		{ "{\"total_files\": 1.5}", { "total_files: 1.5: must be a whole number" } },
		{ "{\"total_files\": \"1.5\"}", { "total_files: \"1.5\": must be a whole number" } },
		{ "{\"memory\": 1, \"foo\": 2}", { "unknown resource \"foo\"" } },
		{ "{\"memory\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}",
		  { "memory: \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...: not a number" } },
	};
	const char *const nul_needle[3] = { "invalid JSON" };
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		reject_json("limits.json", c[i].text, strlen(c[i].text), c[i].needle);
	reject_json("limits.json", nul_after, sizeof(nul_after) - 1, nul_needle);
	reject_json("limits.json", nul_key, sizeof(nul_key) - 1, nul_needle);
}

static void test_small_buffers(void)
{
	struct tp_limits l;
	char err[8];

	memset(&l, 0, sizeof(l));
	memset(err, 'x', sizeof(err));
	ok(limitset_parse_text(&l, "cores: -1", "-L", err, sizeof(err)) == -1 &&
	   err[sizeof(err) - 1] == '\0' && strcmp(err, "-L: cor") == 0,
	   "a short error buffer is truncated and terminated");
	memset(err, 'x', sizeof(err));
	ok(limitset_parse_json(&l, "{", 1, "a-very-long-origin-name", err,
			     sizeof(err)) == -1 && strlen(err) == sizeof(err) - 1,
	   "a long origin is truncated in a short buffer");
	ok(limitset_parse_text(&l, "cores: -1", "-L", NULL, 0) == -1,
	   "a NULL error buffer is allowed");
	err[0] = 'Z';
	ok(limitset_parse_json(&l, "{", 1, "x", err, 0) == -1 && err[0] == 'Z',
	   "errlen 0 writes nothing");
}

static void test_accumulate(void)
{
	struct tp_limits l;
	char err[ERRLEN] = "";

	memset(&l, 0, sizeof(l));
	ok(limitset_parse_text(&l, "memory: 1", "-L", err, sizeof(err)) == 0 &&
	   limitset_parse_json(&l, "{\"cores\": 2}", 12, "-L", err, sizeof(err)) == 0 &&
	   limitset_parse_text(&l, "memory: 3", "-L", err, sizeof(err)) == 0,
	   "three specs in a row");
	ok(l.set[TP_RES_MEMORY] && l.value[TP_RES_MEMORY] == 3 &&
	   l.set[TP_RES_CORES] && l.value[TP_RES_CORES] == 2,
	   "specs add up; a later value replaces an earlier one");
	ok(limitset_parse_text(&l, "disk: 1, cores: bad", "-L", err, sizeof(err)) == -1 &&
	   !l.set[TP_RES_DISK] && l.value[TP_RES_CORES] == 2,
	   "a spec failing after a good entry changes nothing");
}

static void test_exceeded(void)
{
	struct tp_limits l;

	memset(&l, 0, sizeof(l));
	ok(!limitset_exceeded(&l, TP_RES_MEMORY, 1e12), "no limit: never exceeded");
	l.set[TP_RES_MEMORY] = true;
	l.value[TP_RES_MEMORY] = 100;
	ok(!limitset_exceeded(&l, TP_RES_MEMORY, 99.9), "99.9 of 100 MB: not over");
	ok(!limitset_exceeded(&l, TP_RES_MEMORY, 100), "100 of 100 MB: not over");
	ok(limitset_exceeded(&l, TP_RES_MEMORY, 100.001), "100.001 of 100 MB: over");
	ok(!limitset_exceeded(&l, TP_RES_MEMORY, NAN), "unknown (NaN) is not over");
	l.set[TP_RES_TOTAL_PROCESSES] = true;
	l.value[TP_RES_TOTAL_PROCESSES] = 5;
	ok(!limitset_exceeded(&l, TP_RES_TOTAL_PROCESSES, 5), "5 of 5 procs: not over");
	ok(limitset_exceeded(&l, TP_RES_TOTAL_PROCESSES, 6), "6 of 5 procs: over");
	l.set[TP_RES_SWAP_MEMORY] = true;
	l.value[TP_RES_SWAP_MEMORY] = 0;
	ok(!limitset_exceeded(&l, TP_RES_SWAP_MEMORY, 0), "swap 0 of 0: not over");
	ok(limitset_exceeded(&l, TP_RES_SWAP_MEMORY, 0.01), "swap 0.01 of 0: over");
	ok(!limitset_exceeded(&l, TP_RES_CORES, 64), "cores unset: not over");
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

static void path_in(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len) {
		fprintf(stderr, "path too long: %s/%s\n", dir, name);
		exit(99);
	}
}

static void write_str(const char *path, const char *s)
{
	write_file(path, s, strlen(s));
}

static void test_files(const char *dir)
{
	char json[512], text[512], nul[512], empty[512], big[512];
	char missing[512], err[ERRLEN] = "";
	static const char nul_text[] = "memory: 5\0cores: 2\n";
	struct tp_limits l, before;
	char *huge;

	path_in(json, sizeof(json), dir, "limits.json");
	path_in(text, sizeof(text), dir, "limits.txt");
	path_in(nul, sizeof(nul), dir, "nul.txt");
	path_in(empty, sizeof(empty), dir, "empty.txt");
	path_in(big, sizeof(big), dir, "big.txt");
	path_in(missing, sizeof(missing), dir, "missing.json");
	write_str(json, "\n  {\"memory\": \"1G\",\n \"cores\": 2}\n");
	write_str(text, "# limits\nmemory: 2G\nwall_time: 1m\n");
	write_file(nul, nul_text, sizeof(nul_text) - 1);
	write_str(empty, "");
	huge = malloc(2 * 1024 * 1024);
	if (!huge)
		exit(99);
	memset(huge, '\n', 2 * 1024 * 1024);
	write_file(big, huge, 2 * 1024 * 1024);
	free(huge);

	memset(&l, 0, sizeof(l));
	ok(limitset_parse_file(&l, json, err, sizeof(err)) == 0 &&
	   l.value[TP_RES_MEMORY] == 1024 && l.value[TP_RES_CORES] == 2,
	   "JSON file after blank lines");
	memset(&l, 0, sizeof(l));
	ok(limitset_parse_file(&l, text, err, sizeof(err)) == 0 &&
	   l.value[TP_RES_MEMORY] == 2048 && l.value[TP_RES_WALL_TIME] == 60,
	   "text file");
	memset(&l, 0, sizeof(l));
	ok(limitset_parse_arg(&l, json, err, sizeof(err)) == 0 &&
	   l.value[TP_RES_MEMORY] == 1024, "-L with a JSON file name");
	memset(&l, 0, sizeof(l));
	ok(limitset_parse_arg(&l, text, err, sizeof(err)) == 0 &&
	   l.value[TP_RES_WALL_TIME] == 60, "-L with a text file name");

	baseline(&before);
	l = before;
	ok(limitset_parse_file(&l, missing, err, sizeof(err)) == -1 &&
	   memcmp(&l, &before, sizeof(l)) == 0, "missing file rejected");
	like(err, missing, "message names the missing file");
	like(err, strerror(ENOENT), "message says %s", strerror(ENOENT));
	ok(limitset_parse_file(&l, dir, err, sizeof(err)) == -1,
	   "a directory is rejected");
	like(err, strerror(EISDIR), "message says %s", strerror(EISDIR));
	ok(limitset_parse_file(&l, nul, err, sizeof(err)) == -1, "NUL byte rejected");
	like(err, "nul.txt: contains a NUL byte", "message names the NUL byte");
	ok(limitset_parse_file(&l, empty, err, sizeof(err)) == -1, "empty file rejected");
	like(err, "empty.txt: no limits given", "message says no limits");
	ok(limitset_parse_file(&l, big, err, sizeof(err)) == -1, "2 MB file rejected");
	like(err, "big.txt: too large", "message says too large");
	ok(memcmp(&l, &before, sizeof(l)) == 0, "file errors change nothing");

	write_str(text, "memory: 2G\nwall_time: 1m\ncores: 2G\n");
	ok(limitset_parse_file(&l, text, err, sizeof(err)) == -1, "bad text file");
	like(err, "limits.txt:3: cores: 2G: cores takes no unit",
	     "text file message has the line number");
	write_str(json, "{\"memory\": 1,\n\"memory\": 2}");
	ok(limitset_parse_arg(&l, json, err, sizeof(err)) == -1, "bad JSON file");
	like(err, "limits.json: invalid JSON at line 2", "JSON message has the line");

	ok(limitset_parse_arg(&l, missing, err, sizeof(err)) == -1,
	   "-L with a missing file name");
	like(err, "-L: ", "message starts with -L");
	like(err, strerror(ENOENT), "message says %s", strerror(ENOENT));
	ok(limitset_parse_arg(&l, dir, err, sizeof(err)) == -1,
	   "-L with a directory");
	like(err, "not a regular file", "message says not a regular file");
	ok(memcmp(&l, &before, sizeof(l)) == 0, "-L errors change nothing");

	memset(&l, 0, sizeof(l));
	ok(limitset_parse_arg(&l, "memory: 2G, cores: 2", err, sizeof(err)) == 0 &&
	   l.value[TP_RES_MEMORY] == 2048 && l.value[TP_RES_CORES] == 2,
	   "-L with text");
	ok(limitset_parse_arg(&l, " {\"disk\": [2, \"G\"]}", err, sizeof(err)) == 0 &&
	   l.value[TP_RES_DISK] == 2048, "-L with inline JSON");
	ok(limitset_parse_arg(&l, "{\"disk\": 0}", err, sizeof(err)) == -1,
	   "-L with bad inline JSON");
	is_str(err, "-L: disk: 0: must be positive", "inline JSON message");
	ok(limitset_parse_arg(&l, "cores: -1", err, sizeof(err)) == -1,
	   "-L cores: -1");
	is_str(err, "-L: cores: -1: must be positive", "exact -L message");
	ok(limitset_parse_arg(&l, "", err, sizeof(err)) == -1, "-L \"\"");
	is_str(err, "-L: no limits given", "-L \"\" message");

	unlink(json);
	unlink(text);
	unlink(nul);
	unlink(empty);
	unlink(big);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/test-limits.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_text_good();
	test_text_rejects();
	test_json_good();
	test_json_rejects();
	test_small_buffers();
	test_accumulate();
	test_exceeded();
	test_files(dir);
	rmdir(dir);
	return done();
}
