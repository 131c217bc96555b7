/* SPDX-License-Identifier: MIT */
/* senderint.h: the sender's state, shared by its queue and thread
 * (sender.c) and its two transports: HTTP to InfluxDB (httpsend.c,
 * libcurl loaded at run time) and the catalog's UDP or TCP (catsend.c).
 * Private to the three; the rest of tpmon uses sender.h. */
#ifndef TPMON_SENDERINT_H
#define TPMON_SENDERINT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include "live/sender.h"

struct tp_http;

struct tp_sender {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	char *influx_url, *catalog;
	bool udp;
	char **lines;			/* queued, oldest first */
	size_t nlines;
	double oldest;			/* when lines[0] was queued (mono) */
	char *cat_text;			/* a catalog update to send, or NULL */
	bool closing, abort;
	bool busy;			/* a request in flight */
	double busy_since;
	bool last_failed;		/* the last request failed */
	bool tried;			/* a request was made */
	bool ever_ok;			/* one succeeded */
	double slowest_ok;		/* the longest a successful one took, s */
	unsigned long lines_total, lines_dropped;
	unsigned long cat_total, cat_failed;
	char influx_err[160], cat_err[160];	/* the first failure */
	struct tp_http *http;		/* httpsend.c's, or NULL */
};

/* Has the thread been told to stop?  Takes the lock. */
bool sender_aborted(struct tp_sender *s);

/* Keep the first failure's reason @what in @buf. */
void sender_note_error(char *buf, size_t len, const char *what);

/* The HTTP transport: libcurl loaded (dlopen) and a multi handle; NULL
 * after filling @why (libcurl missing or too old, or a tpmon built
 * without it). */
struct tp_http *httpsend_new(char *why, size_t whylen);
/* POST @body (@len bytes) to s->influx_url; 0, or -1 with the reason in
 * s->influx_err.  Gives up at once when the sender is aborted. */
int httpsend_post(struct tp_sender *s, const char *body, size_t len);
/* Wake a request waiting in httpsend_post() (to see the abort). */
void httpsend_wakeup(struct tp_http *h);
void httpsend_free(struct tp_http *h);

/* Send @text to every server of s->catalog (UDP, or TCP to the port + 1,
 * as cctools does); 0 if one took it, else -1 with a reason in
 * s->cat_err. */
int catsend_send(struct tp_sender *s, const char *text);

#endif
