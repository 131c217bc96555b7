/* SPDX-License-Identifier: MIT */
/* livequeue.h: a thread that sends the live figures over the network,
 * so that a collector that is down, slow or silent never delays the loop,
 * the task or the summary.  Each network target (InfluxDB, the catalog)
 * opens a lane: its items (text, taken over) and the transport that sends
 * them.  The loop only queues (bounded per lane: what overflows is
 * dropped and counted); at tpmon's exit the thread gets a short time to
 * finish if the collectors have been answering, and none if not, and one
 * line per lane says what was not sent. */
#ifndef TPMON_LIVEQUEUE_H
#define TPMON_LIVEQUEUE_H

#include <stdbool.h>
#include <stddef.h>

struct tp_livequeue;
struct tp_livelane;

/* What a lane is: how its items are batched, how they are sent, and how
 * its losses are told ("NAME: N of M ITEMS not sent (REASON)"). */
struct tp_livelane_kind {
	const char *name;		/* "influxdb" */
	const char *items;		/* "samples" */
	const char *silence;		/* the reason when no failure was seen */
	const char *full;		/* the reason an overflow gives, or NULL */
	size_t max;			/* items queued at most; the oldest goes */
	size_t batch;			/* items sent together (joined) */
	double age;			/* s: a batch goes when its oldest is this old */
	/* Send @len bytes of @body (the items joined) with @ctx; 0, or -1
	 * after livequeue_fail().  Gives up soon after livequeue_aborted(). */
	int (*send)(struct tp_livelane *l, void *ctx, const char *body, size_t len);
	void (*wakeup)(void *ctx);	/* wake a send() to see the abort; may be NULL */
	void (*free)(void *ctx);	/* the ctx, after the thread ended */
};

/* A queue and its thread, with no lane yet.  NULL after filling @why. */
struct tp_livequeue *livequeue_new(char *why, size_t whylen);
/* *@q, made first if NULL: for a target's open(); NULL after filling
 * @why (no thread). */
struct tp_livequeue *livequeue_need(struct tp_livequeue **q, char *why, size_t whylen);

/* A lane of @k (static) on @q, sending with @ctx (taken over: freed by
 * k->free when the queue is).  Owned by @q. */
#define LIVEQUEUE_LANES 8
struct tp_livelane *livequeue_lane(struct tp_livequeue *q, const struct tp_livelane_kind *k,
				   void *ctx);

/* Queue @item (taken over) on @l; the oldest goes when l's kind's max
 * are queued. */
void livequeue_put(struct tp_livelane *l, char *item);

/* For a transport, in the thread: has the queue been told to stop?  Keep
 * the first failure's reason @why for the "not sent" line. */
bool livequeue_aborted(struct tp_livelane *l);
void livequeue_fail(struct tp_livelane *l, const char *why);

/* Items queued on @l so far, and those dropped (overflowed, failed, or
 * left at the end). */
void livequeue_counts(struct tp_livelane *l, unsigned long *total, unsigned long *dropped);

/* Nothing more will be queued: the thread sends what it has while tpmon
 * writes its summary, and is stopped and freed at exit (atexit), after at
 * most LIVEQUEUE_EXIT_WAIT s if the collectors have been answering.  One
 * queue waits at a time: an earlier one is ended first.  NULL is fine. */
#define LIVEQUEUE_EXIT_WAIT 1.0
void livequeue_end(struct tp_livequeue *q);

#endif
