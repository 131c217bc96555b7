/* SPDX-License-Identifier: MIT */
/* figures.h: the run's figures, data of their own.  The loop feeds them
 * (samples, ends of processes, the devices' totals); the summary, the
 * series, the brief, the process records and the trace read them.  Here:
 * the report (peaks, totals, exit), the current value of each resource
 * (what the limits are judged on), the snapshots of --snapshot-events,
 * the rate windows of cores and bandwidth, and the inputs of the
 * utilization figures.  No I/O: every input is handed in. */
#ifndef TPMON_FIGURES_H
#define TPMON_FIGURES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "cgroup/cgroup.h"
#include "measure/endcause.h"
#include "measure/gpu.h"
#include "measure/opens.h"
#include "measure/drmfdinfo.h"
#include "cgroup/dmem.h"
#include "cgroup/pressure.h"
#include "config/limitset.h"
#include "track/nested.h"
#include "track/ptree.h"
#include "measure/quality.h"
#include "measure/ratewin.h"
#include "basic/figtable.h"
#include "measure/sampler.h"
#include "measure/utilization.h"

/* How the task ended: the summary's exit_type (not tpmon's exit status:
 * TP_STATUS_* in basic/messages.h). */
enum tp_exit_type { TP_EXIT_TYPE_NORMAL, TP_EXIT_TYPE_SIGNAL, TP_EXIT_TYPE_LIMITS };

/* A snapshot taken on a --snapshot-events event: the peaks (and totals so
 * far) of the time since the previous snapshot, or since the start. */
struct tp_snapshot {
	char *name;			/* "label(count),...", owned */
	double start, end;		/* s since the epoch */
	double value[TP_RES__COUNT];	/* wall_time: end - start */
	bool known[TP_RES__COUNT];
};

/* The summary of a run, as figures.c fills it and output/summary.c
 * writes it (TEMPLATE.summary); not `tpmon report`, which reads them. */
struct tp_summary {
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
	/* where the GPU figures came from: NVML, and the devices DRM
	 * fdinfo saw; processes whose descriptors could not be read */
	bool gpu_nvml;
	struct tp_drm_device_fig gpu_dev[TP_DRM_DEVICES];
	unsigned ngpu_dev;
	unsigned gpu_unreadable;
	bool dmem_known;		/* the cgroup's dmem.current was read */
	double dmem_peak_mb;
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
	enum tp_tracking tracking;	/* how the tree was followed */
	const char *tracking_name;	/* the backend's name (static), or NULL */
	const char *tracking_reason;	/* why that mode, in words (borrowed), or NULL */
	bool processes_partial;		/* with it: the process counts are lower
					 * bounds (no proc connector, events lost) */
	bool lower[TP_FIG__COUNT];	/* the figures that are lower bounds
					 * (quality.h), null ones aside */
	double max_threads;		/* peak of the tree's live threads */
	bool threads_known;
	char *cgroup;			/* the task's cgroup, owned, or NULL */
	struct tp_cg_figures cgf;	/* what the kernel said of it */
	bool cgroup_home;		/* it is tpmon's own, read only (cghome.h):
					 * its memory peak holds tpmon's too */
	bool cgroup_shared;		/* that one held another tree: no figure */
	bool ctxsw_known;		/* acct.ctxsw is exact without it (from an
					 * enclosing tpmon: see nested.h) */
	bool disk_partial;		/* disk walk could not read everything */
	struct tp_input_figures input;	/* input_size, input_files (opens.h) */
	bool partial;			/* a checkpoint during the run */
	struct tp_utilization_figures usage;	/* utilization, cpu-hours, memory growth */
	double stopped_at;		/* s from start when tpmon began to stop
					 * the tree (limit, signal); <0 never */
	struct tp_end ending;		/* why it ended (endcause.h) */
	struct tp_cg_pressure pressure;	/* the run's cgroup's, for the notes */
	struct tp_snapshot *snapshots;	/* owned; free with figures_summary_free() */
	size_t nsnapshots;
};

/* The figures of one run.  @rep is the caller's; the rest is ours. */
struct tp_figures {
	struct tp_summary *rep;
	double cur[TP_RES__COUNT];	/* current figures, for the limits and
					 * the series */
	bool cur_known[TP_RES__COUNT];
	bool cctools_cores;		/* cur cores as resource_monitor judges it */
	struct tp_ratewin cpuwin;	/* (time, CPU s) */
	struct tp_ratewin cpuwin_slow;	/* points >= 1 s apart (cctools rule) */
	struct tp_ratewin netwin;	/* (time, Mbit sent + received) */
	struct tp_utilization usage;	/* utilization and memory growth */
	double pss_unstable;		/* largest PSS sum read while it changed */
	double reaped_cpu;		/* CPU time wait() reported (poll mode) */
	unsigned threads_sampled;	/* peak of the samples' thread counts */
	double snap_start;		/* s from start: the current snapshot's */
	double snap_value[TP_RES__COUNT];	/* peaks since snap_start */
	bool snap_known[TP_RES__COUNT];
};

/* Start the figures of a run into @rep (cleared): utilization relative
 * to @ref_cores; @cctools_cores: the cores limit is judged as
 * resource_monitor does. */
void figures_init(struct tp_figures *f, struct tp_summary *rep, double ref_cores,
		  bool cctools_cores);
/* Frees what the figures own (not @rep's snapshots: figures_summary_free()). */
void figures_free(struct tp_figures *f);

/* A new value @v of @r at @t (s from the start): the current figure, the
 * peak (and its time), and the current snapshot's peak. */
void figures_peak(struct tp_figures *f, enum tp_res r, double v, double t);

/* A process was born: @nlive live now, @total ever. */
void figures_born(struct tp_figures *f, unsigned nlive, unsigned long total);

/* A process's peak RSS, known at its end, bounds the tree's peak even
 * when no sample caught it (a 0.2 s spike between samples). */
void figures_note_hwm(struct tp_figures *f, uint64_t hwm_kb, double t);

/* A complete sample @s, of a tree whose peak of live processes is
 * @max_live and whose total is @total; @fit_memory: the task is running
 * (the memory fit is of the task, not of its teardown).  @load: the
 * machine's load, when @load_known. */
void figures_sample(struct tp_figures *f, const struct tp_sample *s, unsigned max_live,
		    unsigned long total, bool fit_memory, bool load_known, double load);
/* The devices' figures at @t: network totals (bytes), GPUs, disk. */
void figures_net(struct tp_figures *f, uint64_t sent, uint64_t recv, double t);
void figures_gpu(struct tp_figures *f, const struct tp_gpu_figures *g, double t);
void figures_disk(struct tp_figures *f, double mb, long files, bool partial, double t);

/* What the report is made of, at its time. */
struct tp_fill {
	struct tp_acct acct;		/* the tree's totals, dead and alive */
	unsigned long total_processes;
	unsigned max_live;
	unsigned nlive;			/* live processes, and the largest */
	uint64_t live_hwm_kb;		/* peak RSS known of one of them */
	const struct tp_nest_totals *outer;	/* an enclosing tpmon's totals, or NULL */
	double outer_answered;		/* when they came, s from the start */
	bool net_known;
	uint64_t net_sent, net_recv;	/* bytes */
	const struct tp_gpu_figures *gpu;	/* NULL: unknown */
	bool gpu_nvml;			/* NVML answered (part of *gpu) */
	const struct tp_drm *drm;	/* DRM fdinfo's devices, or NULL */
	const struct tp_dmem *dmem;	/* the cgroup's dmem.current, or NULL */
	bool load_known;
	double load;
	long machine_cpus;
	enum tp_tracking tracking;	/* ATTACH for --pid */
	const char *tracking_name;	/* the backend's (tp_track_ops.name) */
	const char *tracking_reason;	/* borrowed, or NULL */
	bool processes_partial;		/* the tracker's counts are lower bounds */
	bool net_exact;			/* net_bytes_exact(): no socket missed */
	bool exit_records;		/* the tracker's exit_records (track.h) */
	unsigned max_threads;		/* the table's peak of live threads */
	const struct tp_cg_figures *cgroup;	/* the task's cgroup's, or NULL */
	bool cgroup_io;			/* its io.stat bytes count (--tracking=cgroup) */
	bool cgroup_left;		/* a process of the tree left the cgroup */
};

/* Fill the report at @t (s from the start) from @in: totals, the peaks
 * that only the end knows, averages, utilization.  @final: the task is
 * over (an enclosing tpmon's totals then replace ours). */
void figures_fill(struct tp_figures *f, const struct tp_fill *in, double t, bool final);

/* The task's end: @root_status when @known (else --pid left it running). */
void figures_exit(struct tp_figures *f, bool known, int root_status);

/* Close the current snapshot at @t under @label (taken over), as
 * resource_monitor does: its peaks since the previous one, totals so far,
 * wall_time the time it covers.  Returns it (in rep->snapshots). */
const struct tp_snapshot *figures_snapshot(struct tp_figures *f, double t, char *label);

/* Figure @k as it stands now (for a line of the time series, where the
 * sample does not hold it: sample_figure()), in its summary unit, into
 * *@v.  Returns whether it is known. */
bool figures_now(const struct tp_figures *f, int k, double *v);

/* The value of figure @f in @r, in its summary unit (basic/figtable.h),
 * into *@v.  Returns whether it is known (false: the summary's null). */
bool figures_value(const struct tp_summary *r, enum tp_fig f, double *v);

/* Free what @r owns (its snapshots). */
void figures_summary_free(struct tp_summary *r);

#endif
