/* SPDX-License-Identifier: MIT */
/* records.c: the process records.  A line is formatted and buffered as
 * its process ends, and nothing of the process is kept after that, so a
 * tree of 100,000 short processes costs tpmon no memory.  The buffer
 * holds whole lines only and goes out in one outfile_append() at each
 * sample or when it is full: a full disk loses whole lines, never leaves
 * half of one, and every line lost is counted and told at the end. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "basic/messages.h"
#include "basic/jsontext.h"
#include "output/records.h"
#include "basic/outfile.h"
#include "basic/figtable.h"
#include "basic/xmalloc.h"

/* Lines buffered before a write. */
#define RECORDS_BUFFER 65536

struct tp_records {
	struct tp_outfile *f;
	pid_t monitor;
	char *buf;		/* whole lines not yet written */
	size_t len, cap;
	unsigned long pending;	/* lines in buf */
	unsigned long total, lost;	/* processes seen, lines lost */
};

struct tp_records *records_open(const char *template, pid_t monitor)
{
	struct tp_outfile *f = outfile_open_output(template, "processes");
	struct tp_records *r;

	if (!f)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->f = f;
	r->monitor = monitor;
	return r;
}

static json_t *real(double v, double scale)
{
	return json_real(round(v * scale) / scale);
}

static json_t *opt_text(const char *s)
{
	return s ? jsontext_new(s) : json_null();
}

const char *records_name(const struct tp_proc *p)
{
	const struct tp_life *l = p->life;
	const char *slash;

	if (!l->exe)
		return l->comm[0] ? l->comm : "?";
	slash = strrchr(l->exe, '/');
	return slash && slash[1] ? slash + 1 : l->exe;
}

json_t *records_figures(const struct tp_proc *p, const struct tp_acct *a)
{
	const struct tp_life *l = p->life;
	json_t *o = json_object();
	int st = l->status;

	json_object_set_new(o, "executable", l->exe ? jsontext_new(l->exe) :
			    l->comm[0] ? jsontext_new(l->comm) : json_null());
	json_object_set_new(o, "command", opt_text(l->cmdline));
	json_object_set_new(o, "exit_status", l->status_known && WIFEXITED(st) ?
			    json_integer(WEXITSTATUS(st)) : json_null());
	json_object_set_new(o, "signal", l->status_known && WIFSIGNALED(st) ?
			    json_integer(WTERMSIG(st)) : json_null());
	json_object_set_new(o, res_info(TP_RES_CPU_TIME)->name, real((double)a->cpu_ns / 1e9, 1e6));
	json_object_set_new(o, "peak_rss", real((double)p->hwm_kb / 1024.0, 1e3));
	json_object_set_new(o, "bytes_read", json_integer((json_int_t)a->io.read_bytes));
	json_object_set_new(o, "bytes_written", json_integer((json_int_t)a->io.write_bytes));
	json_object_set_new(o, "rchar", json_integer((json_int_t)a->io.rchar));
	json_object_set_new(o, "wchar", json_integer((json_int_t)a->io.wchar));
	json_object_set_new(o, "threads", json_integer(l->threads_seen > l->threads_peak ?
						     l->threads_seen : l->threads_peak));
	return o;
}

void records_add(struct tp_records *r, const struct tp_proc *p, const struct tp_acct *a)
{
	json_t *o, *fig;
	char *line;
	size_t n;

	if (!r || !p->life)
		return;
	r->total++;
	o = json_object();
	json_object_set_new(o, "id", json_integer((json_int_t)p->life->serial));
	json_object_set_new(o, "parent", p->life->parent_serial ?
			    json_integer((json_int_t)p->life->parent_serial) : json_null());
	json_object_set_new(o, "pid", json_integer(p->pid));
	json_object_set_new(o, "ppid", json_integer(p->life->serial == 1 ? r->monitor : p->ppid));
	json_object_set_new(o, "start", real(p->life->born, 1e6));
	json_object_set_new(o, "end", real(p->life->died, 1e6));
	fig = records_figures(p, a);
	json_object_update(o, fig);
	json_decref(fig);
	line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(o);
	if (!line) {
		debug_msg("process record of %d not written", (int)p->pid);
		r->lost++;
		return;
	}
	n = strlen(line);
	if (r->len + n + 1 > r->cap) {
		r->cap = r->len + n + 1 > 2 * r->cap ? r->len + n + 1 : 2 * r->cap;
		r->buf = xreallocarray(r->buf, r->cap, 1);
	}
	memcpy(r->buf + r->len, line, n);
	r->buf[r->len + n] = '\n';
	r->len += n + 1;
	r->pending++;
	free(line);
	if (r->len >= RECORDS_BUFFER)
		records_flush(r);
}

void records_flush(struct tp_records *r)
{
	if (!r || !r->len)
		return;
	if (outfile_append(r->f, r->buf, r->len) < 0)	/* tells the first failure */
		r->lost += r->pending;
	r->len = 0;
	r->pending = 0;
}

void records_close(struct tp_records *r)
{
	if (!r)
		return;
	records_flush(r);
	if (r->lost)
		warn_msg("%s: %lu of %lu process records could not be written (%s)",
			 outfile_path(r->f), r->lost, r->total,
			 outfile_error(r->f) ? strerror(outfile_error(r->f)) : "out of memory");
	outfile_close(r->f);
	free(r->buf);
	free(r);
}
