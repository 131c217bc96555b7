/* SPDX-License-Identifier: MIT */
/* trace.c: the trace file, in the JSON Array Format of Chrome's trace
 * event format: "[" then one event per line.  Events are buffered as
 * whole units (a process's span and metadata, a sample's counters) and
 * written at each sample, or when 64 KiB are buffered, with one
 * outfile_append() that ends the file with "]"; the next write replaces
 * the bracket.  So the file is valid JSON whenever tpmon is not in the
 * middle of a write, even after a SIGKILL, and a full disk loses whole
 * units, counted and told at the end.  Timestamps are microseconds from
 * the task's start. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "basic/compat.h"
#include "basic/messages.h"
#include "basic/jsontext.h"
#include "output/records.h"
#include "basic/outfile.h"
#include "output/trace.h"
#include "basic/xmalloc.h"

/* Bytes of events buffered before a write, besides the one at each
 * sample. */
#define TRACE_BUFFER 65536

/* Units of one kind: made, in the buffer, lost. */
struct unit_count {
	unsigned long total, pending, lost;
};

struct tp_trace {
	struct tp_outfile *f;
	pid_t monitor;
	char *head;		/* "[" and tpmon's own track, until written */
	char *buf;		/* whole units (a process, a sample), each
				 * event as ",\n{...}" */
	size_t len, cap;
	struct unit_count procs, samples;
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

/* Add ",\n" and @ev (consumed) to the buffer; -1 if it cannot be
 * formatted (no memory). */
static int emit(struct tp_trace *tr, json_t *ev)
{
	char *text = ev ? json_dumps(ev, JSON_COMPACT | JSON_PRESERVE_ORDER |
				     JSON_REAL_PRECISION(15)) : NULL;
	size_t n;

	json_decref(ev);
	if (!text)
		return -1;
	n = strlen(text);
	if (tr->len + n + 2 > tr->cap) {
		tr->cap = tr->len + n + 2 > 2 * tr->cap ? tr->len + n + 2 : 2 * tr->cap;
		tr->buf = xreallocarray(tr->buf, tr->cap, 1);
	}
	memcpy(tr->buf + tr->len, ",\n", 2);
	memcpy(tr->buf + tr->len + 2, text, n);
	tr->len += n + 2;
	free(text);
	return 0;
}

static json_t *us(double s)
{
	return json_real(round(s * 1e9) / 1e3);	/* us, to the ns */
}

static int meta(struct tp_trace *tr, pid_t pid, const char *what, json_t *args)
{
	return emit(tr, json_pack("{s:s, s:s, s:i, s:i, s:o}", "name", what, "ph", "M",
				  "pid", (int)pid, "tid", (int)pid, "args", args));
}

/* A unit that began at buffer offset @mark is complete (@ok) or is
 * dropped whole. */
static void unit_done(struct tp_trace *tr, struct unit_count *c, size_t mark, bool ok)
{
	c->total++;
	if (ok) {
		c->pending++;
	} else {
		tr->len = mark;
		c->lost++;
	}
	if (tr->len >= TRACE_BUFFER)
		trace_flush(tr);
}

struct tp_trace *trace_open(const char *template, pid_t monitor)
{
	struct tp_outfile *f = outfile_open_output(template, "trace.json");
	struct tp_trace *tr;

	if (!f)
		return NULL;
	outfile_set_tail(f, tail);
	tr = xcalloc(1, sizeof(*tr));
	tr->f = f;
	tr->monitor = monitor;
	meta(tr, monitor, "process_name", json_pack("{s:s}", "name", "tpmon: whole tree"));
	meta(tr, monitor, "process_sort_index", json_pack("{s:i}", "sort_index", 0));
	/* "[" in place of the first event's comma */
	tr->head = xasprintf("[%.*s", tr->len > 0 ? (int)tr->len - 1 : 0, tr->buf + 1);
	tr->len = 0;
	trace_flush(tr);
	return tr;
}

void trace_process(struct tp_trace *tr, const struct tp_proc *p, const struct tp_acct *a)
{
	const struct tp_life *l = p->life;
	const char *name;
	double dur;
	json_t *args;
	size_t mark;
	int bad;

	if (!tr || !l)
		return;
	name = records_name(p);
	dur = l->died > l->born ? l->died - l->born : 0;
	mark = tr->len;
	bad = meta(tr, p->pid, "process_name", json_pack("{s:o}", "name", jsontext_new(name)));
	/* creation order: a parent's track comes before its children's */
	bad |= meta(tr, p->pid, "process_sort_index",
		    json_pack("{s:I}", "sort_index", (json_int_t)l->serial));
	bad |= meta(tr, p->pid, "thread_name", json_pack("{s:o}", "name", jsontext_new(name)));
	args = records_figures(p, a);
	json_object_set_new(args, "id", json_integer((json_int_t)l->serial));
	json_object_set_new(args, "parent", l->parent_serial ?
			    json_integer((json_int_t)l->parent_serial) : json_null());
	bad |= emit(tr, json_pack("{s:o, s:s, s:s, s:o, s:o, s:i, s:i, s:o}", "name",
				  jsontext_new(name), "cat", "process", "ph", "X",
				  "ts", us(l->born), "dur", us(dur),
				  "pid", (int)p->pid, "tid", (int)p->pid, "args", args));
	unit_done(tr, &tr->procs, mark, !bad);
}

void trace_counters(struct tp_trace *tr, const struct tp_trace_point *pt)
{
	size_t i = 0, mark;
	int bad = 0;

	if (!tr)
		return;
	mark = tr->len;
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
		bad |= emit(tr, json_pack("{s:s, s:s, s:o, s:i, s:i, s:o}", "name", event, "ph", "C",
					  "ts", us(pt->t), "pid", (int)tr->monitor,
					  "tid", (int)tr->monitor, "args", args));
	}
	unit_done(tr, &tr->samples, mark, !bad);
}

/* The units in the buffer are written or lost. */
static void settle(struct unit_count *c, bool written)
{
	if (!written)
		c->lost += c->pending;
	c->pending = 0;
}

void trace_flush(struct tp_trace *tr)
{
	char *data;
	size_t len;
	bool ok;

	if (!tr || (!tr->len && !tr->head))
		return;
	data = tr->buf;
	len = tr->len;
	if (tr->head) {		/* until "[" is in the file, it goes first */
		data = xasprintf("%s%.*s", tr->head, (int)tr->len, tr->len ? tr->buf : "");
		len = strlen(data);
	}
	ok = outfile_append(tr->f, data, len) == 0;	/* tells the first failure */
	if (tr->head) {
		free(data);
		if (ok) {
			free(tr->head);
			tr->head = NULL;
		}
	}
	settle(&tr->procs, ok);
	settle(&tr->samples, ok);
	tr->len = 0;
}

void trace_close(struct tp_trace *tr)
{
	if (!tr)
		return;
	trace_flush(tr);
	if (tr->procs.lost || tr->samples.lost) {
		int err = outfile_error(tr->f);

		warn_msg("%s: %lu of %lu process spans and %lu of %lu samples could not be written (%s)",
			 outfile_path(tr->f), tr->procs.lost, tr->procs.total,
			 tr->samples.lost, tr->samples.total, err ? strerror(err) : "out of memory");
	}
	outfile_close(tr->f);
	free(tr->head);
	free(tr->buf);
	free(tr);
}
