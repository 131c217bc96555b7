/* SPDX-License-Identifier: MIT */
/* phases.h: -d phases: where each millisecond of a run's fixed cost
 * goes, from tpmon's start to the task's exec and from the task's end to
 * tpmon's exit.  Marks are taken whether or not they are printed (one
 * clock read each); phases_print() writes them once, at the end. */
#ifndef TPMON_BASIC_PHASES_H
#define TPMON_BASIC_PHASES_H

#include <stdbool.h>

/* Set by -d phases: phases_print() writes the lines. */
extern bool phases_enabled;

/* The phase that ends now, named @name (a string literal: borrowed).
 * The first mark is the start; marks past the table's room are dropped. */
void phases_mark(const char *name);
/* The task's exec succeeded (ends the start path) / the task's tree is
 * gone (begins the end path). */
void phases_mark_exec(void);
void phases_mark_task_end(void);
/* With -d phases, one debug line per phase (ms) and one with the start
 * and end paths' totals; nothing otherwise. */
void phases_print(void);

#endif
