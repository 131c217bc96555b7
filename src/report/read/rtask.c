/* SPDX-License-Identifier: MIT */
/* rtask.c: the report's resource table and what a task's end means. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/read/rtask.h"

static const struct rp_res_info table[RP_RES__COUNT] = {
	[RP_CORES] = { "cores", "cores", "cores", TP_UNIT_CORES, false, 1 },
	[RP_MEMORY] = { "memory", "MB", "memory_MB", TP_UNIT_SIZE, false, 250 },
	[RP_MEMORY_PSS] = { "memory_pss", "MB", "memory_pss_MB", TP_UNIT_SIZE, true, 0 },
	[RP_DISK] = { "disk", "MB", "disk_MB", TP_UNIT_SIZE, false, 250 },
	[RP_WALL_TIME] = { "wall_time", "s", "wall_time_s", TP_UNIT_TIME, false, 0 },
	[RP_CPU_TIME] = { "cpu_time", "s", "cpu_time_s", TP_UNIT_TIME, false, 0 },
	[RP_BYTES_READ] = { "bytes_read", "MB", "bytes_read_MB", TP_UNIT_SIZE, false, 0 },
	[RP_BYTES_WRITTEN] = { "bytes_written", "MB", "bytes_written_MB", TP_UNIT_SIZE, false, 0 },
	[RP_GPUS] = { "gpus", "gpus", "gpus", TP_UNIT_CORES, true, 1 },
	[RP_BYTES_RECEIVED] = { "bytes_received", "MB", "bytes_received_MB", TP_UNIT_SIZE, true, 0 },
	[RP_BYTES_SENT] = { "bytes_sent", "MB", "bytes_sent_MB", TP_UNIT_SIZE, true, 0 },
	[RP_GPU_MEMORY] = { "gpu_memory", "MB", "gpu_memory_MB", TP_UNIT_SIZE, true, 0 },
	[RP_GPU_TIME] = { "gpu_time", "s", "gpu_time_s", TP_UNIT_TIME, true, 0 },
};

const struct rp_res_info *rp_res_info(enum rp_res r)
{
	return &table[r];
}

static const struct {
	enum rp_res res;
	const char *csv;
} given[RP_G__COUNT] = {
	[RP_G_CORES] = { RP_CORES, "alloc_cores" },
	[RP_G_MEMORY] = { RP_MEMORY, "alloc_memory_MB" },
	[RP_G_DISK] = { RP_DISK, "alloc_disk_MB" },
	[RP_G_GPUS] = { RP_GPUS, "alloc_gpus" },
};

enum rp_res rp_given_res(enum rp_given g)
{
	return given[g].res;
}

const char *rp_given_csv(enum rp_given g)
{
	return given[g].csv;
}

void rp_task_init(struct rp_task *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < RP_RES__COUNT; i++)
		t->v[i] = NAN;
	for (i = 0; i < RP_G__COUNT; i++)
		t->given[i] = NAN;
	t->started = t->ended = t->req_wall_time = NAN;
	t->exit_status = -1;
}

void rp_task_clear(struct rp_task *t)
{
	free(t->category);
	free(t->command);
	free(t->exit_type);
	free(t->host);
	free(t->cause);
	free(t->detail);
	free(t->notes);
	free(t->notes_text);
	t->category = t->command = t->exit_type = t->host = NULL;
	t->cause = t->detail = t->notes = t->notes_text = NULL;
}

/* cctools' category code puts a task in its histograms when its summary
 * has no exit_type or exit_type "normal"; "limits" means a limit stopped
 * it; anything else, or a normal end with a non-zero status, is a failure.
 * A task still running (a checkpoint) is none of these, and its peaks so
 * far stay out of the histograms. */
void rp_task_classify(struct rp_task *t)
{
	bool running = t->partial || (t->exit_type && strcmp(t->exit_type, "running") == 0);

	t->normal = !running && (!t->exit_type || strcmp(t->exit_type, "normal") == 0);
	if (running)
		t->end = RP_RUNNING;
	else if (t->exit_type && strcmp(t->exit_type, "limits") == 0)
		t->end = RP_EXHAUSTED;
	else if (t->normal && t->exit_status <= 0)
		t->end = RP_SUCCEEDED;
	else
		t->end = RP_FAILED;
}
