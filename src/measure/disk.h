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

/* Is @path (absolute, as getcwd() gives it) a tree that is never one
 * task's own: / itself, a directory directly under it that the system
 * shares (/usr, /home, /tmp...), or anything in /proc, /sys or /dev?  Its
 * footprint is not measured by default.  Pure. */
bool disk_shared_dir(const char *path);

/* Entries past which a first walk of the default directory stops
 * (TPMON_DISK_MAX_ENTRIES overrides it; 0: no bound). */
#define DISK_MAX_ENTRIES 1000000UL

/* Start walking @dirs (NULL-terminated, copied) about every @period s.
 * A first walk past @max_entries entries (0: no bound) stops, with one
 * note: the tree is not the task's own, and no figure comes.  The walker
 * runs at nice @nice_beside (the task's) until disk_final(), then at
 * the caller's.  Returns NULL (with a message) if the thread cannot
 * start. */
struct tp_disk *disk_start(const char *const *dirs, double period, unsigned long max_entries,
			   int nice_beside);

/* Latest complete walk: false until the first one finishes, or when the
 * bound was passed. */
bool disk_latest(struct tp_disk *d, double *mb, long *files, double *when);

/* The footprint at the end of a task: the walk in progress or the latest
 * one where nothing changed since it began (every directory watched),
 * else a fresh walk, waited for.  false: no figure (the bound passed). */
bool disk_final(struct tp_disk *d, double *mb, long *files);

/* Was some part of the latest walk unreadable (its figures are then
 * lower bounds)?  A file removed during the walk does not count. */
bool disk_partial(struct tp_disk *d);

void disk_stop(struct tp_disk *d);

#endif
