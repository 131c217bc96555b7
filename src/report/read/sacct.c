/* SPDX-License-Identifier: MIT */
/* sacct.c: sacct --parsable2 lines -> report tasks, one per job.  Field
 * formats from sacct(1) (Slurm 22.05): Elapsed "[DD-[HH:]]MM:SS", the CPU
 * times with milliseconds, sizes with a K/M/G/T/P suffix (0 alone), dates
 * YYYY-MM-DDTHH:MM:SS or "Unknown"/"None", ExitCode "CODE:SIGNAL".
 * Meanings: MaxRSS is the largest resident set of one task of a step
 * (not the sum over the step's tasks), and the job's figure here is the
 * largest over its steps; TotalCPU counts the CPU time of the steps'
 * processes that were waited for. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "report/read/sacct.h"
#include "report/read/table.h"
#include "basic/xmalloc.h"

enum sa_col {
	SA_JOBID, SA_JOBIDRAW, SA_JOBNAME, SA_STATE, SA_ELAPSED, SA_ELAPSEDRAW,
	SA_TOTALCPU, SA_MAXRSS, SA_REQMEM, SA_ALLOCCPUS, SA_NODELIST, SA_START,
	SA_END, SA_EXITCODE, SA_NNODES, SA_TIMELIMIT, SA_REQCPUS, SA__COUNT
};

static const char *const col_name[SA__COUNT] = {
	[SA_JOBID] = "JobID", [SA_JOBIDRAW] = "JobIDRaw", [SA_JOBNAME] = "JobName",
	[SA_STATE] = "State", [SA_ELAPSED] = "Elapsed", [SA_ELAPSEDRAW] = "ElapsedRaw",
	[SA_TOTALCPU] = "TotalCPU", [SA_MAXRSS] = "MaxRSS", [SA_REQMEM] = "ReqMem",
	[SA_ALLOCCPUS] = "AllocCPUS", [SA_NODELIST] = "NodeList", [SA_START] = "Start",
	[SA_END] = "End", [SA_EXITCODE] = "ExitCode", [SA_NNODES] = "NNodes",
	[SA_TIMELIMIT] = "Timelimit", [SA_REQCPUS] = "ReqCPUS",
};

/* The jobs of this file by id: open addressing, at most half full. */
struct slot {
	char *id;		/* owned; NULL: free */
	size_t task;		/* index in the store */
	bool cpu_from_job;	/* the job line had TotalCPU */
};

struct rp_sacct {
	struct rp_table t;
	int col[SA__COUNT];
	struct slot *slot;
	size_t cap, n;
};

int rp_sacct_time(const char *s, double *sec)
{
	unsigned long d = 0, a, b, c;
	double frac = 0;
	const char *p = s;
	char *end;
	int parts;

	if (rp_table_missing(s))
		return -1;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	if (strchr(p, '-')) {
		d = strtoul(p, &end, 10);
		if (*end != '-')
			return -1;
		p = end + 1;
	}
	parts = 0;
	a = b = c = 0;
	for (;;) {
		unsigned long v;

		if (!isdigit((unsigned char)*p))
			return -1;
		v = strtoul(p, &end, 10);
		a = b, b = c, c = v;
		parts++;
		p = end;
		if (*p != ':')
			break;
		p++;
	}
	if (*p == '.') {
		double scale = 0.1;

		for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	while (*p == ' ')
		p++;
	/* MM:SS or HH:MM:SS, with D- only before HH:MM:SS */
	if (*p || parts < 2 || parts > 3 || b > 59 || c > 59 || d > 100000 || a > 100000 ||
	    (d && parts != 3))
		return -1;
	*sec = (double)d * 86400 + (double)a * 3600 + (double)b * 60 + (double)c + frac;
	return 0;
}

int rp_sacct_size(const char *s, double *mb, int *per)
{
	static const char units[] = "KMGTP";
	const char *p = s, *u;
	double v, scale = 1.0 / 1048576;	/* bytes */
	char *end;

	if (per)
		*per = 0;
	if (rp_table_missing(s))
		return -1;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p) && *p != '.')
		return -1;
	v = strtod(p, &end);
	if (end == p || !isfinite(v) || v < 0)
		return -1;
	p = end;
	if (*p && (u = strchr(units, *p)) != NULL) {
		scale = pow(1024, (double)(u - units)) / 1024;
		p++;
	}
	if (per && (*p == 'c' || *p == 'n'))
		*per = *p++;
	if (*p)
		return -1;
	*mb = v * scale;
	return isfinite(*mb) ? 0 : -1;
}

int rp_sacct_date(const char *s, double *epoch)
{
	struct tm tm;
	char *end;
	time_t t;

	if (rp_table_missing(s) || strcmp(s, "None") == 0)
		return -1;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || *end)
		return -1;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t <= 0)
		return -1;
	*epoch = (double)t;
	return 0;
}

bool rp_sacct_detect(const char *header)
{
	struct rp_sacct *sa = rp_sacct_new(header);
	bool found = sa != NULL;

	rp_sacct_free(sa);
	return found;
}

struct rp_sacct *rp_sacct_new(const char *header)
{
	struct rp_sacct *sa = xcalloc(1, sizeof(*sa));

	if (rp_table_columns(&sa->t, header, '|', col_name, SA__COUNT, sa->col) < 0) {
		free(sa);
		return NULL;
	}
	if (sa->col[SA_JOBID] < 0 && sa->col[SA_JOBIDRAW] < 0) {
		rp_sacct_free(sa);
		return NULL;
	}
	return sa;
}

void rp_sacct_free(struct rp_sacct *sa)
{
	size_t i;

	if (!sa)
		return;
	for (i = 0; i < sa->cap; i++)
		free(sa->slot[i].id);
	free(sa->slot);
	rp_table_free(&sa->t);
	free(sa);
}

static size_t hash_str(const char *s, size_t cap)
{
	unsigned long long h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h & (cap - 1);
}

static struct slot *find(struct slot *slot, size_t cap, const char *id)
{
	size_t i = hash_str(id, cap);

	while (slot[i].id && strcmp(slot[i].id, id) != 0)
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static struct slot *lookup(struct rp_sacct *sa, const char *id)
{
	struct slot *s;

	if (!sa->cap)
		return NULL;
	s = find(sa->slot, sa->cap, id);
	return s->id ? s : NULL;
}

static struct slot *insert(struct rp_sacct *sa, const char *id, size_t task)
{
	struct slot *s;

	if (2 * (sa->n + 1) > sa->cap) {
		size_t cap = sa->cap ? 2 * sa->cap : 256, i;
		struct slot *slot = xcalloc(cap, sizeof(*slot));

		for (i = 0; i < sa->cap; i++)
			if (sa->slot[i].id)
				*find(slot, cap, sa->slot[i].id) = sa->slot[i];
		free(sa->slot);
		sa->slot = slot;
		sa->cap = cap;
	}
	s = find(sa->slot, sa->cap, id);
	if (!s->id) {
		s->id = xstrdup(id);
		sa->n++;
	}
	s->task = task;
	s->cpu_from_job = false;
	return s;
}

/* State -> exit_type: NULL for a job that has not ended (its figures are
 * not final). */
static const char *exit_type_of(const char *state)
{
	static const struct { const char *state, *type; } map[] = {
		{ "COMPLETED", "normal" }, { "FAILED", "failed" },
		{ "OUT_OF_MEMORY", "limits" }, { "TIMEOUT", "limits" },
		{ "CANCELLED", "cancelled" }, { "NODE_FAIL", "node_fail" },
		{ "PREEMPTED", "preempted" }, { "BOOT_FAIL", "boot_fail" },
		{ "DEADLINE", "deadline" },
	};
	size_t i, n = strcspn(state, " +");

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].state) == n && strncmp(state, map[i].state, n) == 0)
			return map[i].type;
	return NULL;
}

static double get_time(const char *s)
{
	double v;

	return s && rp_sacct_time(s, &v) == 0 ? v : NAN;
}

/* A job's own line: a new task. */
static int job_line(struct rp_sacct *sa, struct rp_store *st, const char *path,
		    const char *id, const char *const v[SA__COUNT])
{
	const char *type = v[SA_STATE] ? exit_type_of(v[SA_STATE]) : "normal";
	struct rp_task *t;
	struct slot *s;
	double x, cpus = NAN, nodes = 1;
	int per;

	if (!type) {
		st->unended++;
		return 0;
	}
	t = rp_store_add(st, path);
	rp_store_set_kind(st, t, RP_K_SACCT);
	s = insert(sa, id, st->n - 1);
	t->category = xstrdup(v[SA_JOBNAME] && !rp_table_missing(v[SA_JOBNAME]) ?
			      v[SA_JOBNAME] : "default");
	t->exit_type = xstrdup(type);
	t->job = xstrdup(id);	/* its steps' lines are folded into it */
	if (v[SA_EXITCODE] && isdigit((unsigned char)v[SA_EXITCODE][0]))
		t->exit_status = strtol(v[SA_EXITCODE], NULL, 10) % 256;
	rp_task_classify(t);
	if (v[SA_NODELIST] && !rp_table_missing(v[SA_NODELIST]) &&
	    strcmp(v[SA_NODELIST], "None assigned") != 0)
		t->host = xstrdup(v[SA_NODELIST]);
	t->v[RP_WALL_TIME] = get_time(v[SA_ELAPSED]);
	if (isnan(t->v[RP_WALL_TIME]) && v[SA_ELAPSEDRAW] &&
	    rp_table_number(v[SA_ELAPSEDRAW], &x) == 0)
		t->v[RP_WALL_TIME] = x;
	t->v[RP_CPU_TIME] = get_time(v[SA_TOTALCPU]);
	s->cpu_from_job = !isnan(t->v[RP_CPU_TIME]);
	if (v[SA_MAXRSS] && rp_sacct_size(v[SA_MAXRSS], &x, NULL) == 0)
		t->v[RP_MEMORY] = x;
	if ((v[SA_ALLOCCPUS] && rp_table_number(v[SA_ALLOCCPUS], &cpus) == 0) ||
	    (v[SA_REQCPUS] && rp_table_number(v[SA_REQCPUS], &cpus) == 0))
		t->given[RP_G_CORES] = cpus;
	t->req_wall_time = get_time(v[SA_TIMELIMIT]);
	if (v[SA_NNODES] && rp_table_number(v[SA_NNODES], &x) == 0 && x >= 1)
		nodes = x;
	if (v[SA_REQMEM] && rp_sacct_size(v[SA_REQMEM], &x, &per) == 0) {
		if (per == 'c')
			x = isnan(cpus) ? NAN : x * cpus;
		else if (per == 'n')
			x *= nodes;
		t->given[RP_G_MEMORY] = x;
	}
	if (v[SA_START] && rp_sacct_date(v[SA_START], &x) == 0)
		t->started = x;
	if (v[SA_END] && rp_sacct_date(v[SA_END], &x) == 0)
		t->ended = x;
	if (!isnan(t->started) && !isnan(t->ended) && t->ended < t->started)
		t->started = t->ended = NAN;
	return 1;
}

/* A step's line: its MaxRSS (and, when the job line had none, its CPU
 * time) go to its job. */
static int step_line(struct rp_sacct *sa, struct rp_store *st,
		     const char *jobid, const char *const v[SA__COUNT])
{
	struct slot *s = lookup(sa, jobid);
	struct rp_task *t;
	double x;

	if (!s || s->task >= st->n)
		return 0;	/* the job is not here, or not ended */
	t = &st->tasks[s->task];
	if (v[SA_MAXRSS] && rp_sacct_size(v[SA_MAXRSS], &x, NULL) == 0 &&
	    (isnan(t->v[RP_MEMORY]) || x > t->v[RP_MEMORY]))
		t->v[RP_MEMORY] = x;
	if (!s->cpu_from_job) {
		double c = get_time(v[SA_TOTALCPU]);

		if (!isnan(c))
			t->v[RP_CPU_TIME] = isnan(t->v[RP_CPU_TIME]) ? c : t->v[RP_CPU_TIME] + c;
	}
	return 0;
}

/* Cores: the mean over the job, CPU time over elapsed time. */
static void mean_cores(struct rp_task *t)
{
	if (t->v[RP_WALL_TIME] > 0 && !isnan(t->v[RP_CPU_TIME]))
		t->v[RP_CORES] = t->v[RP_CPU_TIME] / t->v[RP_WALL_TIME];
}

int rp_sacct_row(struct rp_sacct *sa, struct rp_store *st, const char *path,
		 char *line)
{
	char *f[RP_TABLE_MAX_COLS], *dot, *id;
	const char *v[SA__COUNT];
	size_t n = rp_table_split(line, '|', f, RP_TABLE_MAX_COLS);
	int c, r;

	for (c = 0; c < SA__COUNT; c++)
		v[c] = rp_table_field(f, n, sa->col[c]);
	id = (char *)(v[SA_JOBID] ? v[SA_JOBID] : v[SA_JOBIDRAW]);
	/* a job id starts with a digit: a repeated header or a separator
	 * line is no record */
	if (!id || !isdigit((unsigned char)id[0]))
		return -1;
	dot = strchr(id, '.');
	if (dot) {
		struct slot *s;

		*dot = '\0';
		r = step_line(sa, st, id, v);
		s = lookup(sa, id);
		if (s && s->task < st->n)
			mean_cores(&st->tasks[s->task]);
		return r;
	}
	r = job_line(sa, st, path, id, v);
	if (r == 1)
		mean_cores(&st->tasks[st->n - 1]);
	return r;
}
