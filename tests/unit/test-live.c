/* SPDX-License-Identifier: MIT */
/* test-live.c: the live formats on hostile text (src/live): a Prometheus
 * label value and an InfluxDB tag value cannot end a line or add a label,
 * a tag, a field or a metric; the write URL; the runtime file read back,
 * and refused when it is not one; the table of targets (livetarget.h):
 * whole rows, unique names, and only the runtime file wanted by default. */
#include <stdlib.h>
#include <string.h>
#include "live/liveint.h"
#include "live/livetarget.h"
#include "live/liveread.h"
#include "tap.h"

static int count(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static void test_prom_label(void)
{
	char *v = prom_label_value("a\"b\\c\nd} 1\nevil_metric 2");

	is_str(v, "a\\\"b\\\\c\\nd} 1\\nevil_metric 2", "prom: quote, backslash, newline escaped");
	ok(!strchr(v, '\n'), "prom: no newline left");
	free(v);
	v = prom_label_value("x\xff\xfey");
	is_str(v, "x\xef\xbf\xbd\xef\xbf\xbdy", "prom: invalid UTF-8 replaced");
	free(v);
}

static void test_influx_tag(void)
{
	char *v = influx_tag_value("a,b=c d\nevil value=1");

	is_str(v, "a\\,b\\=c\\ d\\nevil\\ value\\=1", "influx: , = space escaped, newline shown");
	ok(!strchr(v, '\n') && !strchr(v, '\r'), "influx: no line end left");
	free(v);
	v = influx_tag_value("end\\");
	is_str(v, "end\\\\", "influx: a final backslash is doubled");
	free(v);
	v = influx_tag_value("x\\,y");
	is_str(v, "x\\\\\\,y", "influx: a backslash before a comma is doubled");
	free(v);
	v = influx_tag_value("");
	is_str(v, "-", "influx: an empty tag value is '-'");
	free(v);
}

static void test_influx_line(void)
{
	struct tp_limits lim;
	struct tp_live_meta m;
	struct tp_live_point p;
	const char *want = "tpmon_task,category=c\\ a\\,t\\nx\\=1\\ y,host=h,pid=42,task=job\\ 1 ";
	char *line;

	memset(&lim, 0, sizeof(lim));
	memset(&m, 0, sizeof(m));
	memset(&p, 0, sizeof(p));
	m.category = "c a,t\nx=1 y";
	m.task = "job 1";
	m.host = "h";
	m.pid = 42;
	m.limits = &lim;
	p.memory_bytes = 125829120;
	p.cpu_seconds = 1.5;
	p.cores = 2;
	p.cores_known = true;
	line = influx_line(&m, &p, 1000.5);
	ok(count(line, '\n') == 1 && line[strlen(line) - 1] == '\n', "influx: one line");
	ok(!strncmp(line, want, strlen(want)), "influx: measurement and escaped tags");
	like(line, " memory_bytes=125829120i,", "influx: memory_bytes, an integer");
	like(line, ",cpu_seconds=1.500000,", "influx: cpu_seconds");
	like(line, ",cores=2.0000,", "influx: cores");
	like(line, " 1000500\n", "influx: the time in ms");
	free(line);
}

static void test_urls(void)
{
	char *u = influx_write_url("http://localhost:8086/write?db=tpmon");

	is_str(u, "http://localhost:8086/write?db=tpmon&precision=ms", "url: precision added");
	free(u);
	u = influx_write_url("http://localhost:8086");
	is_str(u, "http://localhost:8086/write?db=tpmon&precision=ms", "url: a bare server");
	free(u);
	u = influx_write_url("http://h:1/?db=x");
	is_str(u, "http://h:1/write?db=x&precision=ms", "url: a server with a database");
	free(u);
	u = influx_write_url("http://h:1/write?db=x&precision=s");
	is_str(u, "http://h:1/write?db=x&precision=s", "url: its own precision kept");
	free(u);
}

static void test_prom_text(void)
{
	struct tp_limits lim;
	struct tp_live_meta m;
	struct tp_live_point p;
	char *t, *line;
	int n = 0;

	memset(&lim, 0, sizeof(lim));
	memset(&m, 0, sizeof(m));
	memset(&p, 0, sizeof(p));
	lim.set[TP_RES_MEMORY] = true;
	lim.value[TP_RES_MEMORY] = 100;
	m.category = "x\"}\ntpmon_task_memory_bytes{task=\"fake\"} 1";
	m.task = "t";
	m.pid = 7;
	m.limits = &lim;
	p.memory_bytes = 5;
	t = prom_text(&m, &p);
	like(t, "\ntpmon_task_memory_bytes{task=\"t\",category=\"x\\\"}\\ntpmon_task_memory_bytes"
	     "{task=\\\"fake\\\"} 1\",pid=\"7\"} 5\n", "prom: the hostile category stays a label");
	for (line = strstr(t, "\ntpmon_task_memory_bytes{"); line;
	     line = strstr(line + 1, "\ntpmon_task_memory_bytes{"))
		n++;
	is_int(n, 1, "prom: one tpmon_task_memory_bytes sample");
	like(t, "\ntpmon_task_limit_memory_bytes{task=\"t\",", "prom: a limit gauge");
	like(t, "} 104857600\n", "prom: the limit in bytes");
	like(t, "# TYPE tpmon_task_cpu_seconds_total counter\n", "prom: TYPE lines");
	free(t);
}

static void test_liveread(void)
{
	const char *good = "{\"tpmon_live\":1,\"pid\":12,\"pid_start\":99,\"task_pid\":13,"
			   "\"command\":\"a\\u001b[2Jb\",\"category\":null,\"elapsed\":2.5,"
			   "\"now\":{\"memory_bytes\":1048576,\"cores\":0.5},"
			   "\"peak\":{\"memory_bytes\":2097152},\"limits\":{\"memory_bytes\":5}}";
	struct tp_liverun r;

	ok(liveread_parse(good, strlen(good), &r) == 0, "liveread: a runtime file");
	is_int(r.pid, 12, "liveread: pid");
	is_int((long long)r.pid_start, 99, "liveread: its start time");
	is_double(r.memory, 1048576, 0, "liveread: memory");
	is_double(r.memory_peak, 2097152, 0, "liveread: peak");
	is_double(r.memory_limit, 5, 0, "liveread: limit");
	is_str(r.command, "a\033[2Jb", "liveread: the command as written (shown through safetext)");
	ok(r.category == NULL && r.gpu_memory < 0, "liveread: unknowns");
	liveread_free(NULL, 0);
	free(r.command);
	free(r.task);
	free(r.state);
	ok(liveread_parse("{\"pid\":1}", 9, &r) < 0, "liveread: not a runtime file");
	ok(liveread_parse("{\"tpmon_live\":1,\"pid\":1", 23, &r) < 0, "liveread: cut short");
	ok(liveread_parse("[1]", 3, &r) < 0, "liveread: not an object");
}

static void test_targets(void)
{
	char a0[] = "tpmon", a1[] = "true", *argv[] = { a0, a1, NULL };
	struct tp_options o;
	bool whole = true, unique = true, pairs = true;
	size_t i, j, n, wanted = 0;

	memset(&o, 0, sizeof(o));
	is_int(options_parse(&o, 2, argv), 0, "targets: default options parsed");
	for (n = 0; live_targets[n]; n++) {
		const struct tp_live_target *t = live_targets[n];

		whole &= t->name && *t->name && t->wanted && t->open && t->point && t->final &&
			 t->close;
		pairs &= !t->summary_due == !t->summary;
		for (j = 0; j < n; j++)
			unique &= !t->name || !live_targets[j]->name ||
				  strcmp(t->name, live_targets[j]->name) != 0;
		if (t->wanted(&o))
			wanted++;
	}
	is_int((long)n, 4, "targets: 4 rows");
	ok(whole, "targets: every row has a name, wanted, open, point, final, close");
	ok(pairs, "targets: summary_due and summary come together");
	ok(unique, "targets: names unique");
	ok(wanted == 1 && live_target_runfile.wanted(&o),
	   "targets: by default only the runtime file is wanted (%zu)", wanted);
	for (i = 0; i < n; i++)
		if (live_targets[i] == &live_target_catalog)
			break;
	ok(i < n && live_target_catalog.summary, "targets: the catalog is in the table and takes the summary");
	options_free(&o);
}

int main(void)
{
	plan(41);
	test_prom_label();
	test_influx_tag();
	test_influx_line();
	test_urls();
	test_prom_text();
	test_liveread();
	test_targets();
	return done();
}
