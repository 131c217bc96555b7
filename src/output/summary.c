/* SPDX-License-Identifier: MIT */
/* summary.c: the JSON summary, in the shape cctools tools read: every
 * measurement is [value, "unit"], unknown values are null.  Strings go
 * through jansson, so quotes, control characters and invalid UTF-8 in a
 * command line can never break the JSON. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/cctools.h"
#include "output/endjson.h"
#include "basic/messages.h"
#include "basic/jsontext.h"
#include "basic/outfile.h"
#include "basic/sumkeys.h"
#include "output/summary.h"
#include "basic/xmalloc.h"

static json_t *measure(double v, const char *unit, int decimals)
{
	double scale = pow(10, decimals);
	json_t *num;

	if (!isfinite(v))
		return json_null();
	v = round(v * scale) / scale;
	if (decimals == 0 && fabs(v) < 9e15)
		num = json_integer((json_int_t)v);
	else
		num = json_real(v);
	return json_pack("[o, s]", num, unit);
}

/* Figure @f of @r as [value, "unit"], or null when unknown. */
static json_t *figure(const struct tp_summary *r, enum tp_fig f)
{
	const struct tp_fig_info *fi = fig_info(f);
	double v;

	return figures_value(r, f, &v) ? measure(v, fi->unit, fi->decimals) : json_null();
}

/* The figures of one section of the summary, in the table's order. */
static void add_figures(json_t *root, const struct tp_summary *r, enum tp_fig_place place)
{
	int f;

	for (f = 0; f < TP_FIG__COUNT; f++)
		if (fig_info(f)->place == place)
			json_object_set_new(root, fig_info(f)->name, figure(r, f));
}

static json_t *peak_times(const struct tp_summary *r)
{
	json_t *pt = json_object();
	int i;

	for (i = 0; i < TP_RES__COUNT; i++)
		if (r->known[i] && r->peak_time[i] >= 0)
			json_object_set_new(pt, res_info(i)->name,
					    measure(r->peak_time[i], "s", 3));
	return pt;
}

static json_t *exceeded_object(const struct tp_summary *r)
{
	json_t *le = json_object();
	int i;

	for (i = 0; i < TP_RES__COUNT; i++)
		if (r->exceeded.set[i])
			json_object_set_new(le, res_info(i)->name,
					    measure(r->exceeded.value[i], res_info(i)->unit,
						    res_info(i)->decimals));
	if (r->exceeded.end_set)
		json_object_set_new(le, "end", measure(r->exceeded.end, "s", 0));
	if (json_object_size(le) == 0) {
		json_decref(le);
		return json_null();
	}
	return le;
}

/* Into @a, the names of the figures that are lower bounds in this run,
 * among those @root gives a value (a null one is unknown, not a bound). */
static void lower_bounds(json_t *a, const json_t *root, const struct tp_summary *r)
{
	int f;

	for (f = 0; f < TP_FIG__COUNT; f++) {
		const char *name = quality_fig_name((enum tp_fig)f);
		const json_t *v = json_object_get(root, name);

		if (r->lower[f] && v && !json_is_null(v))
			json_array_append_new(a, json_string(name));
	}
}

/* The figures above the task's own, by the monitor's share in them. */
static json_t *upper_bounds(const struct tp_summary *r)
{
	json_t *a = json_array();

	if (r->cgf.known & TP_CGF_MEM_PEAK)
		json_array_append_new(a, json_string("memory_cgroup"));
	return a;
}

static const char *exit_type_name(enum tp_exit_type t)
{
	return t == TP_EXIT_TYPE_LIMITS ? "limits" : t == TP_EXIT_TYPE_SIGNAL ? "signal" : "normal";
}

/* The batch job the task is part of, from Slurm's environment, for
 * `tpmon report --by=job`; -V job:NAME (added after) says it instead. */
static void add_job(json_t *root, const struct tp_options *o)
{
	const char *job = getenv("SLURM_JOB_ID"), *step = getenv("SLURM_STEP_ID");
	size_t i;

	for (i = 0; i < o->nverbatim; i++)
		if (!strcmp(o->verbatim[i].key, "job"))
			return;
	if (!job || !*job)
		return;
	json_object_set_new(root, "job", jsontext_new(job));
	if (step && *step)
		json_object_set_new(root, "job_step", jsontext_new(step));
}

static void add_verbatim(json_t *root, const struct tp_options *o)
{
	size_t i;

	for (i = 0; i < o->nverbatim; i++)
		json_object_set_new(root, o->verbatim[i].key, jsontext_new(o->verbatim[i].value));
}

static void add_exit(json_t *root, const struct tp_options *o, const struct tp_summary *r)
{
	/* a checkpoint of a running task has no exit yet: null, not a 0
	 * that a reader would take for success; "running" with
	 * --update-summary, as resource_monitor writes it then */
	if (r->partial && r->exit_type == TP_EXIT_TYPE_NORMAL)
		json_object_set_new(root, "exit_type", o->update_summary ?
				    json_string("running") : json_null());
	else
		json_object_set_new(root, "exit_type", json_string(exit_type_name(r->exit_type)));
	json_object_set_new(root, "exit_status", r->partial || r->exit_unknown ? json_null() :
			    json_integer(r->exit_status));
	if (r->signal)
		json_object_set_new(root, "signal", json_integer(r->signal));
	if (r->monitor_signal)
		json_object_set_new(root, "monitor_signal", json_integer(r->monitor_signal));
	json_object_set_new(root, "limits_exceeded", exceeded_object(r));
	/* flat, not an object: cctools readers reject unknown objects */
	if (r->violator_pid) {
		json_object_set_new(root, "limit_violator_pid", json_integer(r->violator_pid));
		json_object_set_new(root, "limit_violator_command", jsontext_new(r->violator_cmd));
	}
}

/* The limits as declared (null when none): plots draw them. */
static json_t *declared_limits(const struct tp_options *o)
{
	json_t *l = json_object();
	int i;

	for (i = 0; i < TP_RES__COUNT; i++)
		if (o->limits.set[i])
			json_object_set_new(l, res_info(i)->name,
					    measure(o->limits.value[i], res_info(i)->unit, res_info(i)->decimals));
	if (json_object_size(l) == 0) {
		json_decref(l);
		return json_null();
	}
	return l;
}

/* How well the task used what it declared (tpmon's own mode: the
 * cctools view drops these). */
static void add_usage(json_t *root, const struct tp_options *o, const struct tp_summary *r)
{
	const struct tp_utilization_figures *u = &r->usage;
	double mem_limit = o->limits.value[TP_RES_MEMORY];

	json_object_set_new(root, "limits", declared_limits(o));
	json_object_set_new(root, "stopped_at", r->stopped_at >= 0 ?
			    measure(r->stopped_at, "s", 3) : json_null());
	json_object_set_new(root, "utilization_cores", measure(u->ref, res_info(TP_RES_CORES)->unit, 3));
	json_object_set_new(root, "utilization_mean", measure(u->mean, "%", 2));
	json_object_set_new(root, "utilization_over_20", measure(u->over20, "%", 2));
	json_object_set_new(root, "utilization_over_40", measure(u->over40, "%", 2));
	json_object_set_new(root, "utilization_over_80", measure(u->over80, "%", 2));
	json_object_set_new(root, "utilization_at_100", measure(u->at100, "%", 2));
	json_object_set_new(root, "cpu_hours_allotted", measure(u->cpu_hours_allotted, "cpu-hours", 6));
	json_object_set_new(root, "cpu_hours_unused", measure(u->cpu_hours_unused, "cpu-hours", 6));
	json_object_set_new(root, "memory_share",
			    o->limits.set[TP_RES_MEMORY] && mem_limit > 0 && r->known[TP_RES_MEMORY] ?
			    measure(100.0 * r->value[TP_RES_MEMORY] / mem_limit, "%", 2) : json_null());
	json_object_set_new(root, "memory_growth", u->growth_known ?
			    measure(u->memory_growth, "MB/min", 3) : json_null());
}

/* One device DRM fdinfo or KFD saw: its PCI address (null for a
 * platform device, and for KFD, which names its gpu_id), driver, source,
 * peak resident memory, busy time per engine class, and the peaks of
 * each memory region's resident and total memory. */
static json_t *drm_device_json(const struct tp_drm_device_fig *v)
{
	json_t *j = json_object(), *e = json_object(), *g = json_object();
	unsigned k;

	json_object_set_new(j, "pdev", v->pdev[0] && !v->kfd ? jsontext_new(v->pdev) : json_null());
	if (v->kfd)
		json_object_set_new(j, "gpu_id", jsontext_new(v->pdev));
	json_object_set_new(j, "driver", jsontext_new(v->driver));
	json_object_set_new(j, "source", json_string(v->kfd ? "kfd" : "drm-fdinfo"));
	json_object_set_new(j, "memory", measure(v->peak_memory_mb, "MB", 3));
	for (k = 0; k < v->nengines; k++)
		json_object_set_new(e, v->engine[k], measure(v->busy_s[k], "s", 3));
	json_object_set_new(j, "engines", e);
	for (k = 0; k < v->nregions; k++) {
		json_t *r = json_object();

		json_object_set_new(r, "resident", measure(v->resident_mb[k], "MB", 3));
		json_object_set_new(r, "total", v->has_total[k] ? measure(v->total_mb[k], "MB", 3) :
				    json_null());
		json_object_set_new(g, v->region[k], r);
	}
	json_object_set_new(j, "regions", g);
	return j;
}

/* Where the GPU figures came from ("nvml", "drm-fdinfo", "kfd", joined
 * with "+"), or NULL when no source knew a GPU: into @buf. */
static const char *gpu_source(const struct tp_summary *r, char *buf, size_t len)
{
	bool drm = false, kfd = false;
	unsigned i;

	for (i = 0; i < r->ngpu_dev; i++) {
		kfd = kfd || r->gpu_dev[i].kfd;
		drm = drm || !r->gpu_dev[i].kfd;
	}
	snprintf(buf, len, "%s%s%s", r->gpu_nvml ? "+nvml" : "", drm ? "+drm-fdinfo" : "",
		 kfd ? "+kfd" : "");
	return buf[0] ? buf + 1 : NULL;
}

/* Where the GPU figures came from (only when a source knew some), and
 * the tree's processes whose descriptors could not be read. */
static void add_gpu_sources(json_t *root, const struct tp_summary *r)
{
	char buf[64];
	const char *src = gpu_source(r, buf, sizeof(buf));
	unsigned i;
	json_t *a;

	if (r->gpu_unreadable)
		json_object_set_new(root, "gpu_unreadable_processes",
				    json_integer(r->gpu_unreadable));
	if (!src)
		return;
	json_object_set_new(root, "gpu_source", json_string(src));
	if (!r->ngpu_dev)
		return;
	a = json_array();
	for (i = 0; i < r->ngpu_dev; i++)
		json_array_append_new(a, drm_device_json(&r->gpu_dev[i]));
	json_object_set_new(root, "gpu_devices", a);
}

static json_t *snapshot_json(const struct tp_snapshot *s)
{
	json_t *j = json_object();
	int i;

	json_object_set_new(j, "snapshot_name", jsontext_new(s->name));
	json_object_set_new(j, "start", measure(s->start, "s", 6));
	json_object_set_new(j, "end", measure(s->end, "s", 6));
	for (i = 0; i < TP_RES__COUNT; i++)
		json_object_set_new(j, res_info(i)->name, s->known[i] ?
				    measure(s->value[i], res_info(i)->unit, res_info(i)->decimals) :
				    json_null());
	return j;
}

/* "snapshots": an array of objects, the shape cctools' parser takes (each
 * element read as a summary of its own); absent when there is none. */
static void add_snapshots(json_t *root, const struct tp_summary *r)
{
	json_t *a;
	size_t i;

	if (!r->nsnapshots)
		return;
	a = json_array();
	for (i = 0; i < r->nsnapshots; i++)
		json_array_append_new(a, snapshot_json(&r->snapshots[i]));
	json_object_set_new(root, "snapshots", a);
}

json_t *summary_identity(const struct tp_options *o)
{
	json_t *root = json_object();
	char host[256] = "unknown";

	gethostname(host, sizeof(host) - 1);
	json_object_set_new(root, "executable_type", json_string("dynamic"));
	json_object_set_new(root, "monitor_version", json_string("tpmon " PACKAGE_VERSION));
	json_object_set_new(root, "host", jsontext_new(host));
	json_object_set_new(root, "command", jsontext_new(o->command));
	return root;
}

void summary_tag(json_t *root, const struct tp_options *o)
{
	add_job(root, o);
	add_verbatim(root, o);
}

static json_t *build(const struct tp_options *o, const struct tp_summary *r)
{
	json_t *root = summary_identity(o), *lb;
	int i;

	add_exit(root, o, r);
	json_object_set_new(root, "start", measure(r->start, "s", 6));
	json_object_set_new(root, "end", measure(r->end, "s", 6));
	/* flat: cctools readers reject nested objects */
	for (i = TP_FIGP_RES; i < TP_FIGP_KERNEL; i++)
		add_figures(root, r, i);
	json_object_set_new(root, "peak_times", peak_times(r));
	/* the backend's name, and why this mode was taken */
	json_object_set_new(root, "tracking", r->tracking_name ? json_string(r->tracking_name) :
			    json_null());
	json_object_set_new(root, "tracking_reason", r->tracking_reason ?
			    json_string(r->tracking_reason) : json_null());
	json_object_set_new(root, "cgroup", r->cgroup ? json_string(r->cgroup) : json_null());
	/* --tracking=cgroup: whether total_processes and
	 * max_concurrent_processes are lower bounds (false: exact); ptrace
	 * only when processes escaped the tracer (program/escapes.c) */
	if (r->tracking == TP_TRACK_CGROUP || r->processes_partial)
		json_object_set_new(root, "processes_partial", json_boolean(r->processes_partial));
	if (r->cgroup_shared)
		json_object_set_new(root, "cgroup_shared", json_true());
	/* last of the figures: the names of those that are lower bounds
	 * (filled once the kernel's figures below are in) */
	lb = json_array();
	json_object_set_new(root, "lower_bounds", lb);
	/* the cgroup's own high-water mark (5.19), page cache included,
	 * and its PSI totals */
	add_figures(root, r, TP_FIGP_KERNEL);
	lower_bounds(lb, root, r);
	/* tpmon's own cgroup, read only: tpmon's memory is in its peak */
	if (r->cgroup_home)
		json_object_set_new(root, "upper_bounds", upper_bounds(r));
	add_gpu_sources(root, r);
	add_usage(root, o, r);
	add_snapshots(root, r);
	if (r->partial)
		json_object_set_new(root, "partial", json_true());
	/* disk and total_files are then lower bounds */
	if (r->disk_partial)
		json_object_set_new(root, "disk_partial", json_true());
	/* why input_size and input_files are null */
	if (r->input.reason)
		json_object_set_new(root, "input_reason", json_string(r->input.reason));
	endjson_add(root, o, r);
	summary_tag(root, o);
	return root;
}

bool summary_field_reserved(const char *key)
{
	int k = key_by_name(key);

	return fig_by_name(key) >= 0 || (k >= 0 && key_info((enum tp_key)k)->written);
}

char *summary_path(const struct tp_options *o)
{
	return xasprintf("%s.summary", o->template);
}

char *summary_full_path(const struct tp_options *o)
{
	return o->exit_codes == TP_CODES_CCTOOLS ? xasprintf("%s.tpmon.json", o->template) :
						   summary_path(o);
}

/* Space for the final summary, set aside before the task runs. */
static struct tp_reserve *reserve;

/* A generous bound on the summary's size: escaping can make a byte of
 * the command line or of a -V value six. */
static size_t summary_bound(const struct tp_options *o)
{
	size_t n = 65536 + 6 * strlen(o->command);
	size_t i;

	for (i = 0; i < o->nverbatim; i++)
		n += 6 * (strlen(o->verbatim[i].key) + strlen(o->verbatim[i].value)) + 16;
	return n;
}

int summary_prepare(const struct tp_options *o)
{
	char *path = summary_path(o);
	int r = outfile_check(path);

	if (r == 0) {
		reserve = outfile_reserve(path, summary_bound(o));
		if (!reserve)
			debug_msg("no space reserved for %s: %s", path, strerror(errno));
	}
	free(path);
	return r;
}

void summary_release(void)
{
	outfile_reserve_free(reserve);
	reserve = NULL;
}

/* @root as text ending with a newline (malloc'd). */
char *summary_dump(const json_t *root, bool pprint)
{
	size_t flags = JSON_REAL_PRECISION(15) | JSON_PRESERVE_ORDER |
		       (pprint ? JSON_INDENT(2) : JSON_COMPACT);
	char *json = json_dumps(root, flags);
	char *text_nl;

	if (!json)
		error_msg_and_die("out of memory");
	text_nl = xasprintf("%s\n", json);
	free(json);
	return text_nl;
}

/* Write @root as @path.  A checkpoint (@r->partial) leaves the reserve
 * for the final summary and tells a failure once; the final summary
 * (@reserved) may use the reserve. */
static int write_json(const struct tp_options *o, const struct tp_summary *r,
		      const char *path, const json_t *root, bool reserved)
{
	char *text_nl = summary_dump(root, o->pprint);
	int ret;

	if (r->partial) {
		static bool checkpoint_failed;

		ret = outfile_write(path, text_nl, strlen(text_nl));
		if (ret < 0 && !checkpoint_failed) {
			warn_msg("cannot write %s (checkpoint; will retry): %s", path,
				 outfile_strerror(errno));
			checkpoint_failed = true;
		}
	} else {
		ret = reserved ? outfile_write_reserved(path, text_nl, strlen(text_nl), &reserve) :
				 outfile_write(path, text_nl, strlen(text_nl));
		if (ret < 0 && reserved)
			error_msg("cannot write %s: %s", path, outfile_strerror(errno));
		else if (ret < 0)	/* TEMPLATE.tpmon.json, no reserve */
			warn_msg("cannot write %s: %s", path, outfile_strerror(errno));
	}
	free(text_nl);
	return ret;
}

/* In cctools mode TEMPLATE.summary holds what the engines' parser knows
 * and TEMPLATE.tpmon.json every field; otherwise the summary holds all. */
int summary_write(const struct tp_options *o, const struct tp_summary *r)
{
	json_t *root = build(o, r);
	char *path = summary_path(o);
	int ret;

	if (o->exit_codes == TP_CODES_CCTOOLS) {
		char *full = summary_full_path(o);
		json_t *view = cctools_view(root, o);

		write_json(o, r, full, root, false);
		ret = write_json(o, r, path, view, true);
		json_decref(view);
		free(full);
	} else {
		ret = write_json(o, r, path, root, true);
	}
	if (!r->partial)
		summary_release();
	json_decref(root);
	free(path);
	return ret;
}

int summary_write_snapshot(const struct tp_options *o, const struct tp_snapshot *s, size_t n)
{
	json_t *root = snapshot_json(s);
	char *text_nl = summary_dump(root, o->pprint);
	char *path = xasprintf("%s.snapshot.%02zu", o->template, n);
	int ret = outfile_write(path, text_nl, strlen(text_nl));

	if (ret < 0)
		warn_msg("cannot write %s: %s", path, outfile_strerror(errno));
	json_decref(root);
	free(text_nl);
	free(path);
	return ret;
}

char *summary_text(const struct tp_options *o, const struct tp_summary *r)
{
	json_t *root = build(o, r), *view = cctools_view(root, o);
	char *text = summary_dump(view, false);

	json_decref(view);
	json_decref(root);
	return text;
}
