/* SPDX-License-Identifier: MIT */
/* monitor.h: running the task under watch: the event loop that ties the
 * tracer, the sampler, the disk walker and the watchdog together. */
#ifndef TPMON_MONITOR_H
#define TPMON_MONITOR_H

#include "cgroup/cgrun.h"
#include "config/options.h"
#include "output/summary.h"

/* Run the task described by @o to the end (its whole tree gone) and fill
 * @rep.  @cg: the run's cgroups (borrowed), or NULL.  Returns 0 when the task ran, or the exit status (125, 126, 127)
 * of a failure to start it, after printing why; no summary is due then. */
int monitor_run(const struct tp_options *o, struct tp_cgrun *cg, struct tp_summary *rep);

#endif
