/* SPDX-License-Identifier: MIT */
/* sender.c: the sending thread and its queue (see sender.h); the
 * transports are httpsend.c (InfluxDB) and catsend.c (the catalog),
 * senderint.h between them.  One mutex guards the
 * queues and the counters; the thread never holds it while it sends.  It
 * sends a batch of lines when BATCH_LINES are queued, when the oldest is
 * BATCH_AGE s old, or at the end; one request at a time, with short
 * timeouts.  The thread is told to stop (abort) through a flag and
 * curl_multi_wakeup(), so a request that hangs is dropped at once. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "basic/clock.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "live/senderint.h"

#define QUEUE_MAX 600		/* lines: 10 min of samples at 1/s */
#define BATCH_LINES 10
#define BATCH_AGE 5.0		/* s */

/* The one sender handed to sender_end(), for the atexit handler. */
static struct tp_sender *ending;
static bool exit_registered;

void sender_note_error(char *buf, size_t len, const char *what)
{
	if (!buf[0])
		snprintf(buf, len, "%s", what);
}

bool sender_aborted(struct tp_sender *s)
{
	bool stop;

	pthread_mutex_lock(&s->lock);
	stop = s->abort;
	pthread_mutex_unlock(&s->lock);
	return stop;
}

/* --- the thread ------------------------------------------------------- */

static bool batch_ready(const struct tp_sender *s)
{
	/* the first line goes at once: whether the collector answers is
	 * then known early, and the exit knows whether to wait for it */
	return s->nlines && (s->closing || !s->tried || s->nlines >= BATCH_LINES ||
			     clock_mono() - s->oldest >= BATCH_AGE);
}

/* Under the lock: until there is work (*lines and *n, or *cat), the end,
 * or an abort.  false: the thread ends. */
static bool next_work(struct tp_sender *s, char ***lines, size_t *n, char **cat)
{
	for (;;) {
		struct timespec ts;
		double until;

		if (s->abort)
			return false;
		if (batch_ready(s) || s->cat_text) {
			*lines = s->lines;
			*n = s->nlines;
			*cat = s->cat_text;
			s->lines = NULL;
			s->nlines = 0;
			s->cat_text = NULL;
			s->busy = true;
			s->tried = true;
			s->busy_since = clock_mono();
			return true;
		}
		if (s->closing)
			return false;
		until = s->nlines ? s->oldest + BATCH_AGE - clock_mono() : 3600;
		if (until < 0.01)
			until = 0.01;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += (time_t)until;
		ts.tv_nsec += (long)((until - (double)(time_t)until) * 1e9);
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&s->wake, &s->lock, &ts);
	}
}

/* Under the lock: how long a successful request takes. */
static void note_result(struct tp_sender *s, int r)
{
	double took = clock_mono() - s->busy_since;

	if (r < 0)
		return;
	s->ever_ok = true;
	if (took > s->slowest_ok)
		s->slowest_ok = took;
}

/* Send @n lines as one body; they are freed. */
static void send_lines(struct tp_sender *s, char **lines, size_t n)
{
	size_t len = 0, i;
	char *body, *p;
	int r;

	for (i = 0; i < n; i++)
		len += strlen(lines[i]);
	body = p = xmalloc(len + 1);
	for (i = 0; i < n; i++) {
		size_t l = strlen(lines[i]);

		memcpy(p, lines[i], l);
		p += l;
		free(lines[i]);
	}
	*p = '\0';
	free(lines);
	r = httpsend_post(s, body, len);
	free(body);
	pthread_mutex_lock(&s->lock);
	if (r < 0)
		s->lines_dropped += n;
	s->last_failed = r < 0;
	note_result(s, r);
	pthread_mutex_unlock(&s->lock);
}

static void *sender_thread(void *arg)
{
	struct tp_sender *s = arg;
	char **lines, *cat;
	size_t n;

	pthread_mutex_lock(&s->lock);
	while (next_work(s, &lines, &n, &cat)) {
		pthread_mutex_unlock(&s->lock);
		if (n)
			send_lines(s, lines, n);
		if (cat) {
			int r = catsend_send(s, cat);

			free(cat);
			pthread_mutex_lock(&s->lock);
			if (r < 0)
				s->cat_failed++;
			s->last_failed = r < 0;
			note_result(s, r);
			pthread_mutex_unlock(&s->lock);
		}
		pthread_mutex_lock(&s->lock);
		s->busy = false;
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* --- the loop's side -------------------------------------------------- */

static void sender_free(struct tp_sender *s)
{
	size_t i;

	for (i = 0; i < s->nlines; i++)
		free(s->lines[i]);
	free(s->lines);
	free(s->cat_text);
	httpsend_free(s->http);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	free(s->influx_url);
	free(s->catalog);
	free(s);
}

struct tp_sender *sender_new(const char *influx_url, const char *catalog, bool udp,
			     char *why, size_t whylen)
{
	struct tp_sender *s;
	pthread_condattr_t ca;
	sigset_t all, old;
	int r;

#ifndef HAVE_LIBCURL
	if (influx_url && !catalog) {
		snprintf(why, whylen, "--influxdb: this tpmon was built without libcurl");
		return NULL;
	}
	if (influx_url)
		warn_msg("note: --influxdb: this tpmon was built without libcurl; nothing sent");
#endif
	s = xcalloc(1, sizeof(*s));
#ifdef HAVE_LIBCURL
	s->influx_url = influx_url ? xstrdup(influx_url) : NULL;
#endif
	s->catalog = catalog ? xstrdup(catalog) : NULL;
	s->udp = udp;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
#ifdef HAVE_LIBCURL
	if (s->influx_url && !(s->http = httpsend_new(why, whylen))) {
		if (!s->catalog) {
			sender_free(s);
			return NULL;
		}
		warn_msg("note: %s; nothing sent to InfluxDB", why);
		free(s->influx_url);
		s->influx_url = NULL;
	}
#endif
	/* the loop takes its signals with sigtimedwait(): none may go to
	 * this thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&s->thread, NULL, sender_thread, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r) {
		snprintf(why, whylen, "no sending thread: %s", strerror(r));
		sender_free(s);
		return NULL;
	}
	return s;
}

bool sender_influx_on(const struct tp_sender *s)
{
	return s && s->influx_url;
}

void sender_influx(struct tp_sender *s, char *line)
{
	pthread_mutex_lock(&s->lock);
	s->lines_total++;
	if (s->nlines >= QUEUE_MAX) {
		/* the oldest goes: the newest figures matter most */
		free(s->lines[0]);
		memmove(s->lines, s->lines + 1, (s->nlines - 1) * sizeof(*s->lines));
		s->nlines--;
		s->lines_dropped++;
		sender_note_error(s->influx_err, sizeof(s->influx_err), "the queue was full");
	}
	if (!s->nlines)
		s->oldest = clock_mono();
	s->lines = xreallocarray(s->lines, s->nlines + 1, sizeof(*s->lines));
	s->lines[s->nlines++] = line;
	if (batch_ready(s))
		pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

void sender_catalog(struct tp_sender *s, char *text)
{
	pthread_mutex_lock(&s->lock);
	s->cat_total++;
	if (s->cat_text)
		s->cat_failed++;	/* never sent: replaced */
	free(s->cat_text);
	s->cat_text = text;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

/* Under the lock: may the exit wait for the thread a little longer?  Only
 * for a collector that has answered, and that answers in time: a request
 * in flight for STUCK_FACTOR times the slowest answer so far (at least
 * STUCK_MIN s, at most STUCK_MAX) is given up. */
#define STUCK_FACTOR 4
#define STUCK_MIN 0.1
#define STUCK_MAX 0.5
static bool worth_waiting(const struct tp_sender *s, double deadline)
{
	double now = clock_mono(), stuck = STUCK_FACTOR * s->slowest_ok;

	if (stuck > STUCK_MAX)
		stuck = STUCK_MAX;
	if (now >= deadline || s->last_failed || !s->ever_ok)
		return false;
	if (s->busy && now - s->busy_since > (stuck > STUCK_MIN ? stuck : STUCK_MIN))
		return false;
	return s->busy || s->nlines || s->cat_text;
}

/* What was not sent, said once. */
static void tell_losses(const struct tp_sender *s)
{
	if (s->influx_url && s->lines_dropped)
		warn_msg("influxdb: %lu of %lu samples not sent (%s)", s->lines_dropped,
			 s->lines_total, s->influx_err[0] ? s->influx_err : "the collector did not answer in time");
	if (s->catalog && s->cat_failed)
		warn_msg("catalog: %lu of %lu updates not sent (%s)", s->cat_failed, s->cat_total,
			 s->cat_err[0] ? s->cat_err : "the server did not answer in time");
}

static void sender_exit(void)
{
	struct tp_sender *s = ending;
	double deadline = clock_mono() + SENDER_EXIT_WAIT;

	if (!s)
		return;
	ending = NULL;
	pthread_mutex_lock(&s->lock);
	while (worth_waiting(s, deadline)) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		pthread_mutex_unlock(&s->lock);
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&s->lock);
	}
	s->abort = true;
	pthread_cond_signal(&s->wake);
	httpsend_wakeup(s->http);
	pthread_mutex_unlock(&s->lock);
	debug_msg("sender: waited %.3f s at exit", clock_mono() - deadline + SENDER_EXIT_WAIT);
	pthread_join(s->thread, NULL);
	debug_msg("sender: stopped %.3f s after exit", clock_mono() - deadline + SENDER_EXIT_WAIT);
	/* what is left was never sent */
	s->lines_dropped += s->nlines;
	if (s->cat_text)
		s->cat_failed++;
	tell_losses(s);
	sender_free(s);
}

void sender_end(struct tp_sender *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->closing = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	sender_exit();	/* an earlier sender's end first: one waits at a time */
	ending = s;
	if (!exit_registered)
		atexit(sender_exit);
	exit_registered = true;
}
