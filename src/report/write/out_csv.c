/* SPDX-License-Identifier: MIT */
/* out_csv.c: --csv, one row per task (RFC 4180): source file, category, command,
 * exit_type, exit_status, host, then every resource as a plain number
 * with its unit in the column name, then what the engine allocated
 * (alloc_cores, alloc_memory_MB, ...; from transaction logs), then the
 * start and end (start_s, end_s: seconds since the epoch), then how it
 * ended (status: succeeded, stopped, failed or running; end_cause and
 * end_detail from the summary's end; notes: "code: text" each, "; "
 * between); an empty cell is unknown.  Rows come
 * by group, in reading order within a group.  A text cell that a
 * spreadsheet would take for a formula (it starts with = + - @, a tab or
 * a carriage return) gets a ' in front, as OWASP recommends; numbers are
 * never quoted nor prefixed, so pandas reads them as numbers.  Invalid
 * UTF-8 becomes U+FFFD.  And --replay-csv, the replay's figures of every
 * strategy side by side, per group and in total, the same way.  And
 * --by=job's: a row per job (scope "job"), then one per host of it
 * (scope "host"), the figures as --json=FILE gives them. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "basic/outfile.h"
#include "basic/messages.h"
#include "report/analyse/jobs.h"
#include "report/write/output.h"
#include "basic/safetext.h"

/* A text cell, always quoted, quotes doubled, a formula's first
 * character behind a '; empty when NULL. */
static void cell(FILE *f, const char *s)
{
	char *text, *p;

	if (!s)
		return;
	text = safetext_utf8(s);
	fputc('"', f);
	if (text[0] && strchr("=+-@\t\r", text[0]))
		fputc('\'', f);
	for (p = text; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
	free(text);
}

/* A memory stream for the file @path's rows (into *@buf and *@len), or
 * NULL after an error message. */
static FILE *csv_open(const char *path, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		error_msg("cannot write %s: %s", path, strerror(errno));
	return f;
}

/* Close @f, an open_memstream() of *@buf and *@len, and write what it
 * holds to @path ("-": standard output); frees *@buf.  0, or -1 after
 * an error message. */
static int csv_close(const char *path, FILE *f, char **buf, const size_t *len)
{
	int r;

	if (fclose(f) != 0) {
		error_msg("cannot write %s: %s", path, strerror(errno));
		free(*buf);
		return -1;
	}
	if (strcmp(path, "-") == 0)
		r = (fwrite(*buf, 1, *len, stdout) != *len || fflush(stdout) != 0) ? -1 : 0;
	else
		r = rp_write_file(path, *buf, *len);
	if (r < 0)
		error_msg("cannot write %s: %s", path, outfile_strerror(errno));
	free(*buf);
	return r;
}

static const char *const status_name[] = {
	[RP_SUCCEEDED] = "succeeded", [RP_EXHAUSTED] = "stopped", [RP_FAILED] = "failed",
	[RP_RUNNING] = "running",
};

static void row(FILE *f, const struct rp_task *t)
{
	int r;

	cell(f, t->source);
	fputc(',', f);
	cell(f, t->category ? t->category : "default");
	fputc(',', f);
	cell(f, t->command);
	fputc(',', f);
	cell(f, t->exit_type);
	fputc(',', f);
	if (t->exit_status >= 0)
		fprintf(f, "%ld", t->exit_status);
	fputc(',', f);
	cell(f, t->host);
	for (r = 0; r < RP_RES__COUNT; r++) {
		fputc(',', f);
		if (!isnan(t->v[r]))
			fprintf(f, "%.15g", t->v[r]);
	}
	for (r = 0; r < RP_G__COUNT; r++) {
		fputc(',', f);
		if (!isnan(t->given[r]))
			fprintf(f, "%.15g", t->given[r]);
	}
	fputc(',', f);
	if (!isnan(t->started))
		fprintf(f, "%.6f", t->started);
	fputc(',', f);
	if (!isnan(t->ended))
		fprintf(f, "%.6f", t->ended);
	fprintf(f, ",%s,", status_name[t->end]);
	cell(f, t->cause);
	fputc(',', f);
	cell(f, t->detail);
	fputc(',', f);
	cell(f, t->notes_text);
	fputc('\n', f);
}

int rp_out_csv(const char *path, const struct rp_store *st,
	       const struct rp_group *g, size_t ng)
{
	char *buf = NULL;
	size_t len = 0, i, j;
	FILE *f = csv_open(path, &buf, &len);
	int r;

	if (!f)
		return -1;
	fprintf(f, "source,category,command,exit_type,exit_status,host");
	for (r = 0; r < RP_RES__COUNT; r++)
		fprintf(f, ",%s", rp_res_fig(r)->csv);
	for (r = 0; r < RP_G__COUNT; r++)
		fprintf(f, ",%s", rp_given_csv(r));
	fputs(",start_s,end_s,status,end_cause,end_detail,notes\n", f);
	for (i = 0; i < ng; i++)
		for (j = 0; j < g[i].n; j++)
			row(f, &st->tasks[g[i].idx[j]]);
	return csv_close(path, f, &buf, &len);
}

/* --replay-csv: a row per group and strategy (scope "group"), then a
 * row per strategy for all groups (scope "total", no group). */
static void tally_row(FILE *f, const char *scope, const char *group, const struct rp_strat *s,
		      const struct rp_tally *t)
{
	char sn[64];

	fprintf(f, "%s,", scope);
	cell(f, group);
	fprintf(f, ",%s,%zu,%zu,%zu,%zu,%zu,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n",
		rp_strat_name(sn, sizeof(sn), s), t->tasks, t->fit, t->exceeded, t->failed,
		t->attempts_failed, t->lost_h, t->mem_alloc, t->mem_used,
		t->mem_alloc - t->mem_used, t->core_alloc, t->core_used);
}

int rp_out_replay_csv(const char *path, const struct rp_sizing *z, const struct rp_cat *c)
{
	char *buf = NULL;
	size_t len = 0, i, s;
	FILE *f = csv_open(path, &buf, &len);

	if (!f)
		return -1;
	fputs("scope,group,strategy,tasks,fit_first_try,exceeded_first_try,"
	      "failed_after_retries,failed_attempts,hours_lost,memory_mb_hours_allocated,"
	      "memory_mb_hours_used,memory_mb_hours_wasted,core_hours_allocated,"
	      "core_hours_used\n", f);
	for (i = 0; i < z->ng; i++)
		for (s = 0; s < z->nstrat; s++)
			tally_row(f, "group", c[i].group->name, &z->strat[s], &z->rep[s][i].rec);
	for (s = 0; s < z->nstrat; s++)
		tally_row(f, "total", NULL, &z->strat[s], &z->total[s].rec);
	return csv_close(path, f, &buf, &len);
}

/* a figure's cell: empty when unknown */
static void num_cell(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.6f", v);
}

static void job_row(FILE *f, const struct rp_job *j)
{
	fputs("job,", f);
	cell(f, j->name);
	fprintf(f, ",,%zu,%zu,%zu,", j->nodes, j->tasks, j->no_cpu);
	num_cell(f, j->cpu_time);
	fputs(",,", f);	/* memory: per host */
	num_cell(f, j->cores);
	fprintf(f, ",%s,", j->cores_asked ? "allocation" : "use");
	num_cell(f, j->wall);
	fputc(',', f);
	num_cell(f, isnan(j->efficiency) ? NAN : 100 * j->efficiency);
	fputc('\n', f);
}

static void host_row(FILE *f, const struct rp_job *j, const struct rp_job_node *nd)
{
	fputs("host,", f);
	cell(f, j->name);
	fputc(',', f);
	cell(f, nd->host);
	fprintf(f, ",,%zu,,", nd->tasks);
	num_cell(f, nd->cpu_time);
	fputc(',', f);
	num_cell(f, nd->memory > 0 ? nd->memory : NAN);
	fputc(',', f);
	num_cell(f, nd->cores > 0 ? nd->cores : NAN);
	fputs(",,", f);
	num_cell(f, nd->span);
	fputs(",\n", f);
}

int rp_out_jobs_csv(const char *path, const struct rp_job *j, size_t n)
{
	char *buf = NULL;
	size_t len = 0, i, k;
	FILE *f = csv_open(path, &buf, &len);

	if (!f)
		return -1;
	/* the figures' columns named as --csv's, from the table of figures */
	fprintf(f, "scope,job,host,nodes,tasks,tasks_without_cpu_time,%s,%s,%s,cores_from,%s,"
		"efficiency_percent\n", rp_res_fig(RP_CPU_TIME)->csv, rp_res_fig(RP_MEMORY)->csv,
		rp_res_fig(RP_CORES)->csv, rp_res_fig(RP_WALL_TIME)->csv);
	for (i = 0; i < n; i++) {
		job_row(f, &j[i]);
		for (k = 0; k < j[i].nodes; k++)
			host_row(f, &j[i], &j[i].node[k]);
	}
	return csv_close(path, f, &buf, &len);
}
