/* SPDX-License-Identifier: MIT */
/* httpsend.c: the InfluxDB target (--influxdb): its row, which queues
 * one line of line protocol (influx.c) per point on its lane of the
 * sending thread (livequeue.c), and its HTTP transport: a POST of the
 * lines to InfluxDB's write URL through libcurl, loaded with dlopen() at
 * run time, one request at a time with short timeouts, dropped at once
 * when the queue is aborted (curl_multi_wakeup()).  Without libcurl at
 * build time (configure --without-libcurl, the fully static build), the
 * target says so and is left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_LIBCURL
#include <curl/curl.h>
#include <dlfcn.h>
#endif
#include "basic/xmalloc.h"
#include "live/livetarget.h"

#define CONNECT_TIMEOUT_MS 1000
#define REQUEST_TIMEOUT_MS 2000

#ifdef HAVE_LIBCURL
/* libcurl, loaded with dlopen() only for --influxdb: linked, it and the
 * libraries it needs (36 of them in Debian) cost every run of tpmon 6 MB
 * of resident memory.  Only these functions are used. */
struct curl_api {
	void *dl;
	CURLcode (*global_init)(long);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
	CURLMcode (*multi_perform)(CURLM *, int *);
	CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned, int, int *);
	CURLMcode (*multi_wakeup)(CURLM *);
	CURLMsg *(*multi_info_read)(CURLM *, int *);
	CURLMcode (*multi_cleanup)(CURLM *);
};

struct tp_http {
	struct curl_api cu;
	CURLM *multi;
	char *url;			/* the write URL */
};

static int aborted_cb(void *arg, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
	return livequeue_aborted(arg);
}

static size_t discard_cb(char *p, size_t size, size_t n, void *arg)
{
	return size * n;
}

/* Load libcurl into @c.  0, or -1 after filling @why. */
static int curl_load(struct curl_api *c, char *why, size_t whylen)
{
	static const char *const names[] = {
		"curl_global_init", "curl_global_cleanup", "curl_easy_init", "curl_easy_setopt",
		"curl_easy_getinfo", "curl_easy_cleanup", "curl_easy_strerror", "curl_multi_init",
		"curl_multi_add_handle", "curl_multi_remove_handle", "curl_multi_perform",
		"curl_multi_poll", "curl_multi_wakeup", "curl_multi_info_read", "curl_multi_cleanup",
	};
	void **slot[] = {
		(void **)&c->global_init, (void **)&c->global_cleanup, (void **)&c->easy_init,
		(void **)&c->easy_setopt, (void **)&c->easy_getinfo, (void **)&c->easy_cleanup,
		(void **)&c->easy_strerror, (void **)&c->multi_init, (void **)&c->multi_add_handle,
		(void **)&c->multi_remove_handle, (void **)&c->multi_perform, (void **)&c->multi_poll,
		(void **)&c->multi_wakeup, (void **)&c->multi_info_read, (void **)&c->multi_cleanup,
	};
	size_t i;

	c->dl = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
	if (!c->dl) {
		snprintf(why, whylen, "--influxdb: cannot load libcurl: %s", dlerror());
		return -1;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		*slot[i] = dlsym(c->dl, names[i]);
		if (!*slot[i]) {
			/* curl_multi_wakeup: 7.68 (2020) */
			snprintf(why, whylen, "--influxdb: libcurl has no %s (too old)", names[i]);
			dlclose(c->dl);
			c->dl = NULL;
			return -1;
		}
	}
	return 0;
}

/* POST @body (@len bytes) to the write URL; 0, or -1 after
 * livequeue_fail().  Gives up at once when the queue is aborted. */
static int http_post(struct tp_livelane *l, void *ctx, const char *body, size_t len)
{
	struct tp_http *t = ctx;
	CURL *h = t->cu.easy_init();
	CURLcode res = CURLE_OK;
	long code = 0;
	int running = 1;
	CURLMsg *msg;
	int left;

	if (!h)
		return -1;
	t->cu.easy_setopt(h, CURLOPT_URL, t->url);
	t->cu.easy_setopt(h, CURLOPT_POSTFIELDS, body);
	t->cu.easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)len);
	t->cu.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	t->cu.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)CONNECT_TIMEOUT_MS);
	t->cu.easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)REQUEST_TIMEOUT_MS);
	t->cu.easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	t->cu.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, aborted_cb);
	t->cu.easy_setopt(h, CURLOPT_XFERINFODATA, l);
	t->cu.easy_setopt(h, CURLOPT_WRITEFUNCTION, discard_cb);
	t->cu.multi_add_handle(t->multi, h);
	while (running) {
		if (t->cu.multi_perform(t->multi, &running) != CURLM_OK)
			break;
		if (running && t->cu.multi_poll(t->multi, NULL, 0, 200, NULL) != CURLM_OK)
			break;
		if (aborted_cb(l, 0, 0, 0, 0)) {
			res = CURLE_ABORTED_BY_CALLBACK;
			break;
		}
	}
	while ((msg = t->cu.multi_info_read(t->multi, &left)))
		if (msg->msg == CURLMSG_DONE && res == CURLE_OK)
			res = msg->data.result;
	t->cu.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	t->cu.multi_remove_handle(t->multi, h);
	t->cu.easy_cleanup(h);
	if (res != CURLE_OK) {
		livequeue_fail(l, t->cu.easy_strerror(res));
	} else if (code < 200 || code > 299) {
		char why[32];

		snprintf(why, sizeof(why), "HTTP status %ld", code);
		livequeue_fail(l, why);
	}
	return res == CURLE_OK && code >= 200 && code <= 299 ? 0 : -1;
}

/* libcurl loaded and a multi handle for the write URL @url (taken
 * over); NULL after filling @why. */
static struct tp_http *http_new(char *url, char *why, size_t whylen)
{
	struct tp_http *t = xcalloc(1, sizeof(*t));

	if (curl_load(&t->cu, why, whylen) < 0) {
		free(t);
		free(url);
		return NULL;
	}
	t->cu.global_init(CURL_GLOBAL_DEFAULT);
	t->multi = t->cu.multi_init();
	t->url = url;
	return t;
}

static void http_wakeup(void *ctx)
{
	struct tp_http *t = ctx;

	if (t->multi)
		t->cu.multi_wakeup(t->multi);
}

static void http_free(void *ctx)
{
	struct tp_http *t = ctx;

	free(t->url);
	if (t->multi)
		t->cu.multi_cleanup(t->multi);
	t->cu.global_cleanup();
	/* libcurl stays loaded: its libraries may hold thread keys and
	 * atexit handlers */
	free(t);
}
#else
struct tp_http;

static struct tp_http *http_new(char *url, char *why, size_t whylen)
{
	free(url);
	snprintf(why, whylen, "--influxdb: this tpmon was built without libcurl");
	return NULL;
}

static int http_post(struct tp_livelane *l, void *ctx, const char *body, size_t len)
{
	return -1;
}

static void http_wakeup(void *ctx)
{
}

static void http_free(void *ctx)
{
}
#endif

/* --- the target ------------------------------------------------------- */

static const struct tp_livelane_kind influx_lane = {
	.name = "influxdb",
	.items = "samples",
	.silence = "the collector did not answer in time",
	.full = "the queue was full",
	.max = 600,			/* 10 min of samples at 1/s */
	.batch = 10,
	.age = 5.0,			/* s */
	.send = http_post,
	.wakeup = http_wakeup,
	.free = http_free,
};

struct influx_target {
	const struct tp_live_meta *m;
	struct tp_livelane *lane;
};

static bool influx_wanted(const struct tp_options *o)
{
	return o->influxdb != NULL;
}

static void *influx_open(const struct tp_options *o, const struct tp_live_meta *m,
			 struct tp_livequeue **q, char *why, size_t whylen)
{
	struct tp_http *h = http_new(influx_write_url(o->influxdb), why, whylen);
	struct influx_target *t;

	if (!h || !livequeue_need(q, why, whylen)) {
		size_t len = strlen(why);

		if (h)
			http_free(h);
		snprintf(why + len, whylen - len, "; nothing sent");
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->m = m;
	t->lane = livequeue_lane(*q, &influx_lane, h);
	return t;
}

static void influx_point(void *state, const struct tp_live_point *p,
			 const struct tp_live_rates *rt, double now)
{
	struct influx_target *t = state;

	livequeue_put(t->lane, influx_line(t->m, p, now));
}

static void influx_close(void *state)
{
	free(state);
}

const struct tp_live_target live_target_influx = {
	.name = "influxdb",
	.wanted = influx_wanted,
	.open = influx_open,
	.point = influx_point,
	.final = influx_point,
	.close = influx_close,
};
