/* SPDX-License-Identifier: MIT */
/* fanout.c: names each process (executable and command line, read at its
 * exec) and passes each ended process and each sample on to the process
 * records and the trace. */
#include <stdlib.h>
#include <string.h>
#include "basic/messages.h"
#include "kernel/proc.h"
#include "output/records.h"
#include "output/fanout.h"
#include "output/trace.h"
#include "basic/xmalloc.h"

/* Longest command line kept per process, bytes: it is held while the
 * process lives. */
#define CMDLINE_MAX 1024

struct tp_fanout {
	struct tp_records *records;
	struct tp_trace *trace;
	double t, cpu_s;		/* the previous sample, for rates */
	uint64_t read_b, write_b;
	uint64_t sent_b, recv_b;
};

bool fanout_wanted(const struct tp_options *o)
{
	return o->process_records || o->trace;
}

static void on_end(void *arg, const struct tp_proc *p, const struct tp_acct *a)
{
	struct tp_fanout *st = arg;

	records_add(st->records, p, a);
	trace_process(st->trace, p, a);
}

struct tp_fanout *fanout_open(const struct tp_options *o, struct tp_ptree *t, pid_t monitor)
{
	struct tp_fanout *st;

	if (!fanout_wanted(o))
		return NULL;
	st = xcalloc(1, sizeof(*st));
	if (o->process_records)
		st->records = records_open(o->template, monitor);
	if (o->trace)
		st->trace = trace_open(o->template, monitor);
	if (!st->records && !st->trace) {
		free(st);
		return NULL;
	}
	t->on_end = on_end;
	t->on_end_arg = st;
	return st;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void fanout_born(const struct tp_fanout *st, const struct tp_ptree *t, struct tp_proc *p)
{
	const struct tp_proc *parent = p->ppid > 0 ? ptree_proc(t, p->ppid) : NULL;

	if (!st || !parent || !parent->life || !p->life || p->life->named)
		return;
	p->life->exe = dup_or_null(parent->life->exe);
	p->life->cmdline = dup_or_null(parent->life->cmdline);
}

/* Read @p's executable and command line; keep the old ones when the
 * process is gone already. */
static void name_proc(struct tp_proc *p)
{
	struct tp_life *l = p->life;
	char exe[4096], *cmd;

	if (!l)
		return;
	cmd = xmalloc(CMDLINE_MAX + 4);
	l->named = true;
	if (proc_read_exe(p->pid, exe, sizeof(exe)) == 0) {
		free(l->exe);
		l->exe = xstrdup(exe);
	}
	if (proc_read_cmdline(p->pid, cmd, CMDLINE_MAX + 1) == 0) {
		if (strlen(cmd) == CMDLINE_MAX)
			strcpy(cmd + CMDLINE_MAX - 3, "...");	/* cut */
		free(l->cmdline);
		l->cmdline = cmd;
	} else {
		free(cmd);
	}
}

void fanout_exec(const struct tp_fanout *st, struct tp_proc *p)
{
	if (st)
		name_proc(p);
}

/* MB/s from two cumulative byte counts. */
static double byte_rate(uint64_t now, uint64_t before, double dt)
{
	return dt > 0 && now > before ? (double)(now - before) / 1048576.0 / dt : 0;
}

void fanout_sample(struct tp_fanout *st, struct tp_ptree *t, const struct tp_sample *s)
{
	struct tp_trace_point pt;
	double dt;
	struct tp_proc *p;

	if (!st)
		return;
	/* without exec events (poll mode) a process is named when seen */
	for (p = t->live; p; p = p->next)
		if (p->life && !p->life->named)
			name_proc(p);
	memset(&pt, 0, sizeof(pt));
	pt.t = s->t;
	dt = s->t - st->t;
	pt.v[TP_TC_RSS] = s->rss_mb;
	pt.v[TP_TC_PSS] = s->pss_mb;
	pt.v[TP_TC_CORES] = dt > 0 && s->cpu_s > st->cpu_s ? (s->cpu_s - st->cpu_s) / dt : 0;
	pt.v[TP_TC_PROCS] = s->nprocs;
	pt.v[TP_TC_READ] = byte_rate(s->acct.io.read_bytes, st->read_b, dt);
	pt.v[TP_TC_WRITE] = byte_rate(s->acct.io.write_bytes, st->write_b, dt);
	pt.v[TP_TC_NET_SENT] = byte_rate(s->net_sent, st->sent_b, dt) * 8.388608;
	pt.v[TP_TC_NET_RECV] = byte_rate(s->net_recv, st->recv_b, dt) * 8.388608;
	pt.v[TP_TC_GPU_MEMORY] = s->gpu_memory_mb;
	pt.v[TP_TC_GPU_CORES] = s->gpu_cores;
	for (int i = 0; i < TP_TC__COUNT; i++)
		pt.known[i] = true;
	pt.known[TP_TC_PSS] = s->nprocs > 0;
	/* network and GPU tracks only where they are measured */
	pt.known[TP_TC_NET_SENT] = pt.known[TP_TC_NET_RECV] = s->net_known;
	pt.known[TP_TC_GPU_MEMORY] = pt.known[TP_TC_GPU_CORES] = s->gpu_known;
	st->t = s->t;
	st->cpu_s = s->cpu_s;
	st->read_b = s->acct.io.read_bytes;
	st->write_b = s->acct.io.write_bytes;
	st->sent_b = s->net_sent;
	st->recv_b = s->net_recv;
	trace_counters(st->trace, &pt);
	records_flush(st->records);
	trace_flush(st->trace);
}

void fanout_close(struct tp_fanout *st, struct tp_ptree *t)
{
	if (!st)
		return;
	ptree_end_all(t);
	t->on_end = NULL;
	records_close(st->records);
	trace_close(st->trace);
	free(st);
}
