/* SPDX-License-Identifier: MIT */
/* test-report-timeline.c: the timeline's layout: which tasks get a bar,
 * the lanes of a host's concurrent tasks (a lane free again once its task
 * ended), hosts in name order, the span from the first start. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/read/store.h"
#include "report/gnuplot/timeline.h"
#include "basic/xmalloc.h"
#include "tap.h"

static void task(struct rp_store *st, const char *host, double t0, double t1)
{
	struct rp_task *t = rp_store_add(st, "x");

	t->host = host ? xstrdup(host) : NULL;
	t->started = t0;
	t->ended = t1;
}

/* The row of the bar of task @task. */
static double row(const struct rp_tl_layout *l, size_t task)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->b[i].task == task)
			return l->b[i].y;
	return NAN;
}

int main(void)
{
	struct rp_store st;
	struct rp_group *g;
	struct rp_tl_layout l;
	size_t ng;

	plan(14);
	rp_store_init(&st);
	task(&st, "b", 1000, 1010);	/* 0: b, lane 0 */
	task(&st, "b", 1005, 1015);	/* 1: b, lane 1 */
	task(&st, "b", 1010, 1020);	/* 2: b, lane 0 again (0 ended at 1010) */
	task(&st, "b", 1006, 1007);	/* 3: b, lane 2 (0 and 1 busy) */
	task(&st, "a", 1002, 1003);	/* 4: a, first host */
	task(&st, NULL, 1001, 1030);	/* 5: no host: its own row, first ("") */
	task(&st, "a", NAN, 1003);	/* 6: no start: no bar */
	task(&st, "a", 1009, 1008);	/* 7: ends before it starts: no bar */
	g = rp_store_group(&st, RP_BY_NONE, &ng);
	is_int(rp_timeline_layout(&l, &st, g, ng), 0, "layout made");
	is_int((long long)l.n, 6, "six bars: no start, or an end before the start, none");
	is_int((long long)l.nhosts, 3, "three hosts (unknown, a, b)");
	is_double(l.start, 1000, 0, "the first start");
	is_double(l.span, 30, 0, "span to the last end");
	is_double(row(&l, 5), 0, 0, "the unknown host first (empty name)");
	is_double(row(&l, 4), 1.5, 0, "host a half a row below");
	is_double(row(&l, 0), 3, 0, "host b: its first task on lane 0");
	is_double(row(&l, 1), 4, 0, "an overlapping task on lane 1");
	is_double(row(&l, 3), 5, 0, "a third at once on lane 2");
	is_double(row(&l, 2), 3, 0, "a task starting as another ends reuses its lane");
	is_double(l.rows, 6, 0, "rows: 1 + 0.5 + 1 + 0.5 + 3");
	rp_timeline_layout_free(&l);
	rp_groups_free(g, ng);
	rp_store_free(&st);
	rp_store_init(&st);
	task(&st, "a", NAN, NAN);
	g = rp_store_group(&st, RP_BY_NONE, &ng);
	is_int(rp_timeline_layout(&l, &st, g, ng), 1, "no task with times: nothing to lay out");
	ok(l.n == 0 && l.b == NULL, "... and nothing held");
	rp_groups_free(g, ng);
	rp_store_free(&st);
	return 0;
}
