/* SPDX-License-Identifier: MIT */
/* pressure.h: what a v2 cgroup says of the contention its processes met:
 * cpu.stat's throttled periods (cpu controller) and the PSI stall totals
 * of memory.pressure and io.pressure ("some" lines).  A figure whose file
 * does not answer stays unknown. */
#ifndef TPMON_PRESSURE_H
#define TPMON_PRESSURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp_cg_pressure {
	bool throttle_known;
	uint64_t nr_periods, nr_throttled;	/* cpu.stat */
	bool memory_known, io_known;
	uint64_t memory_some_us, io_some_us;	/* PSI "some" totals */
};

/* Pure: the total= of the "some" line of a *.pressure file.  0, or -1. */
int pressure_parse_some(const char *buf, uint64_t *us);

/* Fill @p from the cgroup directory @dir. */
void pressure_read(const char *dir, struct tp_cg_pressure *p);

/* The CPU throttling of the cgroups around tpmon (v1 cpu controller and
 * v2, walked up from /proc/self/cgroup: a container's or a batch job's
 * quota), from start to end.  The end keeps in @p the most throttled
 * share among them and the run's own (already in @p, when known). */
struct tp_throttle;
struct tp_throttle *pressure_throttle_start(void);
void pressure_throttle_end(const struct tp_throttle *t, struct tp_cg_pressure *p);
void pressure_throttle_free(struct tp_throttle *t);

#endif
