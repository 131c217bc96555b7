/* SPDX-License-Identifier: MIT */
/* quality.c: the rules that say which figures of a run are lower bounds
 * (see quality.h and the man page's table of modes and figures). */
#include <stddef.h>
#include "measure/quality.h"

const char *quality_fig_name(enum tp_fig f)
{
	static const char *const names[TP_FIG__COUNT - TP_RES__COUNT] = {
		[TP_FIG_CORES_AVG - TP_RES__COUNT] = "cores_avg",
		[TP_FIG_MEMORY_PSS - TP_RES__COUNT] = "memory_pss",
		[TP_FIG_GPU_CORES - TP_RES__COUNT] = "gpu_cores",
		[TP_FIG_GPU_CORES_AVG - TP_RES__COUNT] = "gpu_cores_avg",
		[TP_FIG_GPU_TIME - TP_RES__COUNT] = "gpu_time",
		[TP_FIG_RCHAR - TP_RES__COUNT] = "rchar",
		[TP_FIG_WCHAR - TP_RES__COUNT] = "wchar",
		[TP_FIG_SYSCR - TP_RES__COUNT] = "syscr",
		[TP_FIG_SYSCW - TP_RES__COUNT] = "syscw",
		[TP_FIG_READ_BYTES - TP_RES__COUNT] = "read_bytes",
		[TP_FIG_WRITE_BYTES - TP_RES__COUNT] = "write_bytes",
		[TP_FIG_MAX_CONCURRENT_THREADS - TP_RES__COUNT] = "max_concurrent_threads",
	};

	if ((int)f < TP_RES__COUNT)
		return res_info((enum tp_res)f)->name;
	return names[f - TP_RES__COUNT];
}

static void set(bool *lower, const int *figs, size_t n, bool v)
{
	size_t i;

	for (i = 0; i < n; i++)
		lower[figs[i]] = v;
}

#define SET(lower, figs, v) set(lower, figs, sizeof(figs) / sizeof(figs[0]), v)

void quality_lower_bounds(const struct tp_quality_in *in, bool lower[TP_FIG__COUNT])
{
	static const int counts[] = { TP_RES_TOTAL_PROCESSES,
		TP_RES_MAX_CONCURRENT_PROCESSES };
	static const int cpu[] = { TP_RES_CPU_TIME, TP_FIG_CORES_AVG };
	static const int reads[] = { TP_RES_BYTES_READ, TP_FIG_READ_BYTES };
	static const int writes[] = { TP_RES_BYTES_WRITTEN, TP_FIG_WRITE_BYTES };
	static const int chars_io[] = { TP_FIG_RCHAR, TP_FIG_WCHAR };
	static const int calls_io[] = { TP_FIG_SYSCR, TP_FIG_SYSCW };
	static const int sampled[] = { TP_RES_MEMORY, TP_RES_VIRTUAL_MEMORY,
		TP_RES_SWAP_MEMORY, TP_FIG_MEMORY_PSS, TP_RES_CORES,
		TP_FIG_MAX_CONCURRENT_THREADS };
	static const int net[] = { TP_RES_BYTES_SENT, TP_RES_BYTES_RECEIVED,
		TP_RES_BANDWIDTH };
	static const int gpu[] = { TP_RES_GPUS, TP_RES_GPU_MEMORY, TP_FIG_GPU_CORES,
		TP_FIG_GPU_CORES_AVG, TP_FIG_GPU_TIME };
	static const int disk[] = { TP_RES_DISK, TP_RES_TOTAL_FILES };
	/* every process and thread is seen at its birth and at its end,
	 * with its final figures (CPU time, I/O, peak RSS, threads) */
	bool ends_seen = in->tracked == TP_TRACKED_PTRACE || in->tracked == TP_TRACKED_ATTACH;
	/* poll as root: each task's exit record gives its CPU time and its
	 * I/O (but its syscall counts rounded down to 1024: not those) */
	bool records = in->tracked == TP_TRACKED_POLL && in->exit_records;
	/* every process is in the table while it lives (the proc
	 * connector's events, as root), though its end's figures are not */
	bool births_seen = (ends_seen || records || in->tracked == TP_TRACKED_CGROUP) &&
			   !in->counts_partial;
	int f;

	for (f = 0; f < TP_FIG__COUNT; f++)
		lower[f] = false;
	/* a process that lived between two samples is in no count */
	SET(lower, counts, !births_seen && !in->outer_whole);
	/* its CPU time reaches the figures through cpu.stat, an enclosing
	 * tpmon, or (poll) the rusage of what tpmon reaps: not all of it */
	SET(lower, cpu, !ends_seen && !records && !in->cgroup_cpu && !in->outer_whole);
	/* its I/O: through an enclosing tpmon; its reads through io.stat
	 * too, which counts them as /proc/PID/io does, as they are issued.
	 * Not its writes: io.stat counts them at writeback (after the task,
	 * or never for data truncated first), /proc/PID/io as they dirty
	 * the page cache */
	SET(lower, reads, !ends_seen && !records && !in->cgroup_io && !in->outer_whole);
	SET(lower, writes, !ends_seen && !records && !in->outer_whole);
	SET(lower, chars_io, !ends_seen && !records && !in->outer_whole);
	SET(lower, calls_io, !ends_seen && !in->outer_whole);
	/* peaks of sums over the live processes: only samples see them, and
	 * a process's own peak (RSS, threads) comes only with its end */
	SET(lower, sampled, !ends_seen);
	/* a socket opened and closed between two samples */
	SET(lower, net, !in->net_exact);
	/* a GPU process is attributed only while the table holds it */
	SET(lower, gpu, !births_seen);
	SET(lower, disk, in->disk_partial);
}
