/* SPDX-License-Identifier: MIT */
/* trace.h: TEMPLATE.trace.json (--with-trace), the run in Chrome's trace
 * event format for Perfetto and chrome://tracing: a complete event per
 * process, counter events per sample, metadata naming and ordering the
 * process tracks.  Written as the run goes. */
#ifndef TPMON_TRACE_H
#define TPMON_TRACE_H

#include <stdbool.h>
#include <sys/types.h>
#include "track/ptree.h"

/* The tree's counters, one value each per sample.  To add one: a value
 * here, a row in trace.c's table, and the figure in story.c. */
enum tp_trace_counter {
	TP_TC_RSS,		/* MB, sum over live processes */
	TP_TC_PSS,		/* MB, sum of each process's latest PSS */
	TP_TC_CORES,		/* cores in use since the previous sample */
	TP_TC_PROCS,		/* processes alive */
	TP_TC_READ,		/* MB/s read from storage since the previous sample */
	TP_TC_WRITE,		/* MB/s written */
	TP_TC_NET_SENT,		/* Mbit/s sent over TCP since the previous sample */
	TP_TC_NET_RECV,		/* Mbit/s received */
	TP_TC_GPU_MEMORY,	/* MB of GPU memory of the live processes */
	TP_TC_GPU_CORES,	/* GPUs' worth of SMs in use */
	TP_TC__COUNT
};

struct tp_trace_point {
	double t;			/* s from the task's start */
	double v[TP_TC__COUNT];
	bool known[TP_TC__COUNT];
};

struct tp_trace;

/* Create TEMPLATE.trace.json; NULL (with a message) on failure.  The
 * counters go on a track of their own with tpmon's pid @monitor. */
struct tp_trace *trace_open(const char *template, pid_t monitor);
/* The span and metadata of process @p, which has just ended. */
void trace_process(struct tp_trace *tr, const struct tp_proc *p, const struct tp_acct *a);
/* The counter events of one sample. */
void trace_counters(struct tp_trace *tr, const struct tp_trace_point *pt);
/* Push what is buffered to the file, which then ends with "]": it is
 * valid JSON between two flushes, even if tpmon is killed. */
void trace_flush(struct tp_trace *tr);
void trace_close(struct tp_trace *tr);

#endif
