/* SPDX-License-Identifier: MIT */
/* cghome.h: the cgroups a user without root may use as they are found.
 *
 * - Delegation by ownership: a cgroup is delegated to the caller when its
 *   directory, cgroup.procs and cgroup.subtree_control belong to the
 *   caller's uid (systemd's Delegate=yes, HTCondor's job slice, a
 *   container's private cgroup).  Write access alone (root) is not
 *   delegation.  cgrun.c asks cghome_owned() before making a run there.
 * - The home, read only: the cgroup tpmon starts in (v2, or v1's memory
 *   and cpuacct hierarchies), when it holds no process but tpmon and it
 *   cannot be written, as Slurm's task cgroup under `srun tpmon -- TASK`.
 *   Its kernel counters are then the task's figures plus tpmon's own: the
 *   CPU time less tpmon's (exact), the memory peak with tpmon's few MB in
 *   it (an upper bound).  A process of another tree found in it makes it
 *   shared, and none of its figures is given as the task's from then on.
 *   Found from /proc/self/cgroup, never by building a path. */
#ifndef TPMON_CGHOME_H
#define TPMON_CGHOME_H

#include <stdbool.h>
#include <stddef.h>
#include "cgroup/cgroup.h"

/* Is the cgroup directory @dir delegated to the caller: it, its
 * cgroup.procs and its cgroup.subtree_control owned by getuid()? */
bool cghome_owned(const char *dir);

/* ---- pure parsers (no I/O) ---- */

/* The path of the v1 hierarchy that holds controller @ctrl ("memory") in
 * /proc/PID/cgroup text ("4:memory:/a/b"), into @out.  0, or -1. */
int cghome_parse_v1_path(const char *buf, const char *ctrl, char *out, size_t size);

/* The directory of cgroup @path ("/a/b") in the first v1 mount of @ctrl in
 * /proc/self/mountinfo text @buf whose root is @path or above it, into
 * @out.  0, or -1 (none, an escaped mount point, too long). */
int cghome_parse_v1_dir(const char *buf, const char *ctrl, const char *path,
			char *out, size_t size);

/* ---- the home ---- */

struct tp_cghome;

/* The cgroup tpmon is in, read only, when it is tpmon's alone: an owned
 * home, or NULL with the reason in @why. */
struct tp_cghome *cghome_open(char *why, size_t whysize);

/* Its figures now (tpmon's own CPU time taken out), after a look for
 * another tenant: none known (@f->known 0) once one was seen. */
void cghome_figures(struct tp_cghome *h, struct tp_cg_figures *f);

/* Its name for the summary ("/job_1/step_0/user/task_0"), borrowed. */
const char *cghome_name(const struct tp_cghome *h);

/* Has a process of another tree been seen in it? */
bool cghome_shared(const struct tp_cghome *h);

/* Free @h (nothing in the cgroup is touched).  NULL is ignored. */
void cghome_close(struct tp_cghome *h);

#endif
