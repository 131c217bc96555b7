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

/* Is the file system of one of the @n (at most 64) devices @devs out of
 * space or inodes (for an unprivileged user), looked at on the first
 * mount of each, in one reading of the mount table?  1 (the first such
 * one's mount point in @point, whether inodes ran out in *@inodes), 0,
 * or -1 when the mount table is unreadable. */
int mounts_devs_full(const dev_t *devs, size_t n, char *point, size_t size, bool *inodes);

/* The devices of the local file systems that have room (at
 * least 64 KiB and an inode free), at most @max into @devs; their
 * number, or -1 when the mount table is unreadable. */
int mounts_roomy(dev_t *devs, size_t max);

#endif
