/* SPDX-License-Identifier: MIT */
/* sumkeys.c: the table of the summary's keys that are not figures
 * (sumkeys.h). */
#include <string.h>
#include "basic/sumkeys.h"

static const struct tp_key_info keys[TP_KEY__COUNT] = {
	[TP_KEY_EXECUTABLE_TYPE] = { "executable_type", true },
	[TP_KEY_MONITOR_VERSION] = { "monitor_version", true },
	[TP_KEY_HOST] = { "host", true },
	[TP_KEY_COMMAND] = { "command", true },
	[TP_KEY_EXIT_TYPE] = { "exit_type", true },
	[TP_KEY_EXIT_STATUS] = { "exit_status", true },
	[TP_KEY_SIGNAL] = { "signal", true },
	[TP_KEY_MONITOR_SIGNAL] = { "monitor_signal", true },
	[TP_KEY_LIMITS_EXCEEDED] = { "limits_exceeded", true },
	[TP_KEY_LIMIT_VIOLATOR_PID] = { "limit_violator_pid", true },
	[TP_KEY_LIMIT_VIOLATOR_COMMAND] = { "limit_violator_command", true },
	[TP_KEY_START] = { "start", true },
	[TP_KEY_END] = { "end", true },
	[TP_KEY_PEAK_TIMES] = { "peak_times", true },
	[TP_KEY_TRACKING] = { "tracking", true },
	[TP_KEY_TRACKING_REASON] = { "tracking_reason", true },
	[TP_KEY_CGROUP] = { "cgroup", true },
	[TP_KEY_CGROUP_SHARED] = { "cgroup_shared", true },
	[TP_KEY_PROCESSES_PARTIAL] = { "processes_partial", true },
	[TP_KEY_PARTIAL] = { "partial", true },
	[TP_KEY_DISK_PARTIAL] = { "disk_partial", true },
	[TP_KEY_INPUT_REASON] = { "input_reason", true },
	[TP_KEY_SNAPSHOTS] = { "snapshots", true },
	[TP_KEY_LIMITS] = { "limits", true },
	[TP_KEY_STOPPED_AT] = { "stopped_at", true },
	[TP_KEY_UTILIZATION_CORES] = { "utilization_cores", true },
	[TP_KEY_UTILIZATION_MEAN] = { "utilization_mean", true },
	[TP_KEY_UTILIZATION_OVER_20] = { "utilization_over_20", true },
	[TP_KEY_UTILIZATION_OVER_40] = { "utilization_over_40", true },
	[TP_KEY_UTILIZATION_OVER_80] = { "utilization_over_80", true },
	[TP_KEY_UTILIZATION_AT_100] = { "utilization_at_100", true },
	[TP_KEY_CPU_HOURS_ALLOTTED] = { "cpu_hours_allotted", true },
	[TP_KEY_CPU_HOURS_UNUSED] = { "cpu_hours_unused", true },
	[TP_KEY_MEMORY_SHARE] = { "memory_share", true },
	[TP_KEY_MEMORY_GROWTH] = { "memory_growth", true },
	[TP_KEY_LOWER_BOUNDS] = { "lower_bounds", true },
	[TP_KEY_UPPER_BOUNDS] = { "upper_bounds", true },
	[TP_KEY_ENDING] = { "ending", true },
	[TP_KEY_RETRY] = { "retry", true },
	[TP_KEY_NOTES] = { "notes", true },
	/* issue 44: where the GPU figures came from */
	[TP_KEY_GPU_SOURCE] = { "gpu_source", true },
	[TP_KEY_GPU_DEVICES] = { "gpu_devices", true },
	[TP_KEY_GPU_UNREADABLE_PROCESSES] = { "gpu_unreadable_processes", true },
	[TP_KEY_CATEGORY] = { "category", false },
	[TP_KEY_JOB] = { "job", false },
	[TP_KEY_JOB_STEP] = { "job_step", false },
};

const struct tp_key_info *key_info(enum tp_key k)
{
	return &keys[k < TP_KEY__COUNT ? k : TP_KEY_COMMAND];
}

int key_by_name(const char *name)
{
	int k;

	for (k = 0; k < TP_KEY__COUNT; k++)
		if (!strcmp(keys[k].name, name))
			return k;
	return -1;
}
