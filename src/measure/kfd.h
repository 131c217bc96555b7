/* SPDX-License-Identifier: MIT */
/* kfd.h: ROCm compute's device memory per process, from the amdgpu KFD
 * driver's sysfs (/sys/class/kfd/kfd/proc/PID/vram_GPUID: bytes of VRAM
 * the process holds on that GPU), as clients of the DRM sums
 * (drmfdinfo.h), one per GPU. */
#ifndef TPMON_KFD_H
#define TPMON_KFD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "measure/drmfdinfo.h"

#define TP_KFD_PROC "/sys/class/kfd/kfd/proc"

/* The number of bytes in a vram_GPUID file's text @buf (@len bytes: a
 * decimal and its newline); false for anything else.  No I/O. */
bool kfd_parse_bytes(const char *buf, size_t len, uint64_t *bytes);

/* The VRAM of process @pid, found under KFD's proc directory @kfdfd
 * (the run: TP_KFD_PROC), as clients into @out (at most @max): one per
 * GPU, driver amdgpu, its gpu_id in pdev, the pid as its id, kfd set.
 * Returns their number; 0 when the process has no KFD directory. */
unsigned kfd_read_pid(int kfdfd, pid_t pid, struct tp_drm_client *out, unsigned max);

#endif
