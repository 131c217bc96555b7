/* SPDX-License-Identifier: MIT */
/* inprobe.h: the files a cgroup's processes open for reading, without a
 * stop: a BPF program at the entry of security_file_open() (fentry, or a
 * kprobe where the kernel has no fentry), the hook every
 * open of a file passes once it is made (not O_PATH), notes each regular
 * file opened for reading (FMODE_READ; not O_TRUNC, not an execve's open
 * of the program) by a process of the cgroup, once per inode, with its
 * size, device, inode number and file system at that first open.  It is
 * how the cgroup mode counts the task's input (input_size, input_files)
 * as root; ptrace counts the same at its stops (opens.h).
 *
 * Needs root (CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN), BPF trampolines
 * (5.5) or the kprobe PMU (4.17), the kernel's BTF for the offsets of struct file, inode and
 * super_block's members, and a cgroup v2 directory for the tree.  The
 * probe costs every open of the machine a check of the opener's cgroup
 * while it is attached, so it is there only when asked for
 * (--with-input-size). */
#ifndef TPMON_INPROBE_H
#define TPMON_INPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct tp_inprobe;

/* One file the cgroup opened for reading. */
struct tp_inprobe_file {
	dev_t dev;		/* the file system's device */
	uint64_t ino;
	uint64_t size;		/* at its first such open */
	uint64_t fs_magic;	/* the file system's magic (statfs's f_type) */
};

/* Load the program, check it on an open of tpmon's own, keep it to the
 * processes of cgroup @dir (v2) from now on, and attach it.  NULL with
 * the reason in @why when the kernel, its BTF or tpmon's privileges do
 * not allow it. */
struct tp_inprobe *inprobe_open(const char *dir, char *why, size_t size);

/* Call @fn for each file noted so far.  Returns whether every open was
 * noted: false once the map was full (the figures are a lower bound). */
bool inprobe_each(const struct tp_inprobe *ip,
		  void (*fn)(void *arg, const struct tp_inprobe_file *f), void *arg);

void inprobe_free(struct tp_inprobe *ip);

#endif
