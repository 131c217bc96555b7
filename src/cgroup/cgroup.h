/* SPDX-License-Identifier: MIT */
/* cgroup.h: the kernel's cgroup v2 interface files: pure parsers of their
 * text, and readers and writers of one cgroup directory (figures, limits,
 * kill, removal).  Where the run's cgroups are made is cgrun.h's job.
 *
 * The readers and writers allocate nothing and use only system calls, so
 * the SIGKILL guard (a forked copy of tpmon, see cgrun.c) may call them. */
#ifndef TPMON_CGROUP_H
#define TPMON_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Controllers, as bits of a mask (cgroup.controllers, subtree_control). */
enum {
	TP_CG_CPU = 1u << 0,
	TP_CG_MEMORY = 1u << 1,
	TP_CG_PIDS = 1u << 2,
	TP_CG_IO = 1u << 3,
};
/* what tpmon needs to contain and limit a task */
#define TP_CG_NEEDED (TP_CG_MEMORY | TP_CG_PIDS)

#define TP_CG_MAX UINT64_MAX	/* "max": no limit */

/* What the kernel says about one cgroup (and its descendants).  A figure
 * whose file is missing (an older kernel, a controller not delegated) has
 * its bit clear in @known: unknown, never 0. */
enum {
	TP_CGF_CPU = 1u << 0,		/* cpu.stat (always there) */
	TP_CGF_MEM_CURRENT = 1u << 1,	/* memory.current */
	TP_CGF_MEM_PEAK = 1u << 2,	/* memory.peak (5.19) */
	TP_CGF_MEM_EVENTS = 1u << 3,	/* memory.events */
	TP_CGF_GROUP_KILL = 1u << 4,	/* memory.events oom_group_kill (5.17) */
	TP_CGF_PIDS = 1u << 5,		/* pids.current */
	TP_CGF_PIDS_PEAK = 1u << 6,	/* pids.peak (6.1) */
	TP_CGF_IO = 1u << 7,		/* io.stat (io controller) */
};

/* The PSI totals of a cgroup (cpu.pressure, memory.pressure, io.pressure:
 * µs during which some, or all, of its runnable tasks stalled). */
enum tp_psi {
	TP_PSI_CPU_SOME, TP_PSI_CPU_FULL,
	TP_PSI_MEMORY_SOME, TP_PSI_MEMORY_FULL,
	TP_PSI_IO_SOME, TP_PSI_IO_FULL,
	TP_PSI__COUNT
};

struct tp_cg_figures {
	unsigned known;			/* TP_CGF_* */
	uint64_t usage_usec, user_usec, system_usec;	/* cpu.stat */
	uint64_t mem_current, mem_peak;	/* bytes */
	uint64_t oom, oom_kill, oom_group_kill, mem_max_events;	/* memory.events */
	uint64_t pids_current, pids_peak;	/* tasks: threads included */
	uint64_t rbytes, wbytes;	/* io.stat, summed over devices */
	uint64_t psi[TP_PSI__COUNT];	/* µs stalled (enum tp_psi) */
	unsigned psi_known;		/* 1u << enum tp_psi: the file gave it */
};

/* ---- pure parsers (no I/O) ---- */

/* The cgroup v2 path ("0::/a/b") in /proc/PID/cgroup text: copied into
 * @out ("/a/b").  Returns 0, or -1 when there is none or it does not fit. */
int cgroup_parse_self(const char *buf, char *out, size_t size);

/* The mount point of the first cgroup2 file system in /proc/self/mountinfo
 * text (octal escapes undone) into @out.  Returns 0, or -1. */
int cgroup_parse_mount(const char *buf, char *out, size_t size);

/* The same for the first mount of file system @type ("cgroup2", "cgroup")
 * whose super options hold @option ("memory"; NULL: any). */
int cgroup_parse_mount_of(const char *buf, const char *type, const char *option,
			  char *out, size_t size);

/* A controller list ("cpu io memory pids", a subtree_control) as a mask;
 * unknown names are ignored. */
unsigned cgroup_parse_controllers(const char *buf);

/* The value of @key in a flat-keyed file ("key value" lines: cpu.stat,
 * memory.events, cgroup.events).  Returns 0, or -1 when absent or bad. */
int cgroup_parse_key(const char *buf, const char *key, uint64_t *v);

/* A single-value file ("123\n", or "max" as TP_CG_MAX).  0, or -1. */
int cgroup_parse_value(const char *buf, uint64_t *v);

/* io.stat ("MAJ:MIN rbytes=N wbytes=N ..." lines): the sums of rbytes and
 * wbytes over its devices.  Returns 0 (an empty file is 0 bytes), or -1. */
int cgroup_parse_io(const char *buf, uint64_t *rbytes, uint64_t *wbytes);

/* A pressure file ("some avg10=.. avg60=.. avg300=.. total=N" and a
 * "full" line): the totals, µs.  *@has_full is false when there is no
 * full line (cpu.pressure before 5.13).  Returns 0, or -1 when no some
 * line with a total is there or a number is bad. */
int cgroup_parse_pressure(const char *buf, uint64_t *some, uint64_t *full, bool *has_full);

/* "/base" + "/" + "name" into @out.  Returns 0, or -1 if it does not fit. */
int cgroup_join(char *out, size_t size, const char *dir, const char *name);

/* ---- one cgroup directory (async-signal-safe) ---- */

/* Read @dir/@name into @buf (NUL-terminated).  Bytes read, or -1 (errno). */
ssize_t cgroup_read(const char *dir, const char *name, char *buf, size_t size);

/* Write @value to @dir/@name in one write().  0, or -1 (errno). */
int cgroup_write(const char *dir, const char *name, const char *value);

/* Write the decimal @v (TP_CG_MAX: "max") to @dir/@name.  0, or -1. */
int cgroup_write_u64(const char *dir, const char *name, uint64_t v);

/* Move process @pid (0: the caller) with all its threads into @dir. */
int cgroup_enter(const char *dir, pid_t pid);

/* The controllers of @dir's cgroup.controllers (@file "cgroup.controllers")
 * or cgroup.subtree_control; 0 when unreadable. */
unsigned cgroup_controllers(const char *dir, const char *file);

/* Enable the controllers in @mask for @dir's children.  0, or -1 (errno:
 * EBUSY when @dir holds processes, ENOENT when @dir lacks one). */
int cgroup_enable(const char *dir, unsigned mask);

/* Take the controllers in @mask away from @dir's children.  0, or -1. */
int cgroup_disable(const char *dir, unsigned mask);

/* Does @dir or a descendant hold a live process?  1, 0, or -1 (errno).
 * cgroup v2 says it in cgroup.events; a v1 directory's members are
 * counted. */
int cgroup_populated(const char *dir);

/* Fill @f from @dir's files.  Figures that cannot be read stay unknown. */
void cgroup_figures(const char *dir, struct tp_cg_figures *f);

/* Kill every process in @dir and its descendants: cgroup.kill (5.14)
 * when @kill_file, else (or when the file is missing) freezing (5.2) and
 * SIGKILL to each process until none is left.  Waits up to @wait_ms for
 * the cgroup to empty.  0 when empty, else -1. */
int cgroup_kill(const char *dir, int wait_ms, bool kill_file);

/* Kill every process in @dir and below without ever freezing it (for
 * cgroups tpmon did not make in this run: a sweeper killed half-way
 * leaves nothing frozen): cgroup.kill where the kernel has it, else
 * SIGKILL to each listed process until none is left.  A process this pid
 * namespace cannot see is not listed, and so not killed that way.  Waits
 * up to @wait_ms.  0 when empty, else -1. */
int cgroup_kill_unfrozen(const char *dir, int wait_ms);

/* Remove @dir and the cgroups below it, bottom up, retrying EBUSY (a
 * cgroup that has just emptied) for up to @wait_ms in all.  0, or -1. */
int cgroup_remove(const char *dir, int wait_ms);

/* The processes in @dir and below, as an owned array in *@out (free it).
 * Allocates: not for the guard.  Returns how many. */
size_t cgroup_members(const char *dir, pid_t **out);

/* Has the kernel a cgroup.kill file (5.14)?  Tested on @dir. */
bool cgroup_can_kill(const char *dir);

#endif
