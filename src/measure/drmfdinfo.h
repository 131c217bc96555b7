/* SPDX-License-Identifier: MIT */
/* drmfdinfo.h: the tree's use of GPUs of every vendor through the
 * kernel's per-client DRM counters (/proc/PID/fdinfo of the descriptors
 * open on a DRM device, Documentation/gpu/drm-usage-stats.rst): engine
 * busy time per engine class and resident memory per region, summed per
 * device without counting one client twice. */
#ifndef TPMON_DRMFDINFO_H
#define TPMON_DRMFDINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "measure/gpu.h"
#include "track/ptree.h"

#define TP_DRM_MAJOR 226		/* DRM character devices (/dev/dri) */
#define TP_DRM_NAME 32			/* engine, region, driver, pdev names */
#define TP_DRM_ENGINES 12		/* engine classes kept per client */
#define TP_DRM_REGIONS 8		/* memory regions kept per client */
#define TP_DRM_DEVICES 16		/* devices kept per run */

/* One engine class of one client, as its fdinfo says. */
struct tp_drm_engine {
	char name[TP_DRM_NAME];		/* "gfx", "render", "rcs", ... */
	uint64_t busy_ns;		/* drm-engine-<e> */
	uint64_t cycles, total_cycles;	/* drm-cycles-<e>, drm-total-cycles-<e> */
	unsigned capacity;		/* drm-engine-capacity-<e>, 1 without */
	bool has_ns, has_cycles;
};

/* One memory region of one client, in bytes. */
struct tp_drm_region {
	char name[TP_DRM_NAME];		/* "vram", "gtt", "system0", ... */
	uint64_t resident, total;	/* drm-resident- (or drm-memory-), drm-total- */
	bool has_resident, has_total;
};

/* One DRM client, parsed from one fdinfo file. */
struct tp_drm_client {
	char driver[TP_DRM_NAME];	/* drm-driver */
	char pdev[TP_DRM_NAME];		/* drm-pdev, "" without */
	uint64_t client_id;		/* drm-client-id */
	struct tp_drm_engine engine[TP_DRM_ENGINES];
	unsigned nengines;
	struct tp_drm_region region[TP_DRM_REGIONS];
	unsigned nregions;
	bool kfd;			/* not a DRM client: a process's VRAM
					 * through KFD (kfd.h), pdev its gpu_id */
};

/* Parse the fdinfo text @buf (@len bytes, no NUL needed) into @c.  Only
 * whole lines count: a last line without its newline is taken as cut
 * off and left out, as are unknown keys, values that are no number and
 * names longer than TP_DRM_NAME - 1.  No I/O.  Returns true when @buf is
 * a DRM client (drm-driver and drm-client-id both there). */
bool drm_fdinfo_parse(const char *buf, size_t len, struct tp_drm_client *c);

/* What a run knows of one device, for the summary. */
struct tp_drm_device_fig {
	char pdev[TP_DRM_NAME], driver[TP_DRM_NAME];
	bool kfd;				/* seen through KFD: pdev is its gpu_id */
	double memory_mb, peak_memory_mb;	/* resident, over its regions */
	double busy_s[TP_DRM_ENGINES];		/* per engine class, over its capacity */
	char engine[TP_DRM_ENGINES][TP_DRM_NAME];
	unsigned nengines;
	/* per memory region: the peaks of its resident and total MB */
	char region[TP_DRM_REGIONS][TP_DRM_NAME];
	double resident_mb[TP_DRM_REGIONS], total_mb[TP_DRM_REGIONS];
	bool has_total[TP_DRM_REGIONS];		/* the driver gives drm-total- */
	unsigned nregions;
};

struct tp_drm;

/* A new reader; @nvml: NVML sees NVIDIA's devices, so clients of the
 * drivers "nvidia" and "nvidia-drm" are left to it (one source per
 * device).  Owned by the caller: drm_free(). */
struct tp_drm *drm_new(bool nvml);
void drm_free(struct tp_drm *d);

/* One sample, by hand (the unit tests; drm_sample() does it for the
 * run): drm_begin(), then drm_add() for each client seen (a client seen
 * again in the same sample, through another descriptor or process, is
 * counted once), then drm_end() at @now, s from the start. */
void drm_begin(struct tp_drm *d);
void drm_add(struct tp_drm *d, const struct tp_drm_client *c);
void drm_end(struct tp_drm *d, double now);

/* The DRM clients of process @pid, found under the proc directory
 * @procfd (the run: /proc): the descriptors in PID/fd that are DRM
 * character devices, each PID/fdinfo file parsed and added.  Returns 0,
 * also when the process is gone; -1 when its descriptors may not be
 * read (EACCES, EPERM: another user's process), which is counted. */
int drm_scan_pid(struct tp_drm *d, int procfd, pid_t pid);

/* One sample of the tree's live processes, through /proc, at @now
 * (nothing on a machine without a DRM device or KFD); a
 * process with no amdgpu DRM client has its KFD VRAM read (kfd.h): ROCm
 * compute, which fdinfo shows only through the render node's client
 * when the process has one (then counting KFD too would count twice). */
void drm_sample(struct tp_drm *d, const struct tp_ptree *t, double now);

/* The figures so far, in NVML's terms (gpus, GPU memory, utilization
 * from the busiest engine class of each device, GPU-seconds); false when
 * no DRM client of the tree was seen (the figures are then unknown). */
bool drm_figures(const struct tp_drm *d, struct tp_gpu_figures *f);

/* The devices seen, at most @max into @out; returns their number (all
 * of them: @max 0 counts them). */
unsigned drm_devices(const struct tp_drm *d, struct tp_drm_device_fig *out, unsigned max);

/* Processes of the tree whose descriptors could not be read, at the
 * sample that had most of them. */
unsigned drm_unreadable(const struct tp_drm *d);

#endif
