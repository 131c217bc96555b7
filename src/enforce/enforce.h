/* SPDX-License-Identifier: MIT */
/* enforce.h: holding the task to its limits.  The one place that decides
 * which limit the current figures break, who broke it (the process with
 * the largest RSS for the memory limits, the newborn for the process
 * counts, the task as a whole for the rest), and whether that stops the
 * task (it does not with --measure-only, nor for cctools' gpus, which the
 * engines enforce themselves); and when the figures must be looked at
 * again: the deadlines (wall_time, end), the pace of samples near a
 * memory limit, the memory passes of a big tree.  The kill is the
 * watchdog's (watchdog.h). */
#ifndef TPMON_ENFORCE_H
#define TPMON_ENFORCE_H

#include <stdbool.h>
#include <sys/types.h>
#include "measure/figures.h"
#include "cgroup/cgrun.h"
#include "config/options.h"
#include "measure/sampler.h"
#include "enforce/watchdog.h"

struct tp_enforce {
	const struct tp_options *o;	/* limits, --measure-only, exit codes */
	struct tp_figures *fig;		/* cur: judged; rep: what was broken */
	struct tp_watchdog *wd;
	pid_t root;			/* the task as a whole */
	struct tp_cgrun *cg;		/* the task's cgroup (borrowed), or NULL */
};

/* All borrowed; times are s from the start. */
void enforce_init(struct tp_enforce *e, const struct tp_options *o, struct tp_figures *fig,
		  struct tp_watchdog *wd);

/* Stop the tree at @now (a limit, a signal to tpmon, processes left
 * behind): the report's stopped_at, then the watchdog's kill. */
void enforce_stop(struct tp_enforce *e, double now);

/* Judge the current figures (fig->cur) at @now; @biggest is the process
 * with the largest RSS, named for the memory limits (0: none). */
void enforce_check(struct tp_enforce *e, pid_t biggest, double now);

/* A process was born.  False when the tree is being stopped: the caller
 * kills it at once (track_proc_signal()); else true, and after the caller
 * counted it (figures_born()), enforce_counted() judges the process
 * counts, false when the newborn @pid is to be killed now. */
bool enforce_admit(const struct tp_enforce *e);
bool enforce_counted(struct tp_enforce *e, pid_t pid, double now);

/* The kernel enforces a memory limit in the task's cgroup (memory.max,
 * memory.oom.group): its OOM kills, counted in memory.events, are the
 * memory limit broken at @now, as the sampler would have seen it. */
void enforce_oom(struct tp_enforce *e, double now);

/* The clock at @t: wall_time and the absolute deadline (end). */
void enforce_clock(struct tp_enforce *e, double t);

/* The next instant the limits must be looked at whatever the loop is
 * doing (wall_time, end, the kill's next round), or a large number. */
double enforce_deadline(const struct tp_enforce *e);

/* The delay before the next sample: @delay, shortened when memory is
 * close to a limit so that a task growing fast is caught in time. */
double enforce_next_delay(const struct tp_enforce *e, double delay);

/* Is a memory pass (sampler_mem_pass()) due at @now for the memory
 * limits, @sm's sample being in progress when @sampling?  Due when
 * one is under way, or when the newest sizes are older than @recheck s. */
bool enforce_memory_due(const struct tp_enforce *e, const struct tp_sampler *sm, double now,
			bool sampling, double recheck);

/* --measure-only, at the end: report every limit the final figures cross. */
void enforce_final(struct tp_enforce *e);

#endif
