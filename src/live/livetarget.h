/* SPDX-License-Identifier: MIT */
/* livetarget.h: the live export targets as a table.  A target is a row:
 * the option that wants it, how it opens (its state), what it does with
 * each published point and the last one, and how it closes; one file
 * each (runfile.c, promfile.c, httpsend.c, catsend.c), one row in
 * live.c's table.  live.c knows only the pacing and the loop over the
 * rows. */
#ifndef TPMON_LIVETARGET_H
#define TPMON_LIVETARGET_H

#include <stdbool.h>
#include <stddef.h>
#include "config/options.h"
#include "live/liveint.h"
#include "live/livequeue.h"

struct tp_live_target {
	const char *name;
	/* Does @o ask for this target?  The one place that says which
	 * option turns it on. */
	bool (*wanted)(const struct tp_options *o);
	/* Its state (owned, until close()), for the run @m (borrowed, lives
	 * until close()); a target that sends makes the sending thread with
	 * livequeue_need(@q).  NULL after filling @why with what to tell
	 * ("" for nothing): the run goes on without it. */
	void *(*open)(const struct tp_options *o, const struct tp_live_meta *m,
		      struct tp_livequeue **q, char *why, size_t whylen);
	/* A published point @p (with the rates since the last, @rt) at @now
	 * (s since the epoch); final(): the last one, state "ended". */
	void (*point)(void *state, const struct tp_live_point *p, const struct tp_live_rates *rt,
		      double now);
	void (*final)(void *state, const struct tp_live_point *p, const struct tp_live_rates *rt,
		      double now);
	void (*close)(void *state);
	/* Optional (NULL): a target that takes the summary's text at its own
	 * pace (the catalog): is one due at @t (s since the start), and
	 * the summary @json (borrowed) at @t. */
	bool (*summary_due)(const void *state, double t);
	void (*summary)(void *state, double t, const char *json);
};

/* The rows, one per file. */
extern const struct tp_live_target live_target_runfile;	/* runfile.c */
extern const struct tp_live_target live_target_prom;		/* promfile.c */
extern const struct tp_live_target live_target_influx;		/* httpsend.c */
extern const struct tp_live_target live_target_catalog;	/* catsend.c */

/* The table (live.c), NULL-terminated, in the order the targets open. */
extern const struct tp_live_target *const live_targets[];

#endif
