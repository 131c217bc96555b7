/* SPDX-License-Identifier: MIT */
/* pressure.c: throttling and PSI totals of one v2 cgroup, and the
 * throttling of the cgroups around tpmon (pressure.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/xmalloc.h"
#include "cgroup/cgroup.h"
#include "cgroup/memcgs.h"
#include "cgroup/pressure.h"

int pressure_parse_some(const char *buf, uint64_t *us)
{
	uint64_t full;
	bool has_full;

	/* one parser of the PSI files: the figures' (cgroup.c) */
	return cgroup_parse_pressure(buf, us, &full, &has_full);
}

void pressure_read(const char *dir, struct tp_cg_pressure *p)
{
	char buf[1024];

	memset(p, 0, sizeof(*p));
	if (cgroup_read(dir, "cpu.stat", buf, sizeof(buf)) > 0 &&
	    cgroup_parse_key(buf, "nr_periods", &p->nr_periods) == 0 &&
	    cgroup_parse_key(buf, "nr_throttled", &p->nr_throttled) == 0)
		p->throttle_known = true;
	if (cgroup_read(dir, "memory.pressure", buf, sizeof(buf)) > 0)
		p->memory_known = pressure_parse_some(buf, &p->memory_some_us) == 0;
	if (cgroup_read(dir, "io.pressure", buf, sizeof(buf)) > 0)
		p->io_known = pressure_parse_some(buf, &p->io_some_us) == 0;
}

/* The CPU throttling of the cgroups enclosing tpmon (a container's or a
 * batch job's CPU quota), counted from before the task to its end. */
struct cpucg {
	char *dir;
	uint64_t periods, throttled;
};

struct tp_throttle {
	struct cpucg *v;
	size_t n;
};

static int read_stat(const char *dir, uint64_t *periods, uint64_t *throttled)
{
	char buf[1024];

	if (cgroup_read(dir, "cpu.stat", buf, sizeof(buf)) <= 0 ||
	    cgroup_parse_key(buf, "nr_periods", periods) < 0 ||
	    cgroup_parse_key(buf, "nr_throttled", throttled) < 0)
		return -1;
	return 0;
}

static void add_cpucg(void *arg, const char *dir, const char *name, bool v1)
{
	struct tp_throttle *t = arg;
	struct cpucg c;

	(void)name;
	(void)v1;
	if (read_stat(dir, &c.periods, &c.throttled) < 0)
		return;
	c.dir = xstrdup(dir);
	t->v = xreallocarray(t->v, t->n + 1, sizeof(*t->v));
	t->v[t->n++] = c;
}

struct tp_throttle *pressure_throttle_start(void)
{
	struct tp_throttle *t = xcalloc(1, sizeof(*t));

	memcgs_walk("cpu", add_cpucg, t);
	return t;
}

void pressure_throttle_end(const struct tp_throttle *t, struct tp_cg_pressure *p)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		uint64_t periods, throttled;

		if (read_stat(t->v[i].dir, &periods, &throttled) < 0 || periods <= t->v[i].periods)
			continue;
		periods -= t->v[i].periods;
		throttled -= t->v[i].throttled;
		/* the most throttled share among them */
		if (!p->throttle_known || !p->nr_periods ||
		    throttled * (double)p->nr_periods > p->nr_throttled * (double)periods) {
			p->throttle_known = true;
			p->nr_periods = periods;
			p->nr_throttled = throttled;
		}
	}
}

void pressure_throttle_free(struct tp_throttle *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->v[i].dir);
	free(t->v);
	free(t);
}
