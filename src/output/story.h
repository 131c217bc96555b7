/* SPDX-License-Identifier: MIT */
/* story.h: what tpmon tells of a run beyond its summary: the process
 * records (--with-process-records) and the trace (--with-trace).  The
 * monitor calls it at each birth, exec and sample; the process table
 * calls it as each process ends. */
#ifndef TPMON_STORY_H
#define TPMON_STORY_H

#include "options.h"
#include "ptree.h"
#include "sampler.h"

struct tp_story;

/* Open the files @o asks for and hook their writing to the end of each
 * process of @t.  NULL when @o asks for none (or none could be created);
 * every function below accepts NULL.  @monitor: tpmon's pid. */
struct tp_story *story_open(const struct tp_options *o, struct tp_ptree *t, pid_t monitor);
/* Does @o ask for any of it?  (Then exec events are wanted.) */
bool story_wanted(const struct tp_options *o);
/* New process @p, a copy of its parent until it execs. */
void story_born(const struct tp_story *st, const struct tp_ptree *t, struct tp_proc *p);
/* @p has just exec'd (it is stopped there): read what it runs now. */
void story_exec(const struct tp_story *st, struct tp_proc *p);
/* A sample: counters to the trace; buffered lines to the files.  Live
 * processes still unnamed (poll mode) are named here.  @cores: current. */
void story_sample(struct tp_story *st, struct tp_ptree *t, const struct tp_sample *s);
/* End the processes left in @t (their records are written), close the
 * files and free @st. */
void story_close(struct tp_story *st, struct tp_ptree *t);

#endif
