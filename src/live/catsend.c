/* SPDX-License-Identifier: MIT */
/* catsend.c: the cctools catalog target (--catalog-task-name): its row,
 * which queues the summary as a catalog update (catalog.c) at its own
 * pace on its lane of the sending thread (livequeue.c; one update, a new
 * one replacing one not yet sent), and its transport: an update to each
 * server of the list, by UDP to its port or by TCP to the port + 1 (as
 * cctools does), with a deadline and in slices that look at the queue's
 * abort flag. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "basic/clock.h"
#include "basic/xmalloc.h"
#include "live/livetarget.h"

#define CATALOG_PORT 9097
#define CATALOG_TIMEOUT 5.0	/* s */

/* Wait until @fd is ready for @events, in slices that look at the abort
 * flag, until @deadline (mono).  0, or -1 (timed out, aborted). */
static int wait_fd(struct tp_livelane *l, int fd, short events, double deadline)
{
	struct pollfd p = { .fd = fd, .events = events };

	while (!livequeue_aborted(l) && clock_mono() < deadline) {
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

static int tcp_send(struct tp_livelane *l, const struct address *a, const char *text)
{
	double deadline = clock_mono() + CATALOG_TIMEOUT;
	size_t len = strlen(text), off = 0;
	int fd = socket(a->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), err = 0;
	socklen_t elen = sizeof(err);

	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&a->sa, a->len) < 0 && errno != EINPROGRESS)
		goto fail;
	if (wait_fd(l, fd, POLLOUT, deadline) < 0)
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
		} else if (wait_fd(l, fd, POLLOUT, deadline) < 0) {
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

/* The servers ("host[:port],...") and the protocol. */
struct catalog_servers {
	char *hosts;
	bool udp;
};

/* Send @text to one "host[:port]" (port: CATALOG_PORT, else 9097), by
 * UDP to the port or by TCP to the port + 1, as cctools does.  0, or -1
 * after livequeue_fail(). */
static int catalog_one(struct tp_livelane *l, const struct catalog_servers *cs,
		       const char *hostport, const char *text)
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
		r = resolve(host, (int)(cs->udp ? p : p + 1), cs->udp, &a, &why);
	}
	if (r == 0 && cs->udp) {
		int fd = socket(a.sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		r = fd < 0 || sendto(fd, text, strlen(text), 0, (const struct sockaddr *)&a.sa,
				     a.len) < 0 ? -1 : 0;
		if (fd >= 0)
			close(fd);
	} else if (r == 0) {
		r = tcp_send(l, &a, text);
	}
	if (r < 0)
		livequeue_fail(l, why ? why : strerror(errno));
	return r;
}

/* Send the update @text to every server; 0 if one took it. */
static int catalog_send(struct tp_livelane *l, void *ctx, const char *text, size_t len)
{
	const struct catalog_servers *cs = ctx;
	char *list = xstrdup(cs->hosts), *save = NULL, *h;
	int ok = -1;

	for (h = strtok_r(list, ",", &save); h; h = strtok_r(NULL, ",", &save))
		if (catalog_one(l, cs, h, text) == 0)
			ok = 0;
	free(list);
	return ok;
}

static void catalog_servers_free(void *ctx)
{
	struct catalog_servers *cs = ctx;

	free(cs->hosts);
	free(cs);
}

/* --- the target ------------------------------------------------------- */

static const struct tp_livelane_kind catalog_lane = {
	.name = "catalog",
	.items = "updates",
	.silence = "the server did not answer in time",
	.max = 1,			/* a new update replaces one not yet sent */
	.batch = 1,
	.age = 0,
	.send = catalog_send,
	.free = catalog_servers_free,
};

struct catalog_target {
	struct tp_livelane *lane;
	double every, last;		/* s */
	char uuid[37];
	const char *task, *project, *owner;
};

static bool catalog_wanted(const struct tp_options *o)
{
	return o->catalog_task_name != NULL;
}

static void *catalog_open(const struct tp_options *o, const struct tp_live_meta *m,
			  struct tp_livequeue **q, char *why, size_t whylen)
{
	const char *proto = getenv("CATALOG_UPDATE_PROTOCOL");
	const char *hosts = o->catalog ? o->catalog :
			    getenv("CATALOG_HOST") ? getenv("CATALOG_HOST") :
			    "catalog.cse.nd.edu,backup-catalog.cse.nd.edu";
	struct catalog_servers *cs;
	struct catalog_target *t;

	if (!livequeue_need(q, why, whylen)) {
		size_t len = strlen(why);

		snprintf(why + len, whylen - len, "; nothing sent");
		return NULL;
	}
	cs = xcalloc(1, sizeof(*cs));
	cs->hosts = xstrdup(hosts);
	cs->udp = proto && !strcmp(proto, "udp");
	t = xcalloc(1, sizeof(*t));
	t->lane = livequeue_lane(*q, &catalog_lane, cs);
	/* as resource_monitor: 30 s by default, never below the interval */
	t->every = o->catalog_interval > 0 ? o->catalog_interval : 30;
	if (t->every < o->interval)
		t->every = o->interval;
	t->last = -1e9;
	t->task = o->catalog_task_name;
	t->project = o->catalog_project ? o->catalog_project : o->catalog_task_name;
	t->owner = getenv("USER") ? getenv("USER") : "unknown";
	catalog_uuid(t->uuid);
	return t;
}

/* The points are the other targets': the catalog takes the summary. */
static void catalog_point(void *state, const struct tp_live_point *p,
			  const struct tp_live_rates *rt, double now)
{
}

static bool catalog_due(const void *state, double t)
{
	const struct catalog_target *c = state;

	return t - c->last >= c->every;
}

static void catalog_summary(void *state, double t, const char *json)
{
	struct catalog_target *c = state;
	char *text;

	c->last = t;
	text = catalog_text(json, c->uuid, c->owner, c->task, c->project);
	if (text)
		livequeue_put(c->lane, text);
}

static void catalog_close(void *state)
{
	free(state);
}

const struct tp_live_target live_target_catalog = {
	.name = "catalog",
	.wanted = catalog_wanted,
	.open = catalog_open,
	.point = catalog_point,
	.final = catalog_point,
	.close = catalog_close,
	.summary_due = catalog_due,
	.summary = catalog_summary,
};
