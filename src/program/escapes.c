/* SPDX-License-Identifier: MIT */
/* escapes.c: processes that escaped the tracer inside the run's cgroup
 * (see escapes.h). */
#include <stdlib.h>
#include "basic/messages.h"
#include "kernel/proc.h"
#include "program/escapes.h"
#include "cgroup/cgrun.h"
#include "track/ptree.h"

/* ptrace inside a cgroup, where the filter lets clone(CLONE_UNTRACED)
 * and clone3 pass (the cgroup holds the tree): a process of the cgroup
 * that nothing traces (at a sample), or CPU time in cpu.stat beyond
 * every traced process's (at the end), escaped the tracer.  Its
 * processes, memory and I/O are then in no count: the counts become
 * lower bounds, said once. */
static bool may_escape(const struct tp_run *r)
{
	return r->cg && r->tk && r->tk->ptraced && !r->o->pid && !r->tk->counts_partial;
}

static void escaped(struct tp_run *r, const char *how)
{
	r->tk->counts_partial = true;
	warn_msg("%s escaped the tracer (CLONE_UNTRACED or clone3): the process counts, "
		 "memory and I/O are lower bounds", how);
}

void escapes_members(struct tp_run *r)
{
	pid_t *v = NULL;
	size_t i, n;

	if (!may_escape(r))
		return;
	n = cgrun_members(r->cg, &v);
	for (i = 0; i < n; i++)
		if (!ptree_proc(&r->tree, v[i]) && proc_read_tracer(v[i]) == 0) {
			escaped(r, "a process of the task's cgroup");
			break;
		}
	free(v);
}

void escapes_cpu(struct tp_run *r, const struct tp_cg_figures *cgf, const struct tp_acct *a)
{
	double cg_cpu = (double)cgf->usage_usec / 1e6, cpu = (double)a->cpu_ns / 1e9;

	if (may_escape(r) && (cgf->known & TP_CGF_CPU) && cg_cpu > cpu + 0.01 &&
	    cg_cpu > cpu * 1.02)
		escaped(r, "CPU time in the task's cgroup beyond the traced processes':"
			" a process");
}
