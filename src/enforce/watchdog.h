/* SPDX-License-Identifier: MIT */
/* watchdog.h: the kill.  Stopping the tree is SIGTERM to every process
 * (with SIGCONT, so that stopped ones act on it), then, after the grace,
 * SIGKILL, again every 50 ms until the tree is empty (processes born
 * meanwhile included).  The decision to stop is enforce.c's, or the
 * loop's (a signal to tpmon, processes left behind). */
#ifndef TPMON_WATCHDOG_H
#define TPMON_WATCHDOG_H

#include <stdbool.h>
#include "track/track.h"

/* RUNNING until something stops the tree; TERMINATING during the grace;
 * KILLING after it. */
enum tp_phase { TP_RUNNING, TP_TERMINATING, TP_KILLING };

struct tp_watchdog {
	struct tp_track *tk;		/* whose tree is signalled (borrowed) */
	double grace;			/* SIGTERM -> SIGKILL, s */
	enum tp_phase phase;
	double kill_at;			/* when TERMINATING turns into KILLING, s */
};

/* Times are s from the start, as the loop counts them. */
void watchdog_init(struct tp_watchdog *wd, double grace);
/* Begin stopping the tree at @now.  True when this call began it (the
 * phase was RUNNING), false when it was being stopped already. */
bool watchdog_stop(struct tp_watchdog *wd, double now);
/* Skip what is left of the grace (a second signal to tpmon). */
void watchdog_hurry(struct tp_watchdog *wd, double now);
/* A hard deadline of the kill came at @now: escalate, and while KILLING
 * plan the next SIGKILL round 50 ms later. */
void watchdog_deadline_reached(struct tp_watchdog *wd, double now);
/* The next instant at which the kill must act, or a large number. */
double watchdog_deadline(const struct tp_watchdog *wd);

#endif
