/* SPDX-License-Identifier: MIT */
/* gpu.h: the tree's use of NVIDIA GPUs, through NVML loaded at run time
 * (libnvidia-ml.so.1 is never linked: without it, every GPU figure is
 * unknown). */
#ifndef TPMON_GPU_H
#define TPMON_GPU_H

#include <stdbool.h>
#include <sys/types.h>
#include "track/ptree.h"

struct tp_gpu;

/* Figures so far. */
struct tp_gpu_figures {
	unsigned devices_used;		/* distinct GPUs the tree used */
	double memory_mb;		/* now: GPU memory of the tree's live processes */
	double peak_memory_mb;		/* peak of memory_mb, at least any one process's peak */
	double cores;			/* now: SM utilization summed over the tree, in GPUs */
	double peak_cores;
	double gpu_seconds;		/* integral of cores over time, plus finished processes */
	bool util_known;		/* the devices report per-process utilization */
};

/* Load NVML from @library (NULL: libnvidia-ml.so.1 on the loader path) and
 * initialize it.  NULL when it cannot be loaded, initialized or there is
 * no device (said with debug_msg: a machine without GPUs is normal).
 * @start: the task's start, s since the epoch (to tell a reused pid in
 * the accounting records). */
struct tp_gpu *gpu_open(const char *library, double start);
/* Shuts NVML down and unloads it. */
void gpu_free(struct tp_gpu *g);

/* Process @pid belongs to the tree (for the accounting records of
 * processes that ended before a sample saw them). */
void gpu_note_pid(struct tp_gpu *g, pid_t pid);

/* One look at every device at time @now (s since the start): the tree's
 * live processes' memory and utilization, and the accounting records of
 * those that ended.  After an NVML error, prints one message and looks no
 * more: the figures so far are kept. */
void gpu_sample(struct tp_gpu *g, const struct tp_ptree *t, double now);

/* The figures so far; false when @g is NULL (no NVML). */
bool gpu_figures(const struct tp_gpu *g, struct tp_gpu_figures *f);

#endif
