/* SPDX-License-Identifier: MIT */
/* publish.c: the runtime file's text, one JSON object that `tpmon top`
 * reads (liveread.c): who the run is (pid and its start time, so a
 * reader can tell a file a killed tpmon left), what it runs, its figures
 * now, their peaks and rates, its limits and its state.  Base units. */
#include <jansson.h>
#include <stdlib.h>
#include "basic/jsontext.h"
#include "live/liveint.h"
#include "basic/figtable.h"
#include "basic/xmalloc.h"

static void set_str(json_t *o, const char *key, const char *s)
{
	json_object_set_new(o, key, s ? jsontext_new(s) : json_null());
}

static void set_num(json_t *o, const char *key, bool known, double v)
{
	json_object_set_new(o, key, known ? json_real(v) : json_null());
}

static json_t *now_object(const struct tp_live_point *p)
{
	json_t *o = json_object();
	int i;

	set_num(o, "memory_bytes", true, p->memory_bytes);
	set_num(o, "virtual_memory_bytes", true, p->vm_bytes);
	set_num(o, "cpu_seconds", true, p->cpu_seconds);
	set_num(o, res_info(TP_RES_CORES)->live, p->cores_known, p->cores);
	set_num(o, res_info(TP_RES_BYTES_READ)->live, true, (double)p->read_bytes);
	set_num(o, "written_bytes", true, (double)p->written_bytes);
	set_num(o, "received_bytes", p->net_known, (double)p->received_bytes);
	set_num(o, "sent_bytes", p->net_known, (double)p->sent_bytes);
	set_num(o, "processes", true, p->processes);
	set_num(o, "processes_started", true, (double)p->processes_started);
	json_object_set_new(o, "processes_partial", json_boolean(p->processes_partial));
	set_num(o, "gpu_memory_bytes", p->gpu_known, p->gpu_memory_bytes);
	set_num(o, fig_info(TP_FIG_GPU_CORES)->live, p->gpu_known, p->gpu_cores);
	set_num(o, "disk_bytes", p->disk_known, p->disk_bytes);
	for (i = 0; i < TP_FIG__COUNT; i++)
		if (live_by_table(i))
			set_num(o, fig_info(i)->live, p->fig_known[i],
				p->fig[i] * fig_info(i)->live_factor);
	return o;
}

static json_t *rates_object(const struct tp_live_rates *rt)
{
	json_t *o = json_object();

	set_num(o, "read_bytes_per_second", rt->read >= 0, rt->read);
	set_num(o, "written_bytes_per_second", rt->written >= 0, rt->written);
	set_num(o, "network_bytes_per_second", rt->net >= 0, rt->net);
	return o;
}

static json_t *limits_object(const struct tp_limits *l)
{
	json_t *o = json_object();
	double factor;
	int r;

	for (r = 0; r < TP_RES__COUNT; r++) {
		const char *name = live_base_name(r, &factor);

		if (name && l->set[r])
			json_object_set_new(o, name, json_real(l->value[r] * factor));
	}
	if (l->end_set)
		json_object_set_new(o, "end", json_real(l->end));
	return o;
}

char *publish_text(const struct tp_live_meta *m, const struct tp_live_point *p,
		   const struct tp_live_rates *rt, double now)
{
	json_t *root = json_object(), *peak = json_object();
	char *text, *nl;

	json_object_set_new(root, "tpmon_live", json_integer(1));
	json_object_set_new(root, "pid", json_integer(m->pid));
	json_object_set_new(root, "pid_start", json_integer((json_int_t)m->pid_start));
	json_object_set_new(root, "task_pid", json_integer(m->root));
	set_str(root, "command", m->command);
	set_str(root, "category", m->category);
	set_str(root, "template", m->template);
	set_str(root, "task", m->task);
	set_str(root, "job", m->job);
	set_str(root, "task_id", m->task_id);
	json_object_set_new(root, "start", json_real(m->start));
	json_object_set_new(root, "updated", json_real(now));
	json_object_set_new(root, "elapsed", json_real(p->t));
	json_object_set_new(root, "state", json_string(p->state));
	json_object_set_new(root, "now", now_object(p));
	set_num(peak, "memory_bytes", true, p->memory_peak_bytes);
	json_object_set_new(root, "peak", peak);
	json_object_set_new(root, "rates", rates_object(rt));
	json_object_set_new(root, "limits", limits_object(m->limits));
	text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(root);
	if (!text)
		return NULL;
	nl = xasprintf("%s\n", text);
	free(text);
	return nl;
}
