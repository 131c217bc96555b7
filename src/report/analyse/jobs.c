/* SPDX-License-Identifier: MIT */
/* jobs.c: the tasks of each batch job merged across hosts (jobs.h): its
 * nodes, tasks, summed CPU time, each node's concurrent memory and cores,
 * its wall time and efficiency. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "basic/safetext.h"
#include "basic/xmalloc.h"
#include "report/analyse/jobs.h"

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;
	return strcmp(a, b);
}

/* Indices into the store @arg: by job, then host (unknown first). */
static int by_job_host(const void *pa, const void *pb, void *arg)
{
	const struct rp_store *st = arg;
	const struct rp_task *a = &st->tasks[*(const size_t *)pa];
	const struct rp_task *b = &st->tasks[*(const size_t *)pb];
	int c = cmp_str(a->job, b->job);

	if (!c)
		c = cmp_str(a->host, b->host);
	return c;
}

/* A task's cores: its allocation where its engine said, else its peak
 * use; 0 unknown.  *@asked false when not its allocation. */
static double task_cores(const struct rp_task *t, bool *asked)
{
	if (!isnan(t->given[RP_G_CORES]))
		return t->given[RP_G_CORES];
	*asked = false;
	return isnan(t->v[RP_CORES]) ? 0 : t->v[RP_CORES];
}

struct edge {
	double t, d;		/* when, and by how much the sum changes */
};

static int by_time(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->d < b->d ? -1 : a->d > b->d;	/* ends before starts */
}

/* The largest sum of @val over the tasks @idx[0..n) running at once (a
 * task without both times counts alone). */
static double concurrent_max(const struct rp_store *st, const size_t *idx, size_t n,
			     double (*val)(const struct rp_task *, bool *), bool *asked)
{
	struct edge *e = xreallocarray(NULL, 2 * n + 1, sizeof(*e));
	double best = 0, sum = 0;
	size_t i, ne = 0;

	for (i = 0; i < n; i++) {
		const struct rp_task *t = &st->tasks[idx[i]];
		double v = val(t, asked);

		if (isnan(t->started) || isnan(t->ended) || t->ended < t->started) {
			best = v > best ? v : best;
			continue;
		}
		e[ne++] = (struct edge){ t->started, v };
		e[ne++] = (struct edge){ t->ended, -v };
	}
	qsort(e, ne, sizeof(*e), by_time);
	for (i = 0; i < ne; i++) {
		sum += e[i].d;
		best = sum > best ? sum : best;
	}
	free(e);
	return best;
}

static double task_memory(const struct rp_task *t, bool *unused)
{
	(void)unused;
	return isnan(t->v[RP_MEMORY]) ? 0 : t->v[RP_MEMORY];
}

/* The node of the tasks @idx[0..n), all on one host, into @nd and @j. */
static void fill_node(const struct rp_store *st, const size_t *idx, size_t n,
		      struct rp_job_node *nd, struct rp_job *j)
{
	double first = NAN, last = NAN;
	size_t i;

	nd->host = st->tasks[idx[0]].host;
	nd->tasks = n;
	for (i = 0; i < n; i++) {
		const struct rp_task *t = &st->tasks[idx[i]];

		if (isnan(t->v[RP_CPU_TIME]))
			j->no_cpu++;
		else
			nd->cpu_time += t->v[RP_CPU_TIME];
		if (!isnan(t->started) && !(t->started >= first))
			first = t->started;
		if (!isnan(t->ended) && !(t->ended <= last))
			last = t->ended;
	}
	nd->memory = concurrent_max(st, idx, n, task_memory, NULL);
	nd->cores = concurrent_max(st, idx, n, task_cores, &j->cores_asked);
	nd->span = last >= first ? last - first : NAN;
}

/* The job of the tasks @idx[0..n), all of one job, sorted by host. */
static void fill_job(const struct rp_store *st, const size_t *idx, size_t n, struct rp_job *j)
{
	size_t i, k;

	memset(j, 0, sizeof(*j));
	j->name = st->tasks[idx[0]].job;
	j->tasks = n;
	j->wall = NAN;
	j->cores_asked = true;
	j->node = xcalloc(n, sizeof(*j->node));
	for (i = 0; i < n; i = k) {
		struct rp_job_node *nd = &j->node[j->nodes++];

		for (k = i + 1; k < n && !cmp_str(st->tasks[idx[k]].host, st->tasks[idx[i]].host); k++)
			;
		fill_node(st, idx + i, k - i, nd, j);
		j->cpu_time += nd->cpu_time;
		j->cores += nd->cores;
		if (!isnan(nd->span) && !(nd->span <= j->wall))
			j->wall = nd->span;
	}
	j->efficiency = j->cores > 0 && j->wall > 0 ? j->cpu_time / (j->cores * j->wall) : NAN;
}

size_t rp_jobs_build(const struct rp_store *st, struct rp_job **out, size_t *nojob)
{
	size_t *idx = xreallocarray(NULL, st->n ? st->n : 1, sizeof(*idx));
	size_t i, k, m = 0, n = 0;

	for (i = 0; i < st->n; i++)
		if (st->tasks[i].job)
			idx[m++] = i;
	*nojob = st->n - m;
	/* (the store is only read: qsort_r's argument casts its const away) */
	qsort_r(idx, m, sizeof(*idx), by_job_host, (void *)(uintptr_t)st);
	*out = xcalloc(m ? m : 1, sizeof(**out));
	for (i = 0; i < m; i = k) {
		for (k = i + 1; k < m && !strcmp(st->tasks[idx[k]].job, st->tasks[idx[i]].job); k++)
			;
		fill_job(st, idx + i, k - i, &(*out)[n++]);
	}
	free(idx);
	return n;
}

/* A figure, or "?" when unknown. */
static void put_num(FILE *f, const char *name, double v, const char *unit)
{
	if (isnan(v))
		fprintf(f, " %s ?", name);
	else
		fprintf(f, " %s %.3f%s", name, v, unit);
}

/* Figure @r: its name and unit from the table of figures, then @after. */
static void put_fig(FILE *f, enum rp_res r, double v, const char *after)
{
	const struct tp_fig_info *fi = rp_res_fig(r);
	char unit[48];

	snprintf(unit, sizeof(unit), " %s%s", fi->unit, after);
	put_num(f, fi->name, v, unit);
}

static void put_node(FILE *f, const struct rp_job_node *nd)
{
	fputs("  node ", f);
	safetext_put(f, nd->host ? nd->host : "(unknown)");
	fprintf(f, ": tasks %zu", nd->tasks);
	put_fig(f, RP_CPU_TIME, nd->cpu_time, "");
	/* 0: no task of the node gave one (unknown, not none) */
	put_fig(f, RP_MEMORY, nd->memory > 0 ? nd->memory : NAN, "");
	put_fig(f, RP_CORES, nd->cores > 0 ? nd->cores : NAN, "");
	put_num(f, "span", nd->span, " s");
	fputc('\n', f);
}

static void put_job(FILE *f, const struct rp_job *j)
{
	size_t i;

	fputs("job ", f);
	safetext_put(f, j->name);
	fprintf(f, ": nodes %zu tasks %zu", j->nodes, j->tasks);
	put_fig(f, RP_CPU_TIME, j->cpu_time, "");
	put_num(f, "wall", j->wall, " s");
	put_fig(f, RP_CORES, j->cores, j->cores_asked ? " (allocated)" : " (used)");
	put_num(f, "efficiency", isnan(j->efficiency) ? NAN : 100 * j->efficiency, "%");
	fputc('\n', f);
	if (j->no_cpu)
		fprintf(f, "  (cpu_time a lower bound: %zu tasks without one)\n", j->no_cpu);
	for (i = 0; i < j->nodes; i++)
		put_node(f, &j->node[i]);
}

int rp_jobs_text(FILE *f, const struct rp_job *j, size_t n, size_t nojob)
{
	size_t i;

	for (i = 0; i < n; i++)
		put_job(f, &j[i]);
	if (nojob)
		fprintf(f, "%zu tasks name no job (no job field, not from sacct): left out\n",
			nojob);
	if (!n)
		fputs("no task names a job (SLURM_JOB_ID, -V job:NAME, sacct)\n", f);
	return ferror(f) ? -1 : 0;
}

void rp_jobs_free(struct rp_job *j, size_t n)
{
	size_t i;

	for (i = 0; j && i < n; i++)
		free(j[i].node);
	free(j);
}
