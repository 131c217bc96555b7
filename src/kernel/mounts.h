/* SPDX-License-Identifier: MIT */
/* mounts.h: /proc/self/mountinfo, line by line (a pure parser, and a walk
 * over tpmon's own mount table), whether the file system of a device is
 * full (statvfs of its mount point), and which local file systems have
 * room. */
#ifndef TPMON_MOUNTS_H
#define TPMON_MOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One line of mountinfo; the strings point into the line, their octal
 * escapes (\040) undone. */
struct tp_mount {
	unsigned major, minor;
	const char *root;		/* the mount's root within its file system */
	const char *point;		/* where it is mounted */
	const char *fstype;
	const char *super;		/* the super block's options */
};

/* Parse @line (changed in place, no newline).  0, or -1 when malformed. */
int mounts_parse_line(char *line, struct tp_mount *m);

/* Call @fn for each line of /proc/self/mountinfo until it returns
 * nonzero; that value, 0 at the end, or -1 when unreadable. */
int mounts_each(int (*fn)(const struct tp_mount *m, void *arg), void *arg);

/* Is the file system of device @dev out of space or inodes (for an
 * unprivileged user)?  1 (its mount point in @point, which inodes ran
 * out in *@inodes), 0, or -1 when no mount of @dev can be looked at. */
int mounts_dev_full(dev_t dev, char *point, size_t size, bool *inodes);

/* Is @fstype a local disk or memory file system (ext4, xfs, tmpfs...),
 * whose statvfs never waits on a network? */
bool mounts_local_fstype(const char *fstype);

/* The devices of the local, writable file systems that have room (at
 * least 64 KiB and an inode free), at most @max into @devs; their
 * number, or -1 when the mount table is unreadable. */
int mounts_roomy(dev_t *devs, size_t max);

#endif
