/* trace.c: the trace file, in the JSON Array Format of Chrome's trace
 * event format: "[" then one event per line.  After each flush the file
 * is closed with "]" and the write position put back before it, so the
 * next events overwrite the bracket: the file is valid JSON whenever
 * tpmon is not in the middle of a write, even after a SIGKILL.
 * Timestamps are microseconds from the task's start. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compat.h"
#include "error.h"
#include "jsontext.h"
#include "records.h"
#include "stream.h"
#include "trace.h"
#include "xmalloc.h"

struct tp_trace {
	FILE *f;
	pid_t monitor;
	bool first;		/* no event written yet: no comma */
	bool failed;
};

/* The counters: rows with the same event name form one counter event
 * (one track in the viewers, one series per key). */
static const struct {
	enum tp_trace_counter c;
	const char *event, *key;
} counters[] = {
	{ TP_TC_RSS, "memory (MB)", "rss" },
	{ TP_TC_PSS, "memory (MB)", "pss" },
	{ TP_TC_CORES, "cores", "cores" },
	{ TP_TC_PROCS, "processes", "alive" },
	{ TP_TC_READ, "I/O (MB/s)", "read" },
	{ TP_TC_WRITE, "I/O (MB/s)", "written" },
	{ TP_TC_NET_SENT, "network (Mbit/s)", "sent" },
	{ TP_TC_NET_RECV, "network (Mbit/s)", "received" },
	{ TP_TC_GPU_MEMORY, "GPU memory (MB)", "used" },
	{ TP_TC_GPU_CORES, "GPUs", "busy" },
};

static const char tail[] = "\n]\n";

static void emit(struct tp_trace *tr, json_t *ev)
{
	if (!tr->first)
		fputc(',', tr->f);
	fputc('\n', tr->f);
	tr->first = false;
	if (json_dumpf(ev, tr->f, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) < 0)
		tr->failed = true;
	json_decref(ev);
}

static json_t *us(double s)
{
	return json_real(round(s * 1e9) / 1e3);	/* us, to the ns */
}

static void meta(struct tp_trace *tr, pid_t pid, const char *what, json_t *args)
{
	emit(tr, json_pack("{s:s, s:s, s:i, s:i, s:o}", "name", what, "ph", "M",
			   "pid", (int)pid, "tid", (int)pid, "args", args));
}

struct tp_trace *trace_open(const char *template, pid_t monitor)
{
	char *path = xasprintf("%s.trace.json", template);
	FILE *f = stream_create(path);
	struct tp_trace *tr;

	free(path);
	if (!f)
		return NULL;
	tr = xcalloc(1, sizeof(*tr));
	tr->f = f;
	tr->monitor = monitor;
	tr->first = true;
	fputc('[', f);
	meta(tr, monitor, "process_name", json_pack("{s:s}", "name", "tpmon: whole tree"));
	meta(tr, monitor, "process_sort_index", json_pack("{s:i}", "sort_index", 0));
	trace_flush(tr);
	return tr;
}

void trace_process(struct tp_trace *tr, const struct tp_proc *p, const struct tp_acct *a)
{
	const char *name = records_name(p);
	double dur = p->died > p->born ? p->died - p->born : 0;
	json_t *args;

	if (!tr)
		return;
	meta(tr, p->pid, "process_name", json_pack("{s:o}", "name", jsontext_new(name)));
	/* creation order: a parent's track comes before its children's */
	meta(tr, p->pid, "process_sort_index", json_pack("{s:I}", "sort_index", (json_int_t)p->serial));
	meta(tr, p->pid, "thread_name", json_pack("{s:o}", "name", jsontext_new(name)));
	args = records_figures(p, a);
	json_object_set_new(args, "id", json_integer((json_int_t)p->serial));
	json_object_set_new(args, "parent", p->parent_serial ?
			    json_integer((json_int_t)p->parent_serial) : json_null());
	emit(tr, json_pack("{s:o, s:s, s:s, s:o, s:o, s:i, s:i, s:o}", "name", jsontext_new(name),
			   "cat", "process", "ph", "X", "ts", us(p->born), "dur", us(dur),
			   "pid", (int)p->pid, "tid", (int)p->pid, "args", args));
}

void trace_counters(struct tp_trace *tr, const struct tp_trace_point *pt)
{
	size_t i = 0;

	if (!tr)
		return;
	while (i < ARRAY_SIZE(counters)) {
		const char *event = counters[i].event;
		json_t *args = json_object();

		for (; i < ARRAY_SIZE(counters) && !strcmp(counters[i].event, event); i++)
			if (pt->known[counters[i].c] && isfinite(pt->v[counters[i].c]))
				json_object_set_new(args, counters[i].key,
						    json_real(round(pt->v[counters[i].c] * 1e3) / 1e3));
		if (json_object_size(args) == 0) {
			json_decref(args);
			continue;
		}
		emit(tr, json_pack("{s:s, s:s, s:o, s:i, s:i, s:o}", "name", event, "ph", "C",
				   "ts", us(pt->t), "pid", (int)tr->monitor, "tid", (int)tr->monitor,
				   "args", args));
	}
}

void trace_flush(struct tp_trace *tr)
{
	if (!tr)
		return;
	if (fputs(tail, tr->f) == EOF || fflush(tr->f) == EOF ||
	    fseek(tr->f, -(long)(sizeof(tail) - 1), SEEK_CUR) < 0)
		tr->failed = true;
}

void trace_close(struct tp_trace *tr)
{
	if (!tr)
		return;
	if (fputs(tail, tr->f) == EOF)
		tr->failed = true;
	if (fclose(tr->f) != 0 || tr->failed)
		error_msg("the trace may be incomplete: a write failed");
	free(tr);
}
