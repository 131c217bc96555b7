/* SPDX-License-Identifier: MIT */
/* phases.c: the phase timer of -d phases (see phases.h): a fixed table
 * of (name, CLOCK_MONOTONIC) marks, printed as the time between each
 * mark and the one before it. */
#include <stddef.h>
#include "basic/clock.h"
#include "basic/messages.h"
#include "basic/phases.h"

#define PHASES_MAX 48

bool phases_enabled;

static struct {
	const char *name;
	double t;
} marks[PHASES_MAX];
static size_t nmarks;
static int exec_at = -1, end_at = -1;	/* the two boundary marks */

void phases_mark(const char *name)
{
	if (nmarks < PHASES_MAX) {
		marks[nmarks].name = name;
		marks[nmarks].t = clock_mono();
		nmarks++;
	}
}

void phases_mark_exec(void)
{
	phases_mark("task exec'd (fork, setup in the child, exec)");
	if (exec_at < 0)
		exec_at = (int)nmarks - 1;
}

void phases_mark_task_end(void)
{
	phases_mark("task (from its exec to its end)");
	if (end_at < 0)
		end_at = (int)nmarks - 1;
}

static double ms_between(size_t a, size_t b)
{
	return (marks[b].t - marks[a].t) * 1e3;
}

void phases_print(void)
{
	size_t i;

	if (!phases_enabled || nmarks < 2)
		return;
	phases_mark("the options freed");
	for (i = 1; i < nmarks; i++)
		debug_msg_impl("phase %6.2f ms  %s", ms_between(i - 1, i), marks[i].name);
	if (exec_at > 0 && end_at > exec_at)
		debug_msg_impl("phases: start %.2f ms (tpmon's start to the task's exec), "
			       "end %.2f ms (the task's end to tpmon's exit)",
			       ms_between(0, (size_t)exec_at),
			       ms_between((size_t)end_at, nmarks - 1));
}
