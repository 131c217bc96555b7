/* SPDX-License-Identifier: MIT */
/* pressure.c: throttling and PSI totals of one v2 cgroup (pressure.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "kernel/cgroup.h"
#include "kernel/pressure.h"

int pressure_parse_some(const char *buf, uint64_t *us)
{
	const char *t;

	if (strncmp(buf, "some ", 5) || !(t = strstr(buf, " total=")) ||
	    (strchr(buf, '\n') && t > strchr(buf, '\n')))
		return -1;
	return sscanf(t + 7, "%" SCNu64, us) == 1 ? 0 : -1;
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
