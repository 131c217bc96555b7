/* SPDX-License-Identifier: MIT */
/* attach.h: --pid, following a process that is already running.  Seizes
 * every thread of it and of its descendants as they are in /proc, again
 * until a scan finds nothing new, so that nothing created during the
 * attach is missed; from then on their fork and clone events bring the
 * new ones, as for a task tpmon started. */
#ifndef TPMON_ATTACH_H
#define TPMON_ATTACH_H

#include <sys/types.h>
#include "ptree.h"

/* Seize @pid (the root: its failure fails the attach) and every thread
 * of every descendant of it, with ptrace @options, adding them to @t as
 * started, each process with the baseline of its figures at attach
 * (ptree_proc_acct() counts from there).  @self (tpmon) is never
 * followed.  Returns 0, 1 when the tree still changed after the last
 * scan (a process born and gone meanwhile may be missed), or -1 with
 * errno (ESRCH: no such process, EPERM:
 * not permitted, or already traced, EINVAL: @pid is a thread, not a
 * process) after which @t holds nothing. */
int attach_tree(struct tp_ptree *t, pid_t pid, pid_t self, unsigned options);

#endif
