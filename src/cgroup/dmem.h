/* SPDX-License-Identifier: MIT */
/* dmem.h: the device memory the kernel charges to the run's cgroup, from
 * the dmem controller's dmem.current (Linux 6.14: one line per region,
 * "drm/0000:03:00.0/vram0 12550144", bytes).  Where the file is absent
 * (an older kernel, cgroup v1, no cgroup) nothing is read and the figure
 * stays unknown. */
#ifndef TPMON_DMEM_H
#define TPMON_DMEM_H

#include <stdbool.h>
#include <stdint.h>

struct tp_dmem {
	int state;			/* 0 not looked yet, 1 there, -1 absent */
	double mb, peak_mb;		/* now, and the peak of the reads */
};

/* The sum over the regions of dmem.current text @buf (@len bytes): only
 * whole lines "NAME BYTES" whose NAME starts with "drm/".  No I/O.
 * False when no such line. */
bool dmem_parse_current(const char *buf, size_t len, uint64_t *bytes);

/* Read @dir/dmem.current (@dir: the run's cgroup, NULL none) into @m:
 * absent at the first look, it is never looked for again. */
void dmem_sample(struct tp_dmem *m, const char *dir);

/* Whether a read succeeded: the peak is then known. */
bool dmem_known(const struct tp_dmem *m);

#endif
