/* SPDX-License-Identifier: MIT */
/* resources.h: the resources tpmon measures and limits (the first rows
 * of the table of figures, basic/figtable.h, which includes this file:
 * include that one for the rows) and lookup by name. */
#ifndef TPMON_RESOURCES_H
#define TPMON_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>

/* The limitable resources.  Order is the order of the summary. */
enum tp_res {
	TP_RES_WALL_TIME,		/* s */
	TP_RES_CPU_TIME,		/* s */
	TP_RES_MEMORY,			/* MB (2^20 bytes), peak sum of RSS */
	TP_RES_VIRTUAL_MEMORY,		/* MB, peak sum of VmSize */
	TP_RES_SWAP_MEMORY,		/* MB, peak sum of swapped-out pages */
	TP_RES_DISK,			/* MB of allocated blocks under the measured dirs */
	TP_RES_TOTAL_FILES,		/* files under the measured dirs */
	TP_RES_BYTES_READ,		/* MB read from storage */
	TP_RES_BYTES_WRITTEN,		/* MB written to storage */
	TP_RES_BYTES_RECEIVED,		/* MB received over TCP (loopback included) */
	TP_RES_BYTES_SENT,		/* MB sent over TCP and acknowledged */
	TP_RES_BANDWIDTH,		/* Mbps, sent + received over a sliding window */
	TP_RES_GPUS,			/* distinct GPUs the tree used */
	TP_RES_GPU_MEMORY,		/* MB, peak sum of the tree's GPU memory */
	TP_RES_CORES,			/* cores, average over a sliding window */
	TP_RES_MAX_CONCURRENT_PROCESSES,	/* procs */
	TP_RES_TOTAL_PROCESSES,		/* procs */
	TP_RES__COUNT
};

/* How a value of a resource is written and read. */
enum tp_unit_kind {
	TP_UNIT_TIME,		/* seconds; accepts "ms", "s", "m", "h", "d" */
	TP_UNIT_SIZE,		/* MB; accepts "K", "M", "G", "T" (binary, with or without B/iB) */
	TP_UNIT_CORES,		/* plain number */
	TP_UNIT_COUNT,		/* plain non-negative integer */
};

/* A resource's row of the table of figures (basic/figtable.h), @r <
 * TP_RES__COUNT: name, unit, kind, zero_ok and the rest. */
struct tp_fig_info;
const struct tp_fig_info *res_info(enum tp_res r);

/* Resource named @name, or -1 when no resource has that name. */
int res_by_name(const char *name);

/* The name -L takes (a resource or "end") nearest to the unknown @name,
 * static, or NULL when none is near enough to be a slip (editdist.h). */
const char *res_nearest(const char *name);

/* Every name -L takes, ", "-separated, into @buf (cut at @size). */
void res_list(char *buf, size_t size);

/* Is @name a resource that cctools engines may send in -L but that tpmon
 * does not limit (gpus, bandwidth, ...)?  Such limits are ignored with a note. */
bool res_cctools_only(const char *name);

#endif
