/* SPDX-License-Identifier: MIT */
/* resources.c: the table of limitable resources (summary name, unit,
 * how values are written) and lookup by name. */
#include <string.h>

#include "basic/resources.h"

static const struct tp_res_info res_table[TP_RES__COUNT] = {
	[TP_RES_WALL_TIME] = { "wall_time", "s", TP_UNIT_TIME, false },
	[TP_RES_CPU_TIME] = { "cpu_time", "s", TP_UNIT_TIME, false },
	[TP_RES_MEMORY] = { "memory", "MB", TP_UNIT_SIZE, false },
	[TP_RES_VIRTUAL_MEMORY] = { "virtual_memory", "MB", TP_UNIT_SIZE, false },
	[TP_RES_SWAP_MEMORY] = { "swap_memory", "MB", TP_UNIT_SIZE, true },
	[TP_RES_DISK] = { "disk", "MB", TP_UNIT_SIZE, false },
	[TP_RES_TOTAL_FILES] = { "total_files", "files", TP_UNIT_COUNT, false },
	[TP_RES_BYTES_READ] = { "bytes_read", "MB", TP_UNIT_SIZE, true },
	[TP_RES_BYTES_WRITTEN] = { "bytes_written", "MB", TP_UNIT_SIZE, true },
	[TP_RES_BYTES_RECEIVED] = { "bytes_received", "MB", TP_UNIT_SIZE, true },
	[TP_RES_BYTES_SENT] = { "bytes_sent", "MB", TP_UNIT_SIZE, true },
	[TP_RES_BANDWIDTH] = { "bandwidth", "Mbps", TP_UNIT_CORES, false },
	[TP_RES_GPUS] = { "gpus", "gpus", TP_UNIT_COUNT, true },
	[TP_RES_GPU_MEMORY] = { "gpu_memory", "MB", TP_UNIT_SIZE, true },
	[TP_RES_CORES] = { "cores", "cores", TP_UNIT_CORES, false },
	[TP_RES_MAX_CONCURRENT_PROCESSES] =
		{ "max_concurrent_processes", "procs", TP_UNIT_COUNT, false },
	[TP_RES_TOTAL_PROCESSES] = { "total_processes", "procs", TP_UNIT_COUNT, false },
};

const struct tp_res_info *res_info(enum tp_res r)
{
	return &res_table[r];
}

int res_by_name(const char *name)
{
	int r;

	for (r = 0; r < TP_RES__COUNT; r++)
		if (strcmp(res_table[r].name, name) == 0)
			return r;
	return -1;
}

bool res_cctools_only(const char *name)
{
	static const char *const names[] = {
		"start", "end", "cores_avg", "machine_cpus", "machine_load",
		"context_switches", "fs_nodes", "workers",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}
