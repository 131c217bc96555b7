/* SPDX-License-Identifier: MIT */
/* rtask.c: the report's resources (rows of the table of figures, in
 * the report's order) and what a task's end means. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "basic/xmalloc.h"
#include "report/read/rtask.h"

/* The report's order and how it reads each (TP_REPORT_FIGURES) */
#define RP_RES_ROW(name, fig, kind, optional, bucket) [RP_##name] = { fig, kind, optional, bucket },
static const struct rp_res_info table[RP_RES__COUNT] = {
	TP_REPORT_FIGURES(RP_RES_ROW)
};
#undef RP_RES_ROW

const struct rp_res_info *rp_res_info(enum rp_res r)
{
	return &table[r];
}

const struct tp_fig_info *rp_res_fig(enum rp_res r)
{
	return fig_info(table[r].fig);
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

char *rp_task_name_dup(const struct rp_task *t)
{
	const char *cat = t->category ? t->category : "default";

	if (t->command && t->task_id)
		return xasprintf("%s [%s]", t->command, t->task_id);
	if (t->command)
		return xasprintf("%s: %s", cat, t->command);
	if (t->task_id)
		return xasprintf("%s [%s]", cat, t->task_id);
	return xasprintf("%s: %s", cat, t->source ? t->source : "?");
}

bool rp_input_mb_usable(double mb)
{
	return isfinite(mb) && mb >= 0 && mb <= 1024.0 * 1024 * 1024;
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
	t->retry_memory = t->retry_wall_time = NAN;
	t->input_mb = NAN;
	t->exit_status = -1;
}

void rp_task_clear(struct rp_task *t)
{
	if (!t->pooled) {
		free(t->category);
		free(t->command);
		free(t->exit_type);
		free(t->host);
		free(t->cause);
		free(t->detail);
		free(t->notes);
		free(t->notes_text);
		free(t->task_id);
		free(t->job);
	}
	t->category = t->command = t->exit_type = t->host = NULL;
	t->cause = t->detail = t->notes = t->notes_text = t->task_id = NULL;
	t->job = NULL;
	t->pooled = false;
}

/* cctools' category code puts a task in its histograms when its summary
 * has no exit_type or exit_type "normal"; "limits" means a limit stopped
 * it; anything else, or a normal end with a non-zero status, is a failure.
 * A task still running (a checkpoint) is none of these, and its peaks so
 * far stay out of the histograms.  A checkpoint with an ending is the
 * note of a guard whose tpmon was gone (output/lostnote.c): a failure. */
void rp_task_classify(struct rp_task *t)
{
	bool lost = t->partial && t->cause;
	bool running = (t->partial && !lost) ||
		       (t->exit_type && strcmp(t->exit_type, "running") == 0);

	t->normal = !running && !lost && (!t->exit_type || strcmp(t->exit_type, "normal") == 0);
	if (running)
		t->end = RP_RUNNING;
	else if (lost)
		t->end = RP_FAILED;
	else if (t->exit_type && strcmp(t->exit_type, "limits") == 0)
		t->end = RP_EXHAUSTED;
	else if (t->normal && t->exit_status <= 0)
		t->end = RP_SUCCEEDED;
	else
		t->end = RP_FAILED;
}
