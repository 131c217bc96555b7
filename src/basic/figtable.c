/* SPDX-License-Identifier: MIT */
/* figtable.c: the table of figures (figtable.h), the one place where a
 * figure's names are spelled. */
#include <stddef.h>
#include <string.h>
#include "basic/figtable.h"

#define MB 1048576.0
#define S TP_UNIT_TIME
#define SZ TP_UNIT_SIZE
#define C TP_UNIT_CORES
#define N TP_UNIT_COUNT
#define PK TP_AGG_PEAK
#define TOT TP_AGG_TOTAL
#define AVG TP_AGG_AVERAGE
#define NOW TP_AGG_NOW
#define RES TP_FIGP_RES
#define USE TP_FIGP_USE
#define MACH TP_FIGP_MACHINE
#define IO TP_FIGP_IO
#define KERN TP_FIGP_KERNEL

/* name, unit, kind, zero_ok, decimals, agg, place, cctools, series column,
 * live name, live factor, CSV column, quality rule */
static const struct tp_fig_info table[TP_FIG__COUNT] = {
	[TP_RES_WALL_TIME] = { "wall_time", "s", S, false, 6, TOT, RES, true,
		NULL, "wall_seconds", 1, "wall_time_s", TP_Q_EXACT },
	[TP_RES_CPU_TIME] = { "cpu_time", "s", S, false, 6, TOT, RES, true,
		"cpu_time", "cpu_seconds", 1, "cpu_time_s", TP_Q_CPU },
	[TP_RES_MEMORY] = { "memory", "MB", SZ, false, 3, PK, RES, true,
		"memory", "memory_bytes", MB, "memory_MB", TP_Q_SAMPLED },
	[TP_RES_VIRTUAL_MEMORY] = { "virtual_memory", "MB", SZ, false, 3, PK, RES, true,
		"virtual_memory", "virtual_memory_bytes", MB, NULL, TP_Q_SAMPLED },
	[TP_RES_SWAP_MEMORY] = { "swap_memory", "MB", SZ, true, 3, PK, RES, true,
		"swap_memory", "swap_memory_bytes", MB, NULL, TP_Q_SAMPLED },
	[TP_RES_DISK] = { "disk", "MB", SZ, false, 3, PK, RES, true,
		"disk", "disk_bytes", MB, "disk_MB", TP_Q_DISK },
	[TP_RES_TOTAL_FILES] = { "total_files", "files", N, false, 0, PK, RES, true,
		"total_files", "files", 1, NULL, TP_Q_DISK },
	[TP_RES_BYTES_READ] = { "bytes_read", "MB", SZ, true, 3, TOT, RES, true,
		"bytes_read", "read_bytes", MB, "bytes_read_MB", TP_Q_READS },
	[TP_RES_BYTES_WRITTEN] = { "bytes_written", "MB", SZ, true, 3, TOT, RES, true,
		"bytes_written", "written_bytes", MB, "bytes_written_MB", TP_Q_WRITES },
	[TP_RES_BYTES_RECEIVED] = { "bytes_received", "MB", SZ, true, 3, TOT, RES, true,
		"bytes_received", "received_bytes", MB, "bytes_received_MB", TP_Q_NET },
	[TP_RES_BYTES_SENT] = { "bytes_sent", "MB", SZ, true, 3, TOT, RES, true,
		"bytes_sent", "sent_bytes", MB, "bytes_sent_MB", TP_Q_NET },
	[TP_RES_BANDWIDTH] = { "bandwidth", "Mbps", C, false, 3, PK, RES, true,
		"bandwidth", "bandwidth_bits_per_second", 1e6, NULL, TP_Q_NET },
	[TP_RES_GPUS] = { "gpus", "gpus", N, true, 0, PK, RES, true,
		"gpus", "gpus", 1, "gpus", TP_Q_GPU },
	[TP_RES_GPU_MEMORY] = { "gpu_memory", "MB", SZ, true, 3, PK, RES, false,
		"gpu_memory", "gpu_memory_bytes", MB, "gpu_memory_MB", TP_Q_GPU },
	[TP_RES_CORES] = { "cores", "cores", C, false, 3, PK, RES, true,
		"cores", "cores", 1, "cores", TP_Q_SAMPLED },
	[TP_RES_MAX_CONCURRENT_PROCESSES] = { "max_concurrent_processes", "procs", N, false,
		0, PK, RES, true, "max_concurrent_processes", "processes", 1, NULL,
		TP_Q_COUNTS },
	[TP_RES_TOTAL_PROCESSES] = { "total_processes", "procs", N, false, 0, TOT, RES, true,
		NULL, "processes_started", 1, NULL, TP_Q_COUNTS },
	[TP_FIG_MAX_CONCURRENT_THREADS] = { "max_concurrent_threads", "threads", N, false, 0,
		PK, RES, false, NULL, NULL, 1, NULL, TP_Q_SAMPLED },
	[TP_FIG_CORES_AVG] = { "cores_avg", "cores", C, false, 3, AVG, USE, true,
		NULL, NULL, 1, NULL, TP_Q_CPU },
	[TP_FIG_MEMORY_PSS] = { "memory_pss", "MB", SZ, false, 3, PK, USE, false,
		"memory_pss", NULL, MB, "memory_pss_MB", TP_Q_SAMPLED },
	[TP_FIG_GPU_CORES] = { "gpu_cores", "gpus", C, false, 3, PK, USE, false,
		"gpu_cores", "gpu_cores", 1, NULL, TP_Q_GPU },
	[TP_FIG_GPU_CORES_AVG] = { "gpu_cores_avg", "gpus", C, false, 3, AVG, USE, false,
		NULL, NULL, 1, NULL, TP_Q_GPU },
	[TP_FIG_GPU_TIME] = { "gpu_time", "s", S, false, 3, TOT, USE, false,
		NULL, NULL, 1, "gpu_time_s", TP_Q_GPU },
	[TP_FIG_CONTEXT_SWITCHES] = { "context_switches", "switches", N, false, 0, TOT, MACH,
		true, NULL, NULL, 1, NULL, TP_Q_EXACT },
	[TP_FIG_MACHINE_CPUS] = { "machine_cpus", "cores", N, false, 0, NOW, MACH, true,
		NULL, NULL, 1, NULL, TP_Q_EXACT },
	[TP_FIG_MACHINE_LOAD] = { "machine_load", "procs", C, false, 2, NOW, MACH, true,
		"machine_load", NULL, 1, NULL, TP_Q_EXACT },
	[TP_FIG_LEFTOVER_PROCESSES] = { "leftover_processes", "procs", N, false, 0, NOW,
		MACH, false, NULL, NULL, 1, NULL, TP_Q_EXACT },
	[TP_FIG_RCHAR] = { "rchar", "B", N, false, 0, TOT, IO, false,
		NULL, NULL, 1, NULL, TP_Q_CHARS_IO },
	[TP_FIG_WCHAR] = { "wchar", "B", N, false, 0, TOT, IO, false,
		NULL, NULL, 1, NULL, TP_Q_CHARS_IO },
	[TP_FIG_SYSCR] = { "syscr", "calls", N, false, 0, TOT, IO, false,
		NULL, NULL, 1, NULL, TP_Q_CALLS_IO },
	[TP_FIG_SYSCW] = { "syscw", "calls", N, false, 0, TOT, IO, false,
		NULL, NULL, 1, NULL, TP_Q_CALLS_IO },
	[TP_FIG_READ_BYTES] = { "read_bytes", "B", N, false, 0, TOT, IO, false,
		NULL, NULL, 1, NULL, TP_Q_READS },
	[TP_FIG_WRITE_BYTES] = { "write_bytes", "B", N, false, 0, TOT, IO, false,
		NULL, NULL, 1, NULL, TP_Q_WRITES },
	/* the task's input: the files it opened for reading, at their
	 * size then, each once (measure/opens.h) */
	[TP_FIG_INPUT_SIZE] = { "input_size", "MB", SZ, false, 6, TOT, IO, false,
		NULL, NULL, MB, NULL, TP_Q_INPUT },
	[TP_FIG_INPUT_FILES] = { "input_files", "files", N, false, 0, TOT, IO, false,
		NULL, NULL, 1, NULL, TP_Q_INPUT },
	[TP_FIG_MEMORY_CGROUP] = { "memory_cgroup", "MB", SZ, false, 3, PK, KERN, false,
		NULL, NULL, MB, NULL, TP_Q_CGROUP },
	/* PSI totals (µs during which some, or all, of the cgroup's
	 * runnable tasks stalled on the resource): exact counters */
	[TP_FIG_CPU_PRESSURE_SOME] = { "cpu_pressure_some", "us", S, false, 0, TOT, KERN,
		false, "cpu_pressure_some", "cpu_pressure_some_seconds", 1e-6,
		"cpu_pressure_some_us", TP_Q_CGROUP },
	[TP_FIG_CPU_PRESSURE_FULL] = { "cpu_pressure_full", "us", S, false, 0, TOT, KERN,
		false, "cpu_pressure_full", "cpu_pressure_full_seconds", 1e-6,
		"cpu_pressure_full_us", TP_Q_CGROUP },
	[TP_FIG_MEMORY_PRESSURE_SOME] = { "memory_pressure_some", "us", S, false, 0, TOT, KERN,
		false, "memory_pressure_some", "memory_pressure_some_seconds", 1e-6,
		"memory_pressure_some_us", TP_Q_CGROUP },
	[TP_FIG_MEMORY_PRESSURE_FULL] = { "memory_pressure_full", "us", S, false, 0, TOT, KERN,
		false, "memory_pressure_full", "memory_pressure_full_seconds", 1e-6,
		"memory_pressure_full_us", TP_Q_CGROUP },
	[TP_FIG_IO_PRESSURE_SOME] = { "io_pressure_some", "us", S, false, 0, TOT, KERN,
		false, "io_pressure_some", "io_pressure_some_seconds", 1e-6,
		"io_pressure_some_us", TP_Q_CGROUP },
	[TP_FIG_IO_PRESSURE_FULL] = { "io_pressure_full", "us", S, false, 0, TOT, KERN,
		false, "io_pressure_full", "io_pressure_full_seconds", 1e-6,
		"io_pressure_full_us", TP_Q_CGROUP },
	/* issue 44: the peak of the dmem controller's dmem.current (Linux
	 * 6.14), summed over the cgroup's device memory regions, at the
	 * samples */
	[TP_FIG_GPU_MEMORY_CGROUP] = { "gpu_memory_cgroup", "MB", SZ, false, 3, PK, KERN, false,
		NULL, NULL, MB, NULL, TP_Q_DMEM },
};

static const struct tp_series_col series_cols[] = {
	{ TP_SERIES_WALL_CLOCK, 6, 6 }, { TP_RES_CPU_TIME, 6, 6 }, { TP_RES_CORES, 3, 3 },
	{ TP_RES_MAX_CONCURRENT_PROCESSES, 0, 0 }, { TP_RES_VIRTUAL_MEMORY, 0, 0 },
	{ TP_RES_MEMORY, 0, 0 }, { TP_RES_SWAP_MEMORY, 0, 0 }, { TP_RES_BYTES_READ, 0, 0 },
	{ TP_RES_BYTES_WRITTEN, 0, 0 }, { TP_RES_BYTES_RECEIVED, 3, 0 },
	{ TP_RES_BYTES_SENT, 3, 0 }, { TP_RES_BANDWIDTH, 3, 3 }, { TP_FIG_MACHINE_LOAD, 0, 0 },
	/* resource_monitor's disk columns */
	{ TP_RES_TOTAL_FILES, 0, 0 }, { TP_RES_DISK, 0, 0 },
	/* tpmon's own */
	{ TP_RES_GPUS, 0, 0 }, { TP_RES_GPU_MEMORY, 3, 3 }, { TP_FIG_GPU_CORES, 3, 3 },
	{ TP_FIG_MEMORY_PSS, 1, 1 },
};

const struct tp_series_col *fig_series_columns(size_t *n)
{
	*n = sizeof(series_cols) / sizeof(series_cols[0]);
	return series_cols;
}

const char *fig_series_name(const struct tp_series_col *c)
{
	return c->fig == TP_SERIES_WALL_CLOCK ? "wall_clock" : table[c->fig].series;
}

const struct tp_fig_info *fig_info(enum tp_fig f)
{
	return &table[f];
}

double fig_base_factor(enum tp_fig f)
{
	/* the one summary unit that is not the base unit of its kind */
	return table[f].kind == TP_UNIT_TIME && strcmp(table[f].unit, "us") == 0 ? 1e-6 : 1;
}

int fig_by_name(const char *name)
{
	int f;

	for (f = 0; f < TP_FIG__COUNT; f++)
		if (strcmp(table[f].name, name) == 0)
			return f;
	return -1;
}

bool fig_cctools_extra(const char *name)
{
	static const char *const names[] = { "start", "end", "fs_nodes", "workers" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

bool fig_cctools_resource(const char *name)
{
	int f = fig_by_name(name);

	return f >= 0 ? table[f].cctools : fig_cctools_extra(name);
}
