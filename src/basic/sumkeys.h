/* SPDX-License-Identifier: MIT */
/* sumkeys.h: the summary's keys that are not figures (the figures' keys
 * are the rows of figtable.h).  One table, read by the writer's check of
 * -V fields (summary_field_reserved()) and by the report's readers,
 * which take every name from it. */
#ifndef TPMON_SUMKEYS_H
#define TPMON_SUMKEYS_H

#include <stdbool.h>

enum tp_key {
	TP_KEY_EXECUTABLE_TYPE, TP_KEY_MONITOR_VERSION, TP_KEY_HOST, TP_KEY_COMMAND,
	TP_KEY_EXIT_TYPE, TP_KEY_EXIT_STATUS, TP_KEY_SIGNAL, TP_KEY_MONITOR_SIGNAL,
	TP_KEY_LIMITS_EXCEEDED, TP_KEY_LIMIT_VIOLATOR_PID, TP_KEY_LIMIT_VIOLATOR_COMMAND,
	TP_KEY_START, TP_KEY_END, TP_KEY_PEAK_TIMES, TP_KEY_TRACKING, TP_KEY_TRACKING_REASON,
	TP_KEY_CGROUP, TP_KEY_CGROUP_SHARED, TP_KEY_PROCESSES_PARTIAL, TP_KEY_PARTIAL,
	TP_KEY_DISK_PARTIAL, TP_KEY_INPUT_REASON, TP_KEY_SNAPSHOTS, TP_KEY_LIMITS, TP_KEY_STOPPED_AT,
	TP_KEY_UTILIZATION_CORES, TP_KEY_UTILIZATION_MEAN, TP_KEY_UTILIZATION_OVER_20,
	TP_KEY_UTILIZATION_OVER_40, TP_KEY_UTILIZATION_OVER_80, TP_KEY_UTILIZATION_AT_100,
	TP_KEY_CPU_HOURS_ALLOTTED, TP_KEY_CPU_HOURS_UNUSED, TP_KEY_MEMORY_SHARE,
	TP_KEY_MEMORY_GROWTH, TP_KEY_LOWER_BOUNDS, TP_KEY_UPPER_BOUNDS, TP_KEY_ENDING,
	TP_KEY_RETRY, TP_KEY_NOTES,
	/* issue 44: where the GPU figures came from */
	TP_KEY_GPU_SOURCE, TP_KEY_GPU_DEVICES, TP_KEY_GPU_UNREADABLE_PROCESSES,
	/* read, not written by tpmon: an engine's -V 'category: NAME' */
	TP_KEY_CATEGORY,
	/* the batch job and its step: tpmon writes SLURM_JOB_ID and
	 * SLURM_STEP_ID there unless -V 'job: NAME' gives them */
	TP_KEY_JOB, TP_KEY_JOB_STEP,
	TP_KEY__COUNT
};

struct tp_key_info {
	const char *name;
	bool written;		/* tpmon writes it: -V may not set it */
};

/* The row of key @k (< TP_KEY__COUNT). */
const struct tp_key_info *key_info(enum tp_key k);

/* The key named @name, or -1 when it is none of the table's. */
int key_by_name(const char *name);

#endif
