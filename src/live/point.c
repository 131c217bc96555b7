/* SPDX-License-Identifier: MIT */
/* point.c: the base-unit names that the live formats give the
 * resources' figures (point.h), one table for the runtime file and the
 * Prometheus textfile alike. */
#include <stddef.h>
#include "live/point.h"
#include "basic/resources.h"

const char *live_base_name(int r, double *factor)
{
	static const struct { int res; const char *name; double factor; } names[] = {
		{ TP_RES_WALL_TIME, "wall_seconds", 1 },
		{ TP_RES_CPU_TIME, "cpu_seconds", 1 },
		{ TP_RES_MEMORY, "memory_bytes", 1048576.0 },
		{ TP_RES_VIRTUAL_MEMORY, "virtual_memory_bytes", 1048576.0 },
		{ TP_RES_SWAP_MEMORY, "swap_memory_bytes", 1048576.0 },
		{ TP_RES_DISK, "disk_bytes", 1048576.0 },
		{ TP_RES_TOTAL_FILES, "files", 1 },
		{ TP_RES_BYTES_READ, "read_bytes", 1048576.0 },
		{ TP_RES_BYTES_WRITTEN, "written_bytes", 1048576.0 },
		{ TP_RES_BYTES_RECEIVED, "received_bytes", 1048576.0 },
		{ TP_RES_BYTES_SENT, "sent_bytes", 1048576.0 },
		{ TP_RES_BANDWIDTH, "bandwidth_bits_per_second", 1e6 },
		{ TP_RES_GPUS, "gpus", 1 },
		{ TP_RES_GPU_MEMORY, "gpu_memory_bytes", 1048576.0 },
		{ TP_RES_CORES, "cores", 1 },
		{ TP_RES_MAX_CONCURRENT_PROCESSES, "processes", 1 },
		{ TP_RES_TOTAL_PROCESSES, "processes_started", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].res == r) {
			*factor = names[i].factor;
			return names[i].name;
		}
	return NULL;
}
