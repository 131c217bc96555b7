/* SPDX-License-Identifier: MIT */
/* out_json.c: the --json document, in the shape scripts rely on:
 * {"categories": [{"category", "tasks", "succeeded", "exhausted",
 * "failed", "resources": {RES: {"unit", "min", "median", "p95", "max",
 * "mean"}}, "allocations": {MODE: {"cores", "memory", "disk"}}}]}
 * And --by=job's: {"jobs": [{"job", "nodes", "tasks", "cpu_time",
 * "wall_time", "cores", "cores_from", "efficiency", "tasks_without_cpu_time",
 * "hosts": [{"host", "tasks", "cpu_time", "memory", "cores", "span"}]}],
 * "tasks_without_job"}, each figure [value, "unit"] as in a summary, null
 * when unknown.  Text goes through jansson (jsontext_new(): invalid UTF-8
 * replaced). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "basic/outfile.h"
#include "basic/messages.h"
#include "basic/jsontext.h"
#include "report/analyse/jobs.h"
#include "report/write/output.h"

static json_t *number(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *resources(const struct rp_cat *c)
{
	json_t *o = json_object();
	int r;

	for (r = 0; r < RP_RES__COUNT; r++) {
		const struct rp_stats *s = &c->stats[r];
		json_t *res;

		if (!c->shown[r])
			continue;
		res = json_object();
		json_object_set_new(res, "unit", json_string(rp_res_fig(r)->unit));
		json_object_set_new(res, "min", number(s->min));
		json_object_set_new(res, "median", number(s->median));
		json_object_set_new(res, "p95", number(s->p95));
		json_object_set_new(res, "max", number(s->max));
		json_object_set_new(res, "mean", number(s->mean));
		json_object_set_new(o, rp_res_fig(r)->name, res);
	}
	return o;
}

static json_t *allocations(const struct rp_cat *c)
{
	json_t *o = json_object();
	int m, a;

	for (m = 0; m < RP_MODE__COUNT; m++) {
		json_t *mode = json_object();

		for (a = 0; a < RP_A__COUNT; a++)
			json_object_set_new(mode, rp_res_fig(rp_ares_res(a))->name,
					    c->alloc[m][a] < 0 ? json_null() :
					    json_integer(c->alloc[m][a]));
		json_object_set_new(o, rp_mode_key(m), mode);
	}
	return o;
}

static json_t *category(const struct rp_cat *c)
{
	json_t *o = json_object();

	/* a transaction log's words need not be UTF-8 */
	json_object_set_new(o, "category", jsontext_new(c->group->name));
	json_object_set_new(o, "tasks", json_integer((json_int_t)c->tasks));
	json_object_set_new(o, "succeeded", json_integer((json_int_t)c->succeeded));
	json_object_set_new(o, "exhausted", json_integer((json_int_t)c->exhausted));
	json_object_set_new(o, "failed", json_integer((json_int_t)c->failed));
	json_object_set_new(o, "running", json_integer((json_int_t)c->running));
	json_object_set_new(o, "label", jsontext_new(c->group->label));
	json_object_set_new(o, "notes", json_integer((json_int_t)c->notes));
	json_object_set_new(o, "resources", resources(c));
	json_object_set_new(o, "allocations", allocations(c));
	return o;
}

/* Write @root (taken) to @path ("-": standard output).  0, or -1 after an
 * error message. */
static int dump(const char *path, json_t *root)
{
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				JSON_REAL_PRECISION(12));
	int r;

	json_decref(root);
	if (!text) {
		error_msg("cannot write %s: out of memory", path);
		return -1;
	}
	if (strcmp(path, "-") == 0)
		r = (fputs(text, stdout) < 0 || fputc('\n', stdout) < 0 ||
		     fflush(stdout) != 0) ? -1 : 0;
	else
		r = rp_write_file(path, text, strlen(text));
	if (r < 0)
		error_msg("cannot write %s: %s", path, outfile_strerror(errno));
	free(text);
	return r;
}

int rp_out_json(const char *path, const struct rp_cat *c, size_t n,
		char *const *notes, size_t nnotes, const struct rp_sizing *z)
{
	json_t *root = json_object(), *cats = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *o = category(&c[i]);

		if (z)
			rp_sizing_json_group(o, z, i);
		json_array_append_new(cats, o);
	}
	json_object_set_new(root, "categories", cats);
	if (z)
		rp_sizing_json_root(root, z);
	if (nnotes) {
		json_t *a = json_array();

		/* our own text (and numbers): valid UTF-8 */
		for (i = 0; i < nnotes; i++)
			json_array_append_new(a, json_string(notes[i]));
		json_object_set_new(root, "notes", a);
	}
	return dump(path, root);
}

/* [value, "unit"] with figure @r's unit (@unit when @r < 0), or null */
static json_t *figure(double v, int r, const char *unit)
{
	json_t *a;

	if (isnan(v))
		return json_null();
	a = json_array();
	json_array_append_new(a, json_real(v));
	json_array_append_new(a, json_string(r < 0 ? unit : rp_res_fig(r)->unit));
	return a;
}

static json_t *job_host(const struct rp_job_node *nd)
{
	json_t *o = json_object();

	json_object_set_new(o, "host", nd->host ? jsontext_new(nd->host) : json_null());
	json_object_set_new(o, "tasks", json_integer((json_int_t)nd->tasks));
	json_object_set_new(o, rp_res_fig(RP_CPU_TIME)->name, figure(nd->cpu_time, RP_CPU_TIME, NULL));
	json_object_set_new(o, rp_res_fig(RP_MEMORY)->name,
			    figure(nd->memory > 0 ? nd->memory : NAN, RP_MEMORY, NULL));
	json_object_set_new(o, rp_res_fig(RP_CORES)->name,
			    figure(nd->cores > 0 ? nd->cores : NAN, RP_CORES, NULL));
	json_object_set_new(o, "span", figure(nd->span, -1, "s"));
	return o;
}

static json_t *job(const struct rp_job *j)
{
	json_t *o = json_object(), *hosts = json_array();
	size_t i;

	json_object_set_new(o, "job", jsontext_new(j->name));
	json_object_set_new(o, "nodes", json_integer((json_int_t)j->nodes));
	json_object_set_new(o, "tasks", json_integer((json_int_t)j->tasks));
	json_object_set_new(o, rp_res_fig(RP_CPU_TIME)->name, figure(j->cpu_time, RP_CPU_TIME, NULL));
	json_object_set_new(o, rp_res_fig(RP_WALL_TIME)->name, figure(j->wall, RP_WALL_TIME, NULL));
	json_object_set_new(o, rp_res_fig(RP_CORES)->name, figure(j->cores, RP_CORES, NULL));
	json_object_set_new(o, "cores_from", json_string(j->cores_asked ? "allocation" : "use"));
	json_object_set_new(o, "efficiency",
			    figure(isnan(j->efficiency) ? NAN : 100 * j->efficiency, -1, "%"));
	json_object_set_new(o, "tasks_without_cpu_time", json_integer((json_int_t)j->no_cpu));
	for (i = 0; i < j->nodes; i++)
		json_array_append_new(hosts, job_host(&j->node[i]));
	json_object_set_new(o, "hosts", hosts);
	return o;
}

int rp_out_jobs_json(const char *path, const struct rp_job *j, size_t n, size_t nojob)
{
	json_t *root = json_object(), *jobs = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(jobs, job(&j[i]));
	json_object_set_new(root, "jobs", jobs);
	json_object_set_new(root, "tasks_without_job", json_integer((json_int_t)nojob));
	return dump(path, root);
}
