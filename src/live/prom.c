/* SPDX-License-Identifier: MIT */
/* prom.c: the run's figures in Prometheus' text format, for
 * node_exporter's textfile collector: one family per figure, in base
 * units, named tpmon_task_*, with HELP and TYPE lines and the run's labels
 * (task, category, pid, job, task_id).  Every label value goes through
 * prom_label_value(): a category holding a newline or a quote stays one
 * label value.  No client-side timestamps (node_exporter refuses them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/messages.h"
#include "live/liveint.h"
#include "basic/figtable.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

char *prom_label_value(const char *s)
{
	char *u = safetext_utf8(s ? s : ""), *out, *q;
	const char *p;

	out = q = xmalloc(2 * strlen(u) + 1);
	for (p = u; *p; p++) {
		if (*p == '\\' || *p == '"') {
			*q++ = '\\';
			*q++ = *p;
		} else if (*p == '\n') {
			*q++ = '\\';
			*q++ = 'n';
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	free(u);
	return out;
}

/* The label set of the run, "{...}", newly allocated. */
static char *labels(const struct tp_live_meta *m)
{
	char *task = prom_label_value(m->task), *cat = prom_label_value(m->category);
	char *job = m->job ? prom_label_value(m->job) : NULL;
	char *tid = m->task_id ? prom_label_value(m->task_id) : NULL;
	char *s = xasprintf("{task=\"%s\",category=\"%s\",pid=\"%d\"%s%s%s%s%s%s}", task, cat,
			    (int)m->pid, job ? ",job=\"" : "", job ? job : "", job ? "\"" : "",
			    tid ? ",task_id=\"" : "", tid ? tid : "", tid ? "\"" : "");

	free(task);
	free(cat);
	free(job);
	free(tid);
	return s;
}

static void family(FILE *f, const char *name, const char *type, const char *help,
		   const char *lab, double v)
{
	fprintf(f, "# HELP tpmon_task_%s %s\n# TYPE tpmon_task_%s %s\ntpmon_task_%s%s %.17g\n",
		name, help, name, type, name, lab, v);
}

static void figures(FILE *f, const struct tp_live_point *p, const char *lab)
{
	family(f, "memory_bytes", "gauge", "Resident memory of the task's processes, summed.", lab,
	       p->memory_bytes);
	family(f, "memory_peak_bytes", "gauge", "Peak of tpmon_task_memory_bytes so far.", lab,
	       p->memory_peak_bytes);
	family(f, "virtual_memory_bytes", "gauge", "Virtual memory of the task's processes, summed.",
	       lab, p->vm_bytes);
	family(f, "cpu_seconds_total", "counter", "CPU time of the task's processes, dead and alive.",
	       lab, p->cpu_seconds);
	if (p->cores_known)
		family(f, res_info(TP_RES_CORES)->live, "gauge", "Cores in use over the last second.", lab, p->cores);
	family(f, "read_bytes_total", "counter", "Bytes the task read from storage.", lab,
	       (double)p->read_bytes);
	family(f, "written_bytes_total", "counter", "Bytes the task wrote to storage.", lab,
	       (double)p->written_bytes);
	if (p->net_known) {
		family(f, "received_bytes_total", "counter", "Bytes the task received over TCP.", lab,
		       (double)p->received_bytes);
		family(f, "sent_bytes_total", "counter", "Bytes the task sent over TCP.", lab,
		       (double)p->sent_bytes);
	}
	family(f, "processes", "gauge", "Processes of the task alive now.", lab, p->processes);
	family(f, "processes_started_total", "counter", "Processes the task started, itself included.",
	       lab, (double)p->processes_started);
	family(f, "processes_partial", "gauge",
	       "1 when the process counts are lower bounds (--tracking=cgroup without the proc connector).",
	       lab, p->processes_partial);
	if (p->gpu_known) {
		family(f, "gpu_memory_bytes", "gauge", "GPU memory of the task's processes.", lab,
		       p->gpu_memory_bytes);
		family(f, fig_info(TP_FIG_GPU_CORES)->live, "gauge", "GPUs' SM utilization of the task, in GPUs.", lab,
		       p->gpu_cores);
	}
	if (p->disk_known)
		family(f, "disk_bytes", "gauge", "Disk space under the measured directories.", lab,
		       p->disk_bytes);
}

/* The figures written from the table: a counter's name ends in _total. */
static void table_figures(FILE *f, const struct tp_live_point *p, const char *lab)
{
	int i;

	for (i = 0; i < TP_FIG__COUNT; i++) {
		const struct tp_fig_info *fi = fig_info(i);
		bool counter = fi->agg == TP_AGG_TOTAL;
		char *name, *help;

		if (!live_by_table(i) || !p->fig_known[i])
			continue;
		name = xasprintf("%s%s", fi->live, counter ? "_total" : "");
		help = xasprintf("The task's %s (the summary's %s), in base units.", fi->live,
				 fi->name);
		family(f, name, counter ? "counter" : "gauge", help, lab,
		       p->fig[i] * fi->live_factor);
		free(name);
		free(help);
	}
}

static void limits(FILE *f, const struct tp_limits *l, const char *lab)
{
	double factor;
	int r;

	for (r = 0; r < TP_RES__COUNT; r++) {
		const char *name = live_base_name(r, &factor);

		if (!name || !l->set[r])
			continue;
		fprintf(f, "# HELP tpmon_task_limit_%s The task's limit on %s.\n"
			"# TYPE tpmon_task_limit_%s gauge\ntpmon_task_limit_%s%s %.17g\n",
			name, res_info(r)->name, name, name, lab, l->value[r] * factor);
	}
}

char *prom_text(const struct tp_live_meta *m, const struct tp_live_point *p)
{
	char *lab = labels(m), *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		error_msg_and_die("out of memory");
	family(f, "start_time_seconds", "gauge", "When the task started, since the epoch.", lab,
	       m->start);
	family(f, "elapsed_seconds", "gauge", "Wall time of the task so far.", lab, p->t);
	figures(f, p, lab);
	table_figures(f, p, lab);
	limits(f, m->limits, lab);
	if (fclose(f) != 0)
		error_msg_and_die("out of memory");
	free(lab);
	return buf;
}
