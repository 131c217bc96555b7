/* SPDX-License-Identifier: MIT */
/* snakemake.c: a Snakemake benchmark row -> a report task.  Units from
 * Snakemake's benchmark.py: s and cpu_time in seconds; max_rss, max_vms,
 * max_uss, max_pss, io_in and io_out in MB of 2^20 bytes (psutil's bytes
 * divided by 1024 * 1024); mean_load, which changed meaning between
 * versions (a percentage in 7.x, cpu_time / s in 8.x), is not used: the
 * cores are cpu_time / s. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "report/read/snakemake.h"
#include "report/read/table.h"
#include "basic/xmalloc.h"

enum sm_col { SM_S, SM_HMS, SM_MAX_RSS, SM_MAX_PSS, SM_IO_IN, SM_IO_OUT, SM_CPU_TIME,
	      SM_RULE, SM_THREADS, SM_INPUT_MB, SM__COUNT };

static const char *const col_name[SM__COUNT] = {
	[SM_S] = "s", [SM_HMS] = "h:m:s", [SM_MAX_RSS] = "max_rss",
	[SM_MAX_PSS] = "max_pss", [SM_IO_IN] = "io_in", [SM_IO_OUT] = "io_out",
	[SM_CPU_TIME] = "cpu_time", [SM_RULE] = "rule_name", [SM_THREADS] = "threads",
	[SM_INPUT_MB] = "input_size_mb",
};

struct rp_snakemake {
	struct rp_table t;
	int col[SM__COUNT];
	bool jsonl;
};

int rp_smk_hms(const char *s, double *sec)
{
	unsigned long days = 0, h, m, x;
	int n = 0;

	if (rp_table_missing(s))
		return -1;
	if (sscanf(s, "%lu day%*[s], %n", &days, &n) >= 1 && n > 0)
		s += n;
	else if (sscanf(s, "%lu day, %n", &days, &n) >= 1 && n > 0)
		s += n;
	else
		days = 0;
	n = 0;
	if (sscanf(s, "%lu:%lu:%lu%n", &h, &m, &x, &n) != 3 || s[n] != '\0' ||
	    m > 59 || x > 59 || days > 1000000 || h > 1000000)
		return -1;
	*sec = (double)days * 86400 + (double)h * 3600 + (double)m * 60 + (double)x;
	return 0;
}

static bool is_bench_dir(const char *s, size_t n)
{
	return (n == 9 && strncmp(s, "benchmark", 9) == 0) ||
	       (n == 10 && strncmp(s, "benchmarks", 10) == 0) ||
	       (n == 5 && strncmp(s, "bench", 5) == 0);
}

char *rp_snakemake_rule(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	if (base > path) {
		const char *dend = base - 1, *dir;

		for (dir = dend; dir > path && dir[-1] != '/'; dir--)
			;
		n = (size_t)(dend - dir);
		if (n > 0 && !is_bench_dir(dir, n) && !(n == 1 && dir[0] == '.') &&
		    !(n == 2 && strncmp(dir, "..", 2) == 0))
			return xasprintf("%.*s", (int)n, dir);
	}
	/* the file name up to its first '.' */
	n = strcspn(base, ".");
	if (n == 0)
		return xstrdup("default");
	return xasprintf("%.*s", (int)n, base);
}

bool rp_snakemake_detect(const char *line, bool *jsonl)
{
	*jsonl = false;
	if (strncmp(line, "s\th:m:s\t", 8) == 0)
		return true;
	if (line[0] == '{') {
		json_t *j = json_loads(line, 0, NULL);
		bool yes = json_is_object(j) && json_object_get(j, "h:m:s") &&
			   json_object_get(j, "s");

		json_decref(j);
		*jsonl = yes;
		return yes;
	}
	return false;
}

struct rp_snakemake *rp_snakemake_new(const char *header)
{
	struct rp_snakemake *sm = xcalloc(1, sizeof(*sm));

	if (!header) {
		sm->jsonl = true;
		return sm;
	}
	if (strncmp(header, "s\th:m:s\t", 8) != 0 ||
	    rp_table_columns(&sm->t, header, '\t', col_name, SM__COUNT, sm->col) < 0) {
		free(sm);
		return NULL;
	}
	return sm;
}

void rp_snakemake_free(struct rp_snakemake *sm)
{
	if (!sm)
		return;
	rp_table_free(&sm->t);
	free(sm);
}

static double num(const char *s)
{
	double v;

	return s && rp_table_number(s, &v) == 0 ? v : NAN;
}

/* @s past a Python string literal ('...' or "...", backslash escapes),
 * or NULL when it is none. */
static const char *py_string(const char *s)
{
	char q = *s;

	if (q != '\'' && q != '"')
		return NULL;
	for (s++; *s && *s != q; s++)
		if (*s == '\\' && !*++s)
			return NULL;
	return *s ? s + 1 : NULL;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

double rp_smk_input_mb(const char *s)
{
	double sum = 0, v;
	char *end;

	if (!s)
		return NAN;
	if (*s != '{')
		return rp_table_number(s, &v) == 0 && v >= 0 ? v : NAN;
	for (s = skip_blanks(s + 1); *s != '}'; s = skip_blanks(s + 1)) {
		s = py_string(s);
		if (!s || *(s = skip_blanks(s)) != ':')
			return NAN;
		v = strtod(s + 1, &end);
		if (end == s + 1 || !isfinite(v) || v < 0)
			return NAN;
		sum += v;
		s = skip_blanks(end);
		if (*s == '}')
			break;
		if (*s != ',')
			return NAN;
	}
	return s[1] == '\0' ? sum : NAN;
}

/* Snakemake 8's input_size_mb in JSON: a number, or an object of each
 * input file's MB, summed; NAN otherwise. */
static double json_input_mb(json_t *j)
{
	const char *key;
	json_t *v;
	double sum = 0;

	if (json_is_number(j))
		return json_number_value(j) >= 0 ? json_number_value(j) : NAN;
	if (!json_is_object(j))
		return NAN;
	json_object_foreach(j, key, v) {
		if (!json_is_number(v) || !(json_number_value(v) >= 0))
			return NAN;
		sum += json_number_value(v);
	}
	return sum;
}

/* The rule in a TSV's rule_name cell: Snakemake 8 writes the tuple
 * "('NAME',)"; a plain name is taken as it is. */
static char *tsv_rule(const char *s)
{
	size_t n;

	if (rp_table_missing(s))
		return NULL;
	n = strlen(s);
	if (n >= 6 && strncmp(s, "('", 2) == 0 && strcmp(s + n - 3, "',)") == 0)
		return xasprintf("%.*s", (int)(n - 5), s + 2);
	return xstrdup(s);
}

/* A JSON value as the text a TSV would hold ("NA" strings stay, numbers
 * are printed), in @buf; NULL when absent or not a scalar. */
static const char *json_text(const json_t *j, char *buf, size_t len)
{
	if (json_is_string(j))
		return json_string_value(j);
	if (json_is_number(j)) {
		double v = json_number_value(j);

		if (!isfinite(v) || v < 0)
			return NULL;
		snprintf(buf, len, "%.17g", v);
		return buf;
	}
	return NULL;
}

/* rule_name in JSON: Snakemake 8 writes a one-element list. */
static char *json_rule(const json_t *j)
{
	if (json_is_array(j) && json_array_size(j) == 1)
		j = json_array_get(j, 0);
	return json_is_string(j) ? xstrdup(json_string_value(j)) : NULL;
}

/* The figures of the samples: memory, PSS, I/O, CPU time and cores. */
static void fill_samples(struct rp_task *t, const char *const v[SM__COUNT])
{
	t->v[RP_MEMORY] = num(v[SM_MAX_RSS]);
	t->v[RP_MEMORY_PSS] = num(v[SM_MAX_PSS]);
	t->v[RP_BYTES_READ] = num(v[SM_IO_IN]);
	t->v[RP_BYTES_WRITTEN] = num(v[SM_IO_OUT]);
	t->v[RP_CPU_TIME] = num(v[SM_CPU_TIME]);
	if (t->v[RP_WALL_TIME] > 0 && !isnan(t->v[RP_CPU_TIME]))
		t->v[RP_CORES] = t->v[RP_CPU_TIME] / t->v[RP_WALL_TIME];
}

static void fill(struct rp_task *t, const char *const v[SM__COUNT])
{
	t->v[RP_WALL_TIME] = num(v[SM_S]);
	if (isnan(t->v[RP_WALL_TIME]) && v[SM_HMS])
		rp_smk_hms(v[SM_HMS], &t->v[RP_WALL_TIME]);
	/* max_rss 0: no sample saw a process (any live process has a
	 * resident set), as Snakemake 7 writes for a job shorter than its
	 * first sample (8 writes NA): every figure of the samples unknown */
	if (num(v[SM_MAX_RSS]) != 0)
		fill_samples(t, v);
	t->given[RP_G_CORES] = num(v[SM_THREADS]);
	t->input_mb = rp_smk_input_mb(v[SM_INPUT_MB]);	/* --benchmark-extended's */
	/* a benchmark file is written for a job that succeeded */
	t->exit_type = xstrdup("normal");
	t->exit_status = 0;
	rp_task_classify(t);
}

int rp_snakemake_row(struct rp_snakemake *sm, struct rp_store *st,
		     const char *path, char *line)
{
	const char *v[SM__COUNT];
	char *rule = NULL;
	struct rp_task *t;
	json_t *j = NULL;
	int c;

	if (sm->jsonl) {
		static char bufs[SM__COUNT][32];

		j = json_loads(line, 0, NULL);
		if (!json_is_object(j) || !json_object_get(j, "s")) {
			json_decref(j);
			return -1;
		}
		for (c = 0; c < SM__COUNT; c++)
			v[c] = json_text(json_object_get(j, col_name[c]), bufs[c], sizeof(bufs[c]));
		rule = json_rule(json_object_get(j, "rule_name"));
	} else {
		char *f[RP_TABLE_MAX_COLS];
		size_t n = rp_table_split(line, '\t', f, RP_TABLE_MAX_COLS);

		if (n < 2)
			return -1;
		for (c = 0; c < SM__COUNT; c++)
			v[c] = rp_table_field(f, n, sm->col[c]);
		rule = tsv_rule(v[SM_RULE]);
	}
	t = rp_store_add(st, path);
	rp_store_set_kind(st, t, RP_K_SNAKEMAKE);
	fill(t, v);
	if (j)
		t->input_mb = json_input_mb(json_object_get(j, col_name[SM_INPUT_MB]));
	t->category = rule ? rule : rp_snakemake_rule(path);
	json_decref(j);
	if (isnan(t->v[RP_WALL_TIME])) {
		rp_store_drop_last(st);
		return -1;
	}
	return 1;
}
