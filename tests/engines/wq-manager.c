/* SPDX-License-Identifier: MIT */
/* tests/engines/wq-manager.c: a Work Queue manager for the engine tests,
 * built against Debian's cctools 8.0 (coop-computing-tools-dev, which has
 * no Python bindings) by tests/engines-wq8.test.  It runs the tasks read
 * from stdin with monitoring on (the monitor CCTOOLS_RESOURCE_MONITOR
 * names) and prints what the manager concluded, one line per task.
 *
 * usage: wq-manager PORTFILE DEBUGLOG OUTDIR < TASKS
 * TASKS, one per line: TAG CORES WALL_TIME END_IN COMMAND... (0: none)
 * output: TAG RESULT RETURN_STATUS MEMORY DISK LE_MEMORY LE_WALL LE_END
 * (a measured or exceeded value is -1 when unknown); the task's output
 * goes to OUTDIR/TAG.out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "debug.h"
#include "rmsummary.h"
#include "work_queue.h"

#define MAX_TASKS 32

static const char *result_name(int r)
{
	switch (r) {
	case WORK_QUEUE_RESULT_SUCCESS: return "SUCCESS";
	case WORK_QUEUE_RESULT_SIGNAL: return "SIGNAL";
	case WORK_QUEUE_RESULT_RESOURCE_EXHAUSTION: return "RESOURCE_EXHAUSTION";
	case WORK_QUEUE_RESULT_TASK_TIMEOUT: return "TASK_TIMEOUT";
	case WORK_QUEUE_RESULT_TASK_MAX_RUN_TIME: return "TASK_MAX_RUN_TIME";
	case WORK_QUEUE_RESULT_MAX_RETRIES: return "MAX_RETRIES";
	default: return "OTHER";
	}
}

static double now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1e6 + tv.tv_usec;
}

static void report(struct work_queue_task *t, const char *outdir)
{
	const struct rmsummary *m = t->resources_measured;
	const struct rmsummary *le = m ? m->limits_exceeded : NULL;
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.out", outdir, t->tag);
	f = fopen(path, "w");
	if (f) {
		if (t->output)
			fputs(t->output, f);
		fclose(f);
	}
	printf("%s %s %d %g %g %g %g %g\n", t->tag, result_name(t->result), t->return_status,
	       m ? m->memory : -1, m ? m->disk : -1, le ? le->memory : -1,
	       le ? le->wall_time : -1, le ? le->end : -1);
	fflush(stdout);
}

/* Tasks with an end time must not wait for the worker to connect. */
static void wait_for_worker(struct work_queue *q)
{
	struct work_queue_stats s;
	int i;

	for (i = 0; i < 60; i++) {
		work_queue_get_stats(q, &s);
		if (s.workers_connected > 0)
			return;
		work_queue_wait(q, 1);
	}
}

int main(int argc, char **argv)
{
	struct work_queue *q;
	char line[4096];
	int n = 0;
	FILE *pf;

	if (argc != 4) {
		fprintf(stderr, "usage: wq-manager PORTFILE DEBUGLOG OUTDIR < TASKS\n");
		return 2;
	}
	debug_config(argv[0]);
	debug_config_file(argv[2]);
	debug_flags_set("all");
	q = work_queue_create(0);
	if (!q || !work_queue_enable_monitoring(q, NULL, 1))
		return 1;
	pf = fopen(argv[1], "w");
	if (!pf)
		return 1;
	fprintf(pf, "%d\n", work_queue_port(q));
	fclose(pf);
	wait_for_worker(q);
	while (n < MAX_TASKS && fgets(line, sizeof(line), stdin)) {
		char tag[64];
		int cores, wall, end_in, off;
		struct work_queue_task *t;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%63s %d %d %d %n", tag, &cores, &wall, &end_in, &off) != 4)
			continue;
		t = work_queue_task_create(line + off);
		work_queue_task_specify_tag(t, tag);
		work_queue_task_specify_cores(t, cores);
		if (wall > 0)
			work_queue_task_specify_running_time_max(t, wall);
		if (end_in > 0)
			work_queue_task_specify_end_time(t, (int64_t)(now_us() + end_in * 1e6));
		work_queue_task_specify_max_retries(t, 1);
		work_queue_submit(q, t);
		n++;
	}
	while (!work_queue_empty(q)) {
		struct work_queue_task *t = work_queue_wait(q, 5);

		if (t) {
			report(t, argv[3]);
			work_queue_task_delete(t);
		}
	}
	work_queue_delete(q);
	return 0;
}
