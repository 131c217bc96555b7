/* SPDX-License-Identifier: MIT */
/* influx.c: the run's figures as InfluxDB line protocol, one line per
 * sample in the shape of Slurm's grouped fields: measurement tpmon_task,
 * tags host, task, category, job and task_id (where known), fields in base
 * units.  Tag values go through influx_tag_value(): commas, '=', spaces
 * and the backslashes before them escaped, and nothing that could end
 * the line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/messages.h"
#include "live/liveint.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

char *influx_tag_value(const char *s)
{
	/* the shown form: no control character is left (a newline would
	 * end the line), then the line protocol's escapes */
	char *shown = safetext_dup(s ? s : ""), *out, *q;
	const char *p;

	out = q = xmalloc(2 * strlen(shown) + 2);
	for (p = shown; *p; p++) {
		/* the parser takes a backslash and the byte after it as a
		 * pair: one that would pair with a separator, another
		 * backslash or the end is doubled; others ("\n") stay */
		if (*p == ',' || *p == '=' || *p == ' ' ||
		    (*p == '\\' && (!p[1] || strchr(",= \\", p[1]))))
			*q++ = '\\';
		*q++ = *p;
	}
	if (q == out)
		*q++ = '-';	/* an empty tag value is not allowed */
	*q = '\0';
	free(shown);
	return out;
}

static void tag(FILE *f, const char *key, const char *value)
{
	char *v;

	if (!value)
		return;
	v = influx_tag_value(value);
	fprintf(f, ",%s=%s", key, v);
	free(v);
}

static void fields(FILE *f, const struct tp_live_point *p)
{
	int i;

	fprintf(f, " memory_bytes=%.0fi,memory_peak_bytes=%.0fi,virtual_memory_bytes=%.0fi,"
		"cpu_seconds=%.6f,wall_seconds=%.3f",
		p->memory_bytes, p->memory_peak_bytes, p->vm_bytes, p->cpu_seconds, p->t);
	if (p->cores_known)
		fprintf(f, ",cores=%.4f", p->cores);
	fprintf(f, ",read_bytes=%llui,written_bytes=%llui,processes=%ui,processes_started=%lui,"
		"processes_partial=%s",
		(unsigned long long)p->read_bytes, (unsigned long long)p->written_bytes,
		p->processes, p->processes_started, p->processes_partial ? "true" : "false");
	if (p->net_known)
		fprintf(f, ",received_bytes=%llui,sent_bytes=%llui",
			(unsigned long long)p->received_bytes, (unsigned long long)p->sent_bytes);
	if (p->gpu_known)
		fprintf(f, ",gpu_memory_bytes=%.0fi,gpu_cores=%.4f", p->gpu_memory_bytes,
			p->gpu_cores);
	if (p->disk_known)
		fprintf(f, ",disk_bytes=%.0fi", p->disk_bytes);
	for (i = 0; i < TP_FIG__COUNT; i++)
		if (live_by_table(i) && p->fig_known[i])
			fprintf(f, ",%s=%.6f", fig_info(i)->live, p->fig[i] * fig_info(i)->live_factor);
}

char *influx_line(const struct tp_live_meta *m, const struct tp_live_point *p, double now)
{
	char *buf = NULL, pid[24];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		error_msg_and_die("out of memory");
	snprintf(pid, sizeof(pid), "%d", (int)m->pid);
	fputs("tpmon_task", f);
	tag(f, "category", m->category);
	tag(f, "host", m->host);
	tag(f, "job", m->job);
	tag(f, "pid", pid);
	tag(f, "task", m->task);
	tag(f, "task_id", m->task_id);
	fields(f, p);
	fprintf(f, " %.0f\n", now * 1000.0);
	if (fclose(f) != 0)
		error_msg_and_die("out of memory");
	return buf;
}

char *influx_write_url(const char *url)
{
	const char *q = strchr(url, '?');
	const char *scheme = strstr(url, "://");
	const char *path = scheme ? strchr(scheme + 3, '/') : NULL;
	char *base, *out;

	if (!path || (path[1] == '\0' || path[1] == '?'))
		base = xasprintf("%.*s/write%s", path ? (int)(path - url) : (int)(q ? q - url : (long)strlen(url)),
				 url, q ? q : "?db=tpmon");
	else
		base = xstrdup(url);
	if (strstr(base, "precision="))
		return base;
	out = xasprintf("%s%cprecision=ms", base, strchr(base, '?') ? '&' : '?');
	free(base);
	return out;
}
