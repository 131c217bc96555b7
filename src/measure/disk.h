/* SPDX-License-Identifier: MIT */
/* disk.h: the footprint of the measured directories (allocated blocks and
 * file count), walked by a background thread so the event loop never stalls. */
#ifndef TPMON_DISK_H
#define TPMON_DISK_H

#include <stdbool.h>

struct tp_disk;

/* Refuse, before the task runs, a directory to measure that does not
 * exist or is not a directory: its footprint would be a made-up 0.
 * 0, or -1 after printing one message. */
int disk_check_dirs(const char *const *dirs);

/* Start walking @dirs (NULL-terminated, copied) about every @period s.
 * Returns NULL (with a message) if the thread cannot start. */
struct tp_disk *disk_start(const char *const *dirs, double period);

/* Latest complete walk: false until the first one finishes. */
bool disk_latest(struct tp_disk *d, double *mb, long *files, double *when);

/* Ask for a fresh walk now and wait for it to finish (at the end of a task). */
void disk_final(struct tp_disk *d, double *mb, long *files);

/* Was some part of the latest walk unreadable (its figures are then
 * lower bounds)?  A file removed during the walk does not count. */
bool disk_partial(struct tp_disk *d);

void disk_stop(struct tp_disk *d);

#endif
