/* SPDX-License-Identifier: MIT */
/* summary.h: the report of a run and the files written from it
 * (TEMPLATE.summary, atomically).  The only user of jansson for output. */
#ifndef TPMON_SUMMARY_H
#define TPMON_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "cgroup.h"
#include "options.h"
#include "resources.h"
#include "ptree.h"
#include "utilization.h"

enum tp_exit_type { TP_EXIT_NORMAL, TP_EXIT_SIGNAL, TP_EXIT_LIMITS };

/* A snapshot taken on a --snapshot-events event: the peaks (and totals so
 * far) of the time since the previous snapshot, or since the start. */
struct tp_snapshot {
	char *name;			/* "label(count),...", owned */
	double start, end;		/* s since the epoch */
	double value[TP_RES__COUNT];	/* wall_time: end - start */
	bool known[TP_RES__COUNT];
};

struct tp_report {
	double start, end;		/* s since the epoch */
	double value[TP_RES__COUNT];	/* peaks and totals, summary units */
	bool known[TP_RES__COUNT];
	double peak_time[TP_RES__COUNT];	/* s from start; <0 unknown */
	double cores_avg;
	bool gpu_known;			/* NVML answered: the GPU fields below */
	bool gpu_util_known;		/* ... and per-process utilization */
	double gpu_cores, gpu_cores_avg;	/* GPUs: peak and mean SM utilization */
	double gpu_cores_now;		/* at the last sample, for the series */
	double gpu_time;		/* GPU-seconds */
	double memory_pss;		/* MB, peak sum of PSS */
	bool pss_known;			/* false until a sample read PSS */
	double machine_load;
	bool load_known;			/* false until /proc/loadavg was read */
	long machine_cpus;
	struct tp_acct acct;		/* totals: ctx switches, io counters */
	enum tp_exit_type exit_type;
	int exit_status;		/* task's status when it exited */
	bool exit_unknown;		/* --pid: tpmon left before it ended */
	int signal;			/* fatal signal of the task, or 0 */
	int monitor_signal;		/* signal that stopped tpmon, or 0 */
	struct tp_limits exceeded;	/* limits that were broken */
	pid_t violator_pid;
	char violator_cmd[256];
	unsigned leftover;		/* processes alive when the main one ended */
	bool tracking_ptrace;
	bool tracking_cgroup;		/* --tracking=cgroup */
	char *cgroup;			/* the task's cgroup, owned, or NULL */
	struct tp_cg_figures cgf;	/* what the kernel said of it */
	bool ctxsw_known;		/* acct.ctxsw is exact without it (from an
					 * enclosing tpmon: see nested.h) */
	bool disk_partial;		/* disk walk could not read everything */
	bool partial;			/* a checkpoint during the run */
	struct tp_utilization_figures usage;	/* utilization, cpu-hours, memory growth */
	double stopped_at;		/* s from start when tpmon began to stop
					 * the tree (limit, signal); <0 never */
	struct tp_snapshot *snapshots;	/* owned; free with summary_report_free() */
	size_t nsnapshots;
};

/* Is @key a field that tpmon writes itself (so -V may not set it)? */
bool summary_field_reserved(const char *key);

/* Before the task starts: check that TEMPLATE.summary can be made (it is
 * not a directory) and set space aside for the final summary, so that a
 * task filling the disk does not lose it.  Returns 0, or -1 after printing
 * why.  outfile_check_template() has checked the template itself. */
int summary_prepare(const struct tp_options *o);
/* Give back the space summary_prepare() set aside, if still unused. */
void summary_release(void);

/* Write @r as TEMPLATE.summary through outfile_write() (the final one,
 * not partial, may use the reserved space).  0, or -1 after printing why;
 * a failing checkpoint is told once. */
int summary_write(const struct tp_options *o, const struct tp_report *r);

/* Write snapshot number @n (from 0) as TEMPLATE.snapshot.NN, as
 * resource_monitor does.  0, or -1 after printing why. */
int summary_write_snapshot(const struct tp_options *o, const struct tp_snapshot *s, size_t n);

/* Free what @r owns (its snapshots). */
void summary_report_free(struct tp_report *r);

#endif
