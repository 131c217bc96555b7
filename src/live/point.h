/* SPDX-License-Identifier: MIT */
/* point.h: what the live formats are made of, under live.c and the
 * formats alike: one plain point of the task's figures (run.c fills it,
 * live.c hands it on, publish.c, prom.c and influx.c write it) and the
 * base-unit names of the resources (point.c). */
#ifndef TPMON_LIVE_POINT_H
#define TPMON_LIVE_POINT_H

#include <stdbool.h>
#include <stdint.h>
#include "basic/figtable.h"

/* What the task uses now, in base units (bytes, seconds), and its peaks. */
struct tp_live_point {
	double t;			/* s since the start */
	double memory_bytes;		/* summed RSS now */
	double memory_peak_bytes;
	double vm_bytes;		/* summed VmSize now */
	double cpu_seconds;		/* whole tree so far */
	double cores;			/* now, over the limits' window */
	bool cores_known;
	uint64_t read_bytes, written_bytes;	/* from storage, so far */
	bool net_known;
	uint64_t received_bytes, sent_bytes;	/* TCP, so far */
	unsigned processes;		/* alive now */
	unsigned long processes_started;	/* ever */
	bool processes_partial;		/* the counts are lower bounds */
	bool gpu_known;
	double gpu_memory_bytes, gpu_cores;
	bool disk_known;
	double disk_bytes;
	const char *state;		/* "running", "stopping", "ended" */
	/* the figures the formats write from the table (live_by_table()),
	 * in summary units: a value where fig_known */
	double fig[TP_FIG__COUNT];
	bool fig_known[TP_FIG__COUNT];
};

/* Do the live formats write figure @f from the table, by its row's live
 * name, agg and factor (p->fig[@f])?  The cgroup's figures (pressure)
 * are; the older ones have fields of their own above. */
bool live_by_table(enum tp_fig f);

/* The base-unit name of resource @r's figure (memory -> "memory_bytes")
 * and the factor from its summary unit; NULL for one with none. */
const char *live_base_name(int r, double *factor);

#endif
