/* SPDX-License-Identifier: MIT */
/* mounts.c: /proc/self/mountinfo parsed line by line, the fullness of
 * devices' file systems, read with statvfs(3) at their mount points in
 * one reading of the table, and the local ones that have room. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include "kernel/mounts.h"

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* The next space-separated field of *@p, NUL-terminated, or NULL. */
static char *field(char **p)
{
	char *s = *p, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, ' ');
	if (e) {
		*e = '\0';
		*p = e + 1;
	} else {
		*p = NULL;
	}
	return s;
}

int mounts_parse_line(char *line, struct tp_mount *m)
{
	char *p = line, *f[5], *dash;
	int i;

	for (i = 0; i < 5; i++)
		if (!(f[i] = field(&p)))
			return -1;
	if (sscanf(f[2], "%u:%u", &m->major, &m->minor) != 2)
		return -1;
	do	/* optional fields, up to the "-" */
		dash = field(&p);
	while (dash && strcmp(dash, "-"));
	if (!dash || !(m->fstype = field(&p)) || !field(&p))
		return -1;
	m->super = p ? p : "";
	unescape(f[3]);
	unescape(f[4]);
	m->root = f[3];
	m->point = f[4];
	return 0;
}

int mounts_each(int (*fn)(const struct tp_mount *m, void *arg), void *arg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int r = 0;

	if (!f)
		return -1;
	while (r == 0 && (n = getline(&line, &cap, f)) > 0) {
		struct tp_mount m;

		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (mounts_parse_line(line, &m) == 0)
			r = fn(&m, arg);
	}
	free(line);
	fclose(f);
	return r;
}

/* Is the file system that @sv describes out of room: less than 64 KiB
 * left (a write of the usual size would fail), or no inode (*@inodes)? */
static bool out_of_room(const struct statvfs *sv, bool *inodes)
{
	*inodes = sv->f_files > 0 && sv->f_favail == 0;
	return (uint64_t)sv->f_bavail * sv->f_frsize < 65536 || *inodes;
}

struct devs_full {
	const dev_t *devs;
	size_t n;
	uint64_t looked;	/* bit i: devs[i]'s first mount was looked at */
	char *point;
	size_t size;
	bool *inodes;
	int found;
};

static int check_mount(const struct tp_mount *m, void *arg)
{
	struct devs_full *d = arg;
	dev_t dev = makedev(m->major, m->minor);
	struct statvfs sv;
	size_t i;

	for (i = 0; i < d->n && d->devs[i] != dev; i++)
		;
	if (i == d->n || (d->looked >> i & 1) || statvfs(m->point, &sv) < 0)
		return 0;
	d->looked |= (uint64_t)1 << i;
	if (!out_of_room(&sv, d->inodes))
		return 0;
	snprintf(d->point, d->size, "%s", m->point);
	d->found = 1;
	return 1;
}

int mounts_devs_full(const dev_t *devs, size_t n, char *point, size_t size, bool *inodes)
{
	struct devs_full d = { devs, n < 64 ? n : 64, 0, point, size, inodes, 0 };

	*inodes = false;
	if (n == 0)
		return 0;
	if (mounts_each(check_mount, &d) < 0)
		return -1;
	return d.found;
}

/* Is @fstype a local disk or memory file system (ext4, xfs, tmpfs...),
 * whose statvfs never waits on a network? */
static bool local_fstype(const char *fstype)
{
	static const char *const local[] = {
		"tmpfs", "ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "vfat", "exfat",
		"zfs", "jfs", "overlay", "bcachefs",
	};
	size_t i;

	for (i = 0; i < sizeof(local) / sizeof(local[0]); i++)
		if (strcmp(fstype, local[i]) == 0)
			return true;
	return false;
}

struct roomy {
	dev_t *devs;
	size_t max, n;
};

static int add_roomy(const struct tp_mount *m, void *arg)
{
	struct roomy *r = arg;
	dev_t dev = makedev(m->major, m->minor);
	struct statvfs sv;
	bool inodes;
	size_t i;

	if (!local_fstype(m->fstype))
		return 0;
	for (i = 0; i < r->n; i++)
		if (r->devs[i] == dev)
			return 0;
	if (statvfs(m->point, &sv) < 0 || out_of_room(&sv, &inodes))
		return 0;
	r->devs[r->n++] = dev;
	return r->n == r->max;
}

int mounts_roomy(dev_t *devs, size_t max)
{
	struct roomy r = { devs, max, 0 };

	if (max == 0)
		return 0;
	if (mounts_each(add_roomy, &r) < 0)
		return -1;
	return (int)r.n;
}
