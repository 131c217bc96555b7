/* SPDX-License-Identifier: MIT */
/* run.h: the parts of one run, which the loop (monitor.c) drives: the
 * tree and how it is followed, the figures, the limits and the kill, the
 * devices (disk, network, GPUs) and the outputs written during the run;
 * and tpmon's own process (its signals, descriptors and priority).  Set
 * up before the loop (run_open()), taken apart after it (run_close()). */
#ifndef TPMON_RUN_H
#define TPMON_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "cgroup/cgrun.h"
#include "measure/disk.h"
#include "enforce/enforce.h"
#include "output/fanout.h"
#include "measure/figures.h"
#include "measure/gpu.h"
#include "measure/opens.h"
#include "measure/drmfdinfo.h"
#include "cgroup/dmem.h"
#include "live/live.h"
#include "live/point.h"
#include "measure/net.h"
#include "measure/opens.h"
#include "config/options.h"
#include "track/ptree.h"
#include "measure/sampler.h"
#include "output/series.h"
#include "measure/snapevents.h"
#include "track/track.h"
#include "enforce/watchdog.h"

struct tp_sigprobe;

struct tp_run {
	const struct tp_options *o;
	struct tp_summary *rep;		/* fig.rep, the caller's */
	struct tp_figures fig;
	struct tp_ptree tree;
	struct tp_sampler smp;		/* its passes over the tree */
	struct tp_track *tk;		/* how the tree is followed */
	struct tp_watchdog wd;		/* the kill */
	struct tp_enforce enf;		/* the limits */
	struct tp_disk *disk;		/* NULL: no disk figures */
	struct tp_net *net;		/* NULL: network figures unknown */
	bool net_by_tree;		/* its probes summed over the tree's
					 * processes: exact if the table held
					 * every one (net_use_probes()) */
	struct tp_gpu *gpu;		/* NULL: no NVML */
	struct tp_drm *drm;		/* DRM fdinfo (drmfdinfo.h) */
	double gpu_peak_mb, gpu_peak_cores;	/* of both sources' sum */
	struct tp_dmem dmem;		/* the cgroup's device memory (dmem.h) */
	struct tp_series *series;	/* --with-time-series, or NULL */
	struct tp_opens *files;		/* --with-inotify, or NULL */
	struct tp_inputs *inputs;	/* the open calls stop, or NULL */
	struct tp_inprobe *inprobe;	/* the cgroup mode's input (root), or NULL */
	char inprobe_why[512];		/* why there is none, when asked for */
	struct tp_fanout *story;	/* process records, trace, or NULL */
	struct tp_snapevents *watch;	/* --snapshot-events, or NULL */
	struct tp_cgrun *cg;		/* the task's cgroups (borrowed), or NULL */
	struct tp_cgrun *home;		/* without them: tpmon's own, read only
					 * (cgrun_own() false), or NULL */
	struct tp_live *live;		/* live figures (src/live), or NULL */
	struct tp_endwatch *endw;	/* why the task ended (endcause.h) */
	struct tp_sigprobe *sigp;	/* a signal's sender, untraced (as root), or NULL */
	struct tp_sender monitor_sender;	/* of the signal that stopped tpmon */
	pid_t root, self;		/* the task's main process, tpmon */
	double t0;			/* CLOCK_MONOTONIC at the start */
	sigset_t sigset;		/* what the loop waits for */
	sigset_t sigset_paused;		/* the same less SIGCHLD, for a pause */
	sigset_t old_mask;		/* as tpmon got it (the task's) */
	bool signals_set;		/* sigset is blocked */
	struct sigaction old_sigpipe, old_sigchld;	/* as tpmon got them */
	struct rlimit old_nofile;	/* the task's open-files limit */
	bool raised_nice;		/* tpmon raised its priority: */
	int old_nice;			/* the task gets this nice value back */
};

/* Set up tpmon's own process and the parts, and start the task (or
 * attach to o->pid) in the run's cgroups @cg (NULL: none), its tracker
 * telling @sink of the tree (@sink->t0 is set here).  0, or an exit
 * status after a message.  Call run_close() in either case. */
int run_open(struct tp_run *r, const struct tp_options *o, struct tp_cgrun *cg,
	     struct tp_summary *rep, const struct tp_track_sink *sink);
/* Seconds since the start. */
double run_now(const struct tp_run *r);

/* The devices' figures at @t: disk, network, GPUs. */
void run_sample_devices(struct tp_run *r, double t);
/* The network and GPU figures of sample @s, for the trace. */
void run_sample_net_gpu(const struct tp_run *r, struct tp_sample *s);
/* The live figures of sample @s (runtime file, textfile, InfluxDB,
 * catalog), at most once a second (see live.h). */
void run_publish(struct tp_run *r, const struct tp_sample *s);
/* --snapshot-events: a snapshot at @t if an event came. */
void run_snapshots(struct tp_run *r, double t);

/* The report at @t; @final: the task is over (not a checkpoint). */
void run_fill_summary(struct tp_run *r, double t, bool final);
/* The tree is gone: what is left in its cgroup escaped the tracker (or
 * was never seen by it): counted as left over, killed, and the verdict
 * of the kernel's memory limit read.  Nothing without a cgroup. */
void run_end_cgroup(struct tp_run *r);
/* A partial summary at @t. */
void run_checkpoint(struct tp_run *r, double t);
/* After the loop: the last figures (disk, sockets, GPU accounting), the
 * final report with the task's exit (@root_done: its @root_status) and
 * the --measure-only check. */
void run_finish(struct tp_run *r, bool root_done, int root_status);
/* The outputs' last lines: the series, the records and trace, the files. */
void run_outputs_end(struct tp_run *r);
/* Free every part, restore tpmon's signal mask (less the termination
 * signals, which stay blocked until tpmon exits). */
void run_close(struct tp_run *r);

#endif
