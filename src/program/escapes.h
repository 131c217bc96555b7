/* SPDX-License-Identifier: MIT */
/* escapes.h: ptrace inside a cgroup, where the seccomp filter lets
 * clone(CLONE_UNTRACED) and clone3 pass because the cgroup holds the tree
 * whatever its clone flags: a process that escaped the tracer is in the
 * cgroup but in no count.  These find it and make the counts, memory and
 * I/O lower bounds (r->tk->counts_partial), with one warning. */
#ifndef TPMON_ESCAPES_H
#define TPMON_ESCAPES_H

#include "cgroup/cgroup.h"
#include "program/run.h"

/* At a sample: a member of the task's cgroup that nothing traces. */
void escapes_members(struct tp_run *r);

/* At the end: CPU time in the cgroup's cpu.stat (@cgf) beyond every
 * traced process's (@a), by more than 10 ms and 2%. */
void escapes_cpu(struct tp_run *r, const struct tp_cg_figures *cgf, const struct tp_acct *a);

#endif
