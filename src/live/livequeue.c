/* SPDX-License-Identifier: MIT */
/* livequeue.c: the sending thread and its lanes (see livequeue.h); the
 * transports are the targets' (httpsend.c: InfluxDB, catsend.c: the
 * catalog).  One mutex guards the lanes and the counters; the thread
 * never holds it while it sends.  A lane's batch goes when it holds
 * `batch` items, when the oldest is `age` s old, or at the end; the first
 * item of all goes at once.  When one lane is ready the thread takes what
 * every lane holds; one request at a time.  The thread is told to stop
 * (abort) through a flag and each lane's wakeup(), so a request that
 * hangs is dropped at once. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "basic/clock.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "live/livequeue.h"

struct tp_livelane {
	struct tp_livequeue *q;
	const struct tp_livelane_kind *k;
	void *ctx;
	char **items;			/* queued, oldest first */
	size_t n;
	double oldest;			/* when items[0] was queued (mono) */
	char **out;			/* taken by the thread, being sent */
	size_t nout;
	unsigned long total, dropped;
	char err[160];			/* the first failure */
};

struct tp_livequeue {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct tp_livelane *lanes[LIVEQUEUE_LANES];
	size_t nlanes;
	bool closing, abort;
	bool busy;			/* a request in flight */
	double busy_since;
	bool last_failed;		/* the last request failed */
	bool tried;			/* a request was made */
	bool ever_ok;			/* one succeeded */
	double slowest_ok;		/* the longest a successful one took, s */
};

/* The one queue handed to livequeue_end(), for the atexit handler. */
static struct tp_livequeue *ending;
static bool exit_registered;

void livequeue_fail(struct tp_livelane *l, const char *why)
{
	pthread_mutex_lock(&l->q->lock);
	if (!l->err[0])
		snprintf(l->err, sizeof(l->err), "%s", why);
	pthread_mutex_unlock(&l->q->lock);
}

bool livequeue_aborted(struct tp_livelane *l)
{
	bool stop;

	pthread_mutex_lock(&l->q->lock);
	stop = l->q->abort;
	pthread_mutex_unlock(&l->q->lock);
	return stop;
}

void livequeue_counts(struct tp_livelane *l, unsigned long *total, unsigned long *dropped)
{
	pthread_mutex_lock(&l->q->lock);
	*total = l->total;
	*dropped = l->dropped;
	pthread_mutex_unlock(&l->q->lock);
}

/* --- the thread ------------------------------------------------------- */

static bool lane_ready(const struct tp_livequeue *q, const struct tp_livelane *l)
{
	/* the first item goes at once: whether the collector answers is
	 * then known early, and the exit knows whether to wait for it */
	return l->n && (q->closing || !q->tried || l->n >= l->k->batch ||
			clock_mono() - l->oldest >= l->k->age);
}

/* Under the lock: is a lane ready?  Else, in *@until, how long until
 * the oldest batch is (s). */
static bool any_ready(const struct tp_livequeue *q, double *until)
{
	size_t i;

	*until = 3600;
	for (i = 0; i < q->nlanes; i++) {
		const struct tp_livelane *l = q->lanes[i];

		if (lane_ready(q, l))
			return true;
		if (l->n && l->oldest + l->k->age - clock_mono() < *until)
			*until = l->oldest + l->k->age - clock_mono();
	}
	return false;
}

static void wait_for(struct tp_livequeue *q, double until)
{
	struct timespec ts;

	if (until < 0.01)
		until = 0.01;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)until;
	ts.tv_nsec += (long)((until - (double)(time_t)until) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&q->wake, &q->lock, &ts);
}

/* Under the lock: until there is work (every lane's items moved to its
 * out), the end, or an abort.  false: the thread ends. */
static bool next_work(struct tp_livequeue *q)
{
	for (;;) {
		double until;

		if (q->abort)
			return false;
		if (any_ready(q, &until)) {
			size_t i;

			for (i = 0; i < q->nlanes; i++) {
				struct tp_livelane *l = q->lanes[i];

				l->out = l->items;
				l->nout = l->n;
				l->items = NULL;
				l->n = 0;
			}
			q->busy = true;
			q->tried = true;
			q->busy_since = clock_mono();
			return true;
		}
		if (q->closing)
			return false;
		wait_for(q, until);
	}
}

/* Under the lock: how long a successful request takes. */
static void note_result(struct tp_livequeue *q, int r)
{
	double took = clock_mono() - q->busy_since;

	if (r < 0)
		return;
	q->ever_ok = true;
	if (took > q->slowest_ok)
		q->slowest_ok = took;
}

/* Send what @l's out holds, as one body; the items are freed. */
static void send_out(struct tp_livequeue *q, struct tp_livelane *l)
{
	size_t len = 0, i, n = l->nout;
	char *body, *p;
	int r;

	for (i = 0; i < n; i++)
		len += strlen(l->out[i]);
	body = p = xmalloc(len + 1);
	for (i = 0; i < n; i++) {
		size_t sl = strlen(l->out[i]);

		memcpy(p, l->out[i], sl);
		p += sl;
		free(l->out[i]);
	}
	*p = '\0';
	free(l->out);
	l->out = NULL;
	l->nout = 0;
	r = l->k->send(l, l->ctx, body, len);
	free(body);
	pthread_mutex_lock(&q->lock);
	if (r < 0)
		l->dropped += n;
	q->last_failed = r < 0;
	note_result(q, r);
	pthread_mutex_unlock(&q->lock);
}

static void *queue_thread(void *arg)
{
	struct tp_livequeue *q = arg;

	pthread_mutex_lock(&q->lock);
	while (next_work(q)) {
		size_t i, n = q->nlanes;

		pthread_mutex_unlock(&q->lock);
		for (i = 0; i < n; i++)
			if (q->lanes[i]->nout)
				send_out(q, q->lanes[i]);
		pthread_mutex_lock(&q->lock);
		q->busy = false;
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

/* --- the loop's side -------------------------------------------------- */

static void lane_free(struct tp_livelane *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
	if (l->k->free)
		l->k->free(l->ctx);
	free(l);
}

static void queue_free(struct tp_livequeue *q)
{
	size_t i;

	for (i = 0; i < q->nlanes; i++)
		lane_free(q->lanes[i]);
	pthread_cond_destroy(&q->wake);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

struct tp_livequeue *livequeue_new(char *why, size_t whylen)
{
	struct tp_livequeue *q = xcalloc(1, sizeof(*q));
	pthread_condattr_t ca;
	sigset_t all, old;
	int r;

	pthread_mutex_init(&q->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&q->wake, &ca);
	pthread_condattr_destroy(&ca);
	/* the loop takes its signals with sigtimedwait(): none may go to
	 * this thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&q->thread, NULL, queue_thread, q);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r) {
		snprintf(why, whylen, "no sending thread: %s", strerror(r));
		queue_free(q);
		return NULL;
	}
	return q;
}

struct tp_livequeue *livequeue_need(struct tp_livequeue **q, char *why, size_t whylen)
{
	if (!*q)
		*q = livequeue_new(why, whylen);
	return *q;
}

struct tp_livelane *livequeue_lane(struct tp_livequeue *q, const struct tp_livelane_kind *k,
				   void *ctx)
{
	struct tp_livelane *l = xcalloc(1, sizeof(*l));

	l->q = q;
	l->k = k;
	l->ctx = ctx;
	pthread_mutex_lock(&q->lock);
	if (q->nlanes >= LIVEQUEUE_LANES)
		error_msg_and_die("live queue: more than %d lanes", LIVEQUEUE_LANES);
	q->lanes[q->nlanes++] = l;
	pthread_mutex_unlock(&q->lock);
	return l;
}

void livequeue_put(struct tp_livelane *l, char *item)
{
	struct tp_livequeue *q = l->q;

	pthread_mutex_lock(&q->lock);
	l->total++;
	if (l->n >= l->k->max) {
		/* the oldest goes: the newest figures matter most */
		free(l->items[0]);
		memmove(l->items, l->items + 1, (l->n - 1) * sizeof(*l->items));
		l->n--;
		l->dropped++;
		if (l->k->full && !l->err[0])
			snprintf(l->err, sizeof(l->err), "%s", l->k->full);
	}
	if (!l->n)
		l->oldest = clock_mono();
	l->items = xreallocarray(l->items, l->n + 1, sizeof(*l->items));
	l->items[l->n++] = item;
	if (lane_ready(q, l))
		pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->lock);
}

/* Under the lock: may the exit wait for the thread a little longer?  Only
 * for collectors that have answered, and that answer in time: a request
 * in flight for STUCK_FACTOR times the slowest answer so far (at least
 * STUCK_MIN s, at most STUCK_MAX) is given up. */
#define STUCK_FACTOR 4
#define STUCK_MIN 0.1
#define STUCK_MAX 0.5
static bool worth_waiting(const struct tp_livequeue *q, double deadline)
{
	double now = clock_mono(), stuck = STUCK_FACTOR * q->slowest_ok;
	size_t i;

	if (stuck > STUCK_MAX)
		stuck = STUCK_MAX;
	if (now >= deadline || q->last_failed || !q->ever_ok)
		return false;
	if (q->busy && now - q->busy_since > (stuck > STUCK_MIN ? stuck : STUCK_MIN))
		return false;
	for (i = 0; i < q->nlanes; i++)
		if (q->lanes[i]->n)
			return true;
	return q->busy;
}

/* What was not sent, said once per lane; what is left never was. */
static void tell_losses(struct tp_livequeue *q)
{
	size_t i;

	for (i = 0; i < q->nlanes; i++) {
		struct tp_livelane *l = q->lanes[i];

		l->dropped += l->n;
		if (l->dropped)
			warn_msg("%s: %lu of %lu %s not sent (%s)", l->k->name, l->dropped, l->total,
				 l->k->items, l->err[0] ? l->err : l->k->silence);
	}
}

static void queue_exit(void)
{
	struct tp_livequeue *q = ending;
	double deadline = clock_mono() + LIVEQUEUE_EXIT_WAIT;
	size_t i;

	if (!q)
		return;
	ending = NULL;
	pthread_mutex_lock(&q->lock);
	while (worth_waiting(q, deadline)) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		pthread_mutex_unlock(&q->lock);
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&q->lock);
	}
	q->abort = true;
	pthread_cond_signal(&q->wake);
	for (i = 0; i < q->nlanes; i++)
		if (q->lanes[i]->k->wakeup)
			q->lanes[i]->k->wakeup(q->lanes[i]->ctx);
	pthread_mutex_unlock(&q->lock);
	debug_msg("sender: waited %.3f s at exit", clock_mono() - deadline + LIVEQUEUE_EXIT_WAIT);
	pthread_join(q->thread, NULL);
	debug_msg("sender: stopped %.3f s after exit", clock_mono() - deadline + LIVEQUEUE_EXIT_WAIT);
	tell_losses(q);
	queue_free(q);
}

void livequeue_end(struct tp_livequeue *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->closing = true;
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->lock);
	queue_exit();	/* an earlier queue's end first: one waits at a time */
	ending = q;
	if (!exit_registered)
		atexit(queue_exit);
	exit_registered = true;
}
