/* SPDX-License-Identifier: MIT */
/* nextflow.c: a Nextflow trace row -> a report task.  Field formats from
 * Nextflow's TraceRecord (fmtTime: Duration.toString(); fmtMemory:
 * MemoryUnit.toString(), units of 1024 named B KB MB GB TB PB EB ZB;
 * fmtPercent: "%.1f%%"; fmtDate: "yyyy-MM-dd HH:mm:ss.SSS" in local time;
 * with trace.raw every one a plain number: ms, bytes, epoch ms). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "report/read/nextflow.h"
#include "report/read/table.h"
#include "basic/xmalloc.h"

enum nf_col {
	NF_PROCESS, NF_NAME, NF_TAG, NF_STATUS, NF_EXIT, NF_SUBMIT, NF_START,
	NF_COMPLETE, NF_DURATION, NF_REALTIME, NF_PCPU, NF_PEAK_RSS, NF_RSS,
	NF_READ_BYTES, NF_WRITE_BYTES, NF_HOSTNAME, NF_CPUS, NF_MEMORY, NF_DISK,
	NF_TASK_ID, NF_HASH, NF_TIME, NF_RCHAR, NF__COUNT
};

static const char *const col_name[NF__COUNT] = {
	[NF_PROCESS] = "process", [NF_NAME] = "name", [NF_TAG] = "tag",
	[NF_STATUS] = "status", [NF_EXIT] = "exit", [NF_SUBMIT] = "submit",
	[NF_START] = "start", [NF_COMPLETE] = "complete",
	[NF_DURATION] = "duration", [NF_REALTIME] = "realtime",
	[NF_PCPU] = "%cpu", [NF_PEAK_RSS] = "peak_rss", [NF_RSS] = "rss",
	[NF_READ_BYTES] = "read_bytes", [NF_WRITE_BYTES] = "write_bytes",
	[NF_HOSTNAME] = "hostname", [NF_CPUS] = "cpus", [NF_MEMORY] = "memory",
	[NF_DISK] = "disk", [NF_TASK_ID] = "task_id", [NF_HASH] = "hash",
	[NF_TIME] = "time", [NF_RCHAR] = "rchar",
};

struct rp_nextflow {
	struct rp_table t;
	int col[NF__COUNT];
};

/* A number, then the rest of @s after it in *@end; -1 when none. */
static int number_at(const char *s, double *v, const char **end)
{
	char *e;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	*v = strtod(s, &e);
	if (e == s || !isfinite(*v))
		return -1;
	*end = e;
	return 0;
}

int rp_nf_duration(const char *s, double *sec)
{
	double total = 0, v;
	const char *p;
	int parts = 0;

	if (rp_table_missing(s))
		return -1;
	if (rp_table_number(s, &v) == 0) {
		*sec = v / 1000;	/* raw: milliseconds */
		return 0;
	}
	p = s;
	while (*p == ' ')
		p++;
	while (*p) {
		double unit;

		if (number_at(p, &v, &p) < 0)
			return -1;
		if (strncmp(p, "ms", 2) == 0)
			unit = 0.001, p += 2;
		else if (*p == 's')
			unit = 1, p++;
		else if (*p == 'm')
			unit = 60, p++;
		else if (*p == 'h')
			unit = 3600, p++;
		else if (*p == 'd')
			unit = 86400, p++;
		else
			return -1;
		total += v * unit;
		parts++;
		while (*p == ' ')
			p++;
	}
	if (!parts || !isfinite(total))
		return -1;
	*sec = total;
	return 0;
}

int rp_nf_memory(const char *s, double *mb)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB", "PB", "EB", "ZB" };
	const char *p;
	double v;
	size_t i;

	if (rp_table_missing(s))
		return -1;
	if (rp_table_number(s, &v) == 0) {
		*mb = v / 1048576;	/* raw (and "0"): bytes */
		return 0;
	}
	p = s;
	while (*p == ' ')
		p++;
	if (number_at(p, &v, &p) < 0)
		return -1;
	while (*p == ' ')
		p++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i]);

		if (strncasecmp(p, units[i], n) == 0 && p[n + strspn(p + n, " ")] == '\0') {
			*mb = v * pow(1024, (double)i) / 1048576;
			return isfinite(*mb) ? 0 : -1;
		}
	}
	return -1;
}

int rp_nf_percent(const char *s, double *pct)
{
	char buf[64];
	size_t n;

	if (rp_table_missing(s))
		return -1;
	n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n > 0 && s[n - 1] == '%')
		n--;
	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return rp_table_number(buf, pct);
}

int rp_nf_date(const char *s, double *epoch)
{
	struct tm tm;
	double v, frac = 0;
	const char *p;
	char *end;

	if (rp_table_missing(s))
		return -1;
	if (rp_table_number(s, &v) == 0) {
		if (v < 1e11 || v > 1e14)	/* raw epoch ms, 1973 to 5138 */
			return -1;
		*epoch = v / 1000;
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	p = s;
	while (*p == ' ')
		p++;
	end = strptime(p, "%Y-%m-%d %H:%M:%S", &tm);
	if (!end)
		return -1;
	if (*end == '.') {
		const char *d = end + 1;
		double scale = 0.1;

		while (isdigit((unsigned char)*d)) {
			frac += (*d - '0') * scale;
			scale /= 10;
			d++;
		}
		end = (char *)d;
	}
	while (*end == ' ')
		end++;
	if (*end)
		return -1;
	tm.tm_isdst = -1;
	v = (double)mktime(&tm);
	if (v <= 0)
		return -1;
	*epoch = v + frac;
	return 0;
}

bool rp_nextflow_detect(const char *header)
{
	struct rp_nextflow *nf = rp_nextflow_new(header);
	bool found = nf != NULL;

	rp_nextflow_free(nf);
	return found;
}

struct rp_nextflow *rp_nextflow_new(const char *header)
{
	struct rp_nextflow *nf = xcalloc(1, sizeof(*nf));

	if (rp_table_columns(&nf->t, header, '\t', col_name, NF__COUNT, nf->col) < 0) {
		free(nf);
		return NULL;
	}
	if ((nf->col[NF_NAME] < 0 && nf->col[NF_PROCESS] < 0 && nf->col[NF_TASK_ID] < 0 &&
	     nf->col[NF_HASH] < 0) ||
	    (nf->col[NF_REALTIME] < 0 && nf->col[NF_PCPU] < 0 && nf->col[NF_PEAK_RSS] < 0 &&
	     nf->col[NF_STATUS] < 0 && nf->col[NF_DURATION] < 0)) {
		rp_nextflow_free(nf);
		return NULL;
	}
	return nf;
}

void rp_nextflow_free(struct rp_nextflow *nf)
{
	if (!nf)
		return;
	rp_table_free(&nf->t);
	free(nf);
}

/* The process of a task: the process column, else its name without the
 * tag Nextflow appends in parentheses ("align (sample1)" -> "align"). */
static char *process_of(const char *process, const char *name)
{
	size_t n;

	if (process && !rp_table_missing(process))
		return xstrdup(process);
	if (!name || rp_table_missing(name))
		return NULL;
	/* a process name has no blank: the tag starts at the first " (" */
	n = strlen(name);
	if (n > 0 && name[n - 1] == ')') {
		const char *open = strstr(name, " (");

		if (open && open > name)
			n = (size_t)(open - name);
	}
	return xasprintf("%.*s", (int)n, name);
}

static double get(const char *s, int (*conv)(const char *, double *))
{
	double v;

	return s && conv(s, &v) == 0 ? v : NAN;
}

static void set_given(struct rp_task *t, const char *cpus, const char *mem,
		      const char *disk)
{
	double v;

	if (cpus && rp_table_number(cpus, &v) == 0)
		t->given[RP_G_CORES] = v;
	t->given[RP_G_MEMORY] = get(mem, rp_nf_memory);
	t->given[RP_G_DISK] = get(disk, rp_nf_memory);
}

/* Start and end: complete, else submit + duration; start, else end -
 * realtime. */
static void set_times(struct rp_task *t, const char *submit, const char *start,
		      const char *complete, const char *duration)
{
	double sub = get(submit, rp_nf_date), dur = get(duration, rp_nf_duration);

	t->ended = get(complete, rp_nf_date);
	if (isnan(t->ended) && !isnan(sub) && !isnan(dur))
		t->ended = sub + dur;
	t->started = get(start, rp_nf_date);
	if (isnan(t->started) && !isnan(t->ended) && !isnan(t->v[RP_WALL_TIME]))
		t->started = t->ended - t->v[RP_WALL_TIME];
	if (!isnan(t->started) && !isnan(t->ended) && t->ended < t->started)
		t->started = t->ended = NAN;
}

/* status -> exit_type; -1 for a task that did not end in this run */
static int set_end(struct rp_task *t, const char *status, const char *exit_s)
{
	if (status && !rp_table_missing(status)) {
		if (strcmp(status, "COMPLETED") == 0)
			t->exit_type = xstrdup("normal");
		else if (strcmp(status, "FAILED") == 0)
			t->exit_type = xstrdup("failed");
		else if (strcmp(status, "ABORTED") == 0)
			t->exit_type = xstrdup("aborted");
		else
			return -1;	/* CACHED, SUBMITTED, RUNNING, ... */
	}
	if (exit_s && isdigit((unsigned char)exit_s[0])) {
		char *end;
		long code = strtol(exit_s, &end, 10);

		if (*end == '\0' && code >= 0 && code < 100000)
			t->exit_status = code;
	}
	rp_task_classify(t);
	return 0;
}

int rp_nextflow_row(struct rp_nextflow *nf, struct rp_store *st,
		    const char *path, char *line)
{
	char *f[RP_TABLE_MAX_COLS];
	const char *v[NF__COUNT];
	size_t nf_fields = rp_table_split(line, '\t', f, RP_TABLE_MAX_COLS);
	struct rp_task *t;
	double pcpu;
	char *cat;
	int c;

	if (nf_fields < 2)
		return -1;
	for (c = 0; c < NF__COUNT; c++)
		v[c] = rp_table_field(f, nf_fields, nf->col[c]);
	cat = process_of(v[NF_PROCESS], v[NF_NAME]);
	t = rp_store_add(st, path);
	rp_store_set_kind(st, t, RP_K_NEXTFLOW);
	if (set_end(t, v[NF_STATUS], v[NF_EXIT]) < 0) {
		free(cat);
		rp_store_drop_last(st);
		st->unended++;
		return 0;
	}
	t->category = cat;
	if (v[NF_NAME] && !rp_table_missing(v[NF_NAME]))
		t->command = xstrdup(v[NF_NAME]);
	if (v[NF_HOSTNAME] && !rp_table_missing(v[NF_HOSTNAME]))
		t->host = xstrdup(v[NF_HOSTNAME]);
	if (v[NF_HASH] && !rp_table_missing(v[NF_HASH]))
		t->task_id = xstrdup(v[NF_HASH]);
	t->v[RP_WALL_TIME] = get(v[NF_REALTIME], rp_nf_duration);
	t->v[RP_MEMORY] = get(v[NF_PEAK_RSS], rp_nf_memory);
	if (isnan(t->v[RP_MEMORY]))
		t->v[RP_MEMORY] = get(v[NF_RSS], rp_nf_memory);
	t->v[RP_BYTES_READ] = get(v[NF_READ_BYTES], rp_nf_memory);
	t->v[RP_BYTES_WRITTEN] = get(v[NF_WRITE_BYTES], rp_nf_memory);
	/* rchar: the bytes the task read, its input size for --recommend=input */
	t->input_mb = get(v[NF_RCHAR], rp_nf_memory);
	/* %cpu is CPU time over realtime: the mean cores */
	pcpu = get(v[NF_PCPU], rp_nf_percent);
	t->v[RP_CORES] = pcpu / 100;
	if (!isnan(pcpu) && !isnan(t->v[RP_WALL_TIME]))
		t->v[RP_CPU_TIME] = pcpu / 100 * t->v[RP_WALL_TIME];
	set_given(t, v[NF_CPUS], v[NF_MEMORY], v[NF_DISK]);
	t->req_wall_time = get(v[NF_TIME], rp_nf_duration);
	set_times(t, v[NF_SUBMIT], v[NF_START], v[NF_COMPLETE], v[NF_DURATION]);
	/* a row is a task when it says how it ended or what it used */
	if (!t->exit_type && isnan(t->v[RP_WALL_TIME]) && isnan(t->v[RP_MEMORY]) &&
	    isnan(t->v[RP_CORES])) {
		rp_store_drop_last(st);
		return -1;
	}
	return 1;
}
