/* SPDX-License-Identifier: MIT */
/* fanout.h: what tpmon tells of a run beyond its summary: the process
 * records (--with-process-records) and the trace (--with-trace).  The
 * monitor calls it at each birth, exec and sample; the process table
 * calls it as each process ends. */
#ifndef TPMON_FANOUT_H
#define TPMON_FANOUT_H

#include "config/options.h"
#include "track/ptree.h"
#include "measure/sampler.h"

struct tp_fanout;

/* Open the files @o asks for and hook their writing to the end of each
 * process of @t.  NULL when @o asks for none (or none could be created);
 * every function below accepts NULL.  @monitor: tpmon's pid. */
struct tp_fanout *fanout_open(const struct tp_options *o, struct tp_ptree *t, pid_t monitor);
/* Does @o ask for any of it?  (Then exec events are wanted.) */
bool fanout_wanted(const struct tp_options *o);
/* New process @p, a copy of its parent until it execs. */
void fanout_born(const struct tp_fanout *st, const struct tp_ptree *t, struct tp_proc *p);
/* @p has just exec'd (it is stopped there): read what it runs now. */
void fanout_exec(const struct tp_fanout *st, struct tp_proc *p);
/* A sample: counters to the trace; buffered lines to the files.  Live
 * processes still unnamed (poll mode) are named here.  @cores: current. */
void fanout_sample(struct tp_fanout *st, struct tp_ptree *t, const struct tp_sample *s);
/* End the processes left in @t (their records are written), close the
 * files and free @st. */
void fanout_close(struct tp_fanout *st, struct tp_ptree *t);

#endif
