/* SPDX-License-Identifier: MIT */
/* watchdog.c: the kill (see watchdog.h). */
#include <signal.h>
#include "basic/compat.h"
#include "basic/messages.h"
#include "enforce/watchdog.h"

void watchdog_init(struct tp_watchdog *wd, double grace)
{
	wd->tk = NULL;
	wd->grace = grace;
	wd->phase = TP_RUNNING;
	wd->kill_at = 0;
}

bool watchdog_stop(struct tp_watchdog *wd, double now)
{
	if (wd->phase != TP_RUNNING)
		return false;
	wd->phase = TP_TERMINATING;
	wd->kill_at = now + wd->grace;
	debug_msg("stopping the tree: SIGTERM to %u %s", wd->tk->tree->nlive,
		  PLURAL(wd->tk->tree->nlive, "process", "processes"));
	track_signal_all(wd->tk, SIGTERM);
	if (wd->grace <= 0) {
		wd->phase = TP_KILLING;
		track_signal_all(wd->tk, SIGKILL);
	}
	return true;
}

/* The grace is over at @now: KILLING from then on; while KILLING,
 * SIGKILL to every process of the tree again. */
static void watchdog_escalate(struct tp_watchdog *wd, double now)
{
	if (wd->phase == TP_TERMINATING && now >= wd->kill_at) {
		wd->phase = TP_KILLING;
		debug_msg("grace over: SIGKILL to %u %s", wd->tk->tree->nlive,
			  PLURAL(wd->tk->tree->nlive, "process", "processes"));
	}
	if (wd->phase == TP_KILLING)
		track_signal_all(wd->tk, SIGKILL);
}

void watchdog_hurry(struct tp_watchdog *wd, double now)
{
	wd->phase = TP_KILLING;
	watchdog_escalate(wd, now);
}

void watchdog_deadline_reached(struct tp_watchdog *wd, double now)
{
	if (wd->phase == TP_KILLING)
		wd->kill_at = now;	/* SIGKILL again in 50 ms */
	watchdog_escalate(wd, now);
}

double watchdog_deadline(const struct tp_watchdog *wd)
{
	if (wd->phase == TP_TERMINATING)
		return wd->kill_at;
	if (wd->phase == TP_KILLING)
		return wd->kill_at + 0.05;
	return 1e300;
}
