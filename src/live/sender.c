/* SPDX-License-Identifier: MIT */
/* sender.c: the sending thread (see sender.h).  One mutex guards the
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
#ifdef HAVE_LIBCURL
#include <curl/curl.h>
#include <dlfcn.h>
#endif
#include "basic/clock.h"
#include "basic/messages.h"
#include "live/sender.h"
#include "basic/xmalloc.h"

#define QUEUE_MAX 600		/* lines: 10 min of samples at 1/s */
#define BATCH_LINES 10
#define BATCH_AGE 5.0		/* s */
#define CONNECT_TIMEOUT_MS 1000
#define REQUEST_TIMEOUT_MS 2000
#define CATALOG_PORT 9097
#define CATALOG_TIMEOUT 5.0	/* s */

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
#endif

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
#ifdef HAVE_LIBCURL
	struct curl_api cu;		/* loaded, or cu.dl NULL */
	CURLM *multi;
#endif
};

/* The one sender handed to sender_end(), for the atexit handler. */
static struct tp_sender *ending;

/* Keep the first failure's reason @what in @buf. */
static void note_error(char *buf, size_t len, const char *what)
{
	if (!buf[0])
		snprintf(buf, len, "%s", what);
}

/* --- InfluxDB --------------------------------------------------------- */

#ifdef HAVE_LIBCURL
static int aborted_cb(void *arg, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
	struct tp_sender *s = arg;
	bool stop;

	pthread_mutex_lock(&s->lock);
	stop = s->abort;
	pthread_mutex_unlock(&s->lock);
	return stop;
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

/* POST @body; 0, or -1 with the reason in s->influx_err. */
static int influx_post(struct tp_sender *s, const char *body, size_t len)
{
	CURL *h = s->cu.easy_init();
	CURLcode res = CURLE_OK;
	long code = 0;
	int running = 1;
	CURLMsg *msg;
	int left;

	if (!h)
		return -1;
	s->cu.easy_setopt(h, CURLOPT_URL, s->influx_url);
	s->cu.easy_setopt(h, CURLOPT_POSTFIELDS, body);
	s->cu.easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)len);
	s->cu.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	s->cu.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)CONNECT_TIMEOUT_MS);
	s->cu.easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)REQUEST_TIMEOUT_MS);
	s->cu.easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	s->cu.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, aborted_cb);
	s->cu.easy_setopt(h, CURLOPT_XFERINFODATA, s);
	s->cu.easy_setopt(h, CURLOPT_WRITEFUNCTION, discard_cb);
	s->cu.multi_add_handle(s->multi, h);
	while (running) {
		if (s->cu.multi_perform(s->multi, &running) != CURLM_OK)
			break;
		if (running && s->cu.multi_poll(s->multi, NULL, 0, 200, NULL) != CURLM_OK)
			break;
		if (aborted_cb(s, 0, 0, 0, 0)) {
			res = CURLE_ABORTED_BY_CALLBACK;
			break;
		}
	}
	while ((msg = s->cu.multi_info_read(s->multi, &left)))
		if (msg->msg == CURLMSG_DONE && res == CURLE_OK)
			res = msg->data.result;
	s->cu.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	s->cu.multi_remove_handle(s->multi, h);
	s->cu.easy_cleanup(h);
	pthread_mutex_lock(&s->lock);
	if (res != CURLE_OK)
		note_error(s->influx_err, sizeof(s->influx_err), s->cu.easy_strerror(res));
	else if ((code < 200 || code > 299) && !s->influx_err[0])
		snprintf(s->influx_err, sizeof(s->influx_err), "HTTP status %ld", code);
	pthread_mutex_unlock(&s->lock);
	return res == CURLE_OK && code >= 200 && code <= 299 ? 0 : -1;
}
#else
static int influx_post(struct tp_sender *s, const char *body, size_t len)
{
	return -1;
}
#endif

/* --- the catalog ------------------------------------------------------ */

static bool is_aborted(struct tp_sender *s)
{
	bool stop;

	pthread_mutex_lock(&s->lock);
	stop = s->abort;
	pthread_mutex_unlock(&s->lock);
	return stop;
}

/* Wait until @fd is ready for @events, in slices that look at the abort
 * flag, until @deadline (mono).  0, or -1 (timed out, aborted). */
static int wait_fd(struct tp_sender *s, int fd, short events, double deadline)
{
	struct pollfd p = { .fd = fd, .events = events };

	while (!is_aborted(s) && clock_mono() < deadline) {
		int r = poll(&p, 1, 100);

		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
	}
	errno = ETIMEDOUT;
	return -1;
}

/* The address of @host (a name, or an IP address), port @port.  0, or
 * -1 with the reason in @why.  A static glibc resolves names only beside
 * its own NSS modules: there, IP addresses only, without getaddrinfo(). */
struct address {
	struct sockaddr_storage sa;
	socklen_t len;
};

static int resolve(const char *host, int port, bool udp, struct address *a, const char **why)
{
#ifdef TP_STATIC_GLIBC
	struct sockaddr_in *in = (struct sockaddr_in *)&a->sa;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a->sa;

	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		a->len = sizeof(*in);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		a->len = sizeof(*in6);
		return 0;
	}
	*why = "a static tpmon takes IP addresses only";
	return -1;
#else
	struct addrinfo hints = { .ai_socktype = udp ? SOCK_DGRAM : SOCK_STREAM }, *res;
	char service[16];
	int r;

	snprintf(service, sizeof(service), "%d", port);
	r = getaddrinfo(host, service, &hints, &res);
	if (r) {
		*why = gai_strerror(r);
		return -1;
	}
	memcpy(&a->sa, res->ai_addr, res->ai_addrlen);
	a->len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
#endif
}

static int tcp_send(struct tp_sender *s, const struct address *a, const char *text)
{
	double deadline = clock_mono() + CATALOG_TIMEOUT;
	size_t len = strlen(text), off = 0;
	int fd = socket(a->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), err = 0;
	socklen_t elen = sizeof(err);

	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&a->sa, a->len) < 0 && errno != EINPROGRESS)
		goto fail;
	if (wait_fd(s, fd, POLLOUT, deadline) < 0)
		goto fail;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0 || err) {
		errno = err ? err : errno;
		goto fail;
	}
	while (off < len) {
		ssize_t n = send(fd, text + off, len - off, MSG_NOSIGNAL);

		if (n > 0) {
			off += (size_t)n;
		} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
			goto fail;
		} else if (wait_fd(s, fd, POLLOUT, deadline) < 0) {
			goto fail;
		}
	}
	close(fd);
	return 0;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

/* Send @text to one "host[:port]" (port: CATALOG_PORT, else 9097), by
 * UDP to the port or by TCP to the port + 1, as cctools does.  0, or -1
 * with a reason in s->cat_err. */
static int catalog_one(struct tp_sender *s, const char *hostport, const char *text)
{
	const char *colon = strrchr(hostport, ':');
	const char *env = getenv("CATALOG_PORT"), *why = NULL;
	long p = colon ? strtol(colon + 1, NULL, 10) : env ? strtol(env, NULL, 10) : CATALOG_PORT;
	struct address a;
	char host[256];
	int r;

	snprintf(host, sizeof(host), "%.*s", colon ? (int)(colon - hostport) : (int)strlen(hostport),
		 hostport);
	if (p <= 0 || p >= 65535) {
		why = "bad port";
		r = -1;
	} else {
		r = resolve(host, (int)(s->udp ? p : p + 1), s->udp, &a, &why);
	}
	if (r == 0 && s->udp) {
		int fd = socket(a.sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		r = fd < 0 || sendto(fd, text, strlen(text), 0, (const struct sockaddr *)&a.sa,
				     a.len) < 0 ? -1 : 0;
		if (fd >= 0)
			close(fd);
	} else if (r == 0) {
		r = tcp_send(s, &a, text);
	}
	if (r < 0) {
		pthread_mutex_lock(&s->lock);
		note_error(s->cat_err, sizeof(s->cat_err), why ? why : strerror(errno));
		pthread_mutex_unlock(&s->lock);
	}
	return r;
}

/* To every server of the list; 0 if one took it. */
static int catalog_send(struct tp_sender *s, const char *text)
{
	char *list = xstrdup(s->catalog), *save = NULL, *h;
	int ok = -1;

	for (h = strtok_r(list, ",", &save); h; h = strtok_r(NULL, ",", &save))
		if (catalog_one(s, h, text) == 0)
			ok = 0;
	free(list);
	return ok;
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
	r = influx_post(s, body, len);
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
			int r = catalog_send(s, cat);

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
#ifdef HAVE_LIBCURL
	if (s->multi) {
		s->cu.multi_cleanup(s->multi);
		s->cu.global_cleanup();
	}
	/* libcurl stays loaded: its libraries may hold thread keys and
	 * atexit handlers */
#endif
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
	if (s->influx_url && curl_load(&s->cu, why, whylen) < 0) {
		if (!s->catalog) {
			sender_free(s);
			return NULL;
		}
		warn_msg("note: %s; nothing sent to InfluxDB", why);
		free(s->influx_url);
		s->influx_url = NULL;
	}
	if (s->influx_url) {
		s->cu.global_init(CURL_GLOBAL_DEFAULT);
		s->multi = s->cu.multi_init();
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
		note_error(s->influx_err, sizeof(s->influx_err), "the queue was full");
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
#ifdef HAVE_LIBCURL
	if (s->multi)
		s->cu.multi_wakeup(s->multi);
#endif
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
	ending = s;
	atexit(sender_exit);
}
