/* SPDX-License-Identifier: MIT */
/* test-livequeue.c: the sending thread and its lanes (live/livequeue.c)
 * with a transport played here that blocks until told (the bound: the
 * oldest dropped and counted; a one-item lane: an update not yet sent
 * replaced and counted; batching and order), and the two network targets
 * through their rows against collectors played on localhost: InfluxDB's
 * write URL, a TCP listener that reads each POST and answers 204 (the
 * first line goes at once, the next ten in one request of exactly those
 * lines, in order), and a catalog server on UDP (the update arrives).
 * Without libcurl on the machine, the InfluxDB part is skipped. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "live/livetarget.h"
#include "tap.h"

/* A socket of @type bound to 127.0.0.1 on a free port, in *@port. */
static int local_socket(int type, int *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 4) < 0)) {
		perror("test-livequeue: socket");
		exit(99);
	}
	*port = ntohs(a.sin_port);
	return fd;
}

/* Wait up to 30 s (a bound, not a timing) for @fd to be readable. */
static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 30000) == 1;
}

/* Accept one request on @lfd, answer 204, and return its body (owned),
 * or NULL. */
static char *one_post(int lfd)
{
	static char buf[65536];
	size_t got = 0;
	char *end = NULL, *cl, *body;
	long blen = -1;
	int fd;

	if (!readable(lfd) || (fd = accept(lfd, NULL, NULL)) < 0)
		return NULL;
	while (got < sizeof(buf) - 1 && readable(fd)) {
		ssize_t n = read(fd, buf + got, sizeof(buf) - 1 - got);

		if (n <= 0)
			break;
		got += (size_t)n;
		buf[got] = '\0';
		end = strstr(buf, "\r\n\r\n");
		cl = strcasestr(buf, "Content-Length:");
		if (end && cl)
			blen = strtol(cl + 15, NULL, 10);
		if (end && blen >= 0 && (size_t)(end + 4 - buf) + (size_t)blen <= got)
			break;
	}
	if (!end || blen < 0) {
		close(fd);
		return NULL;
	}
	body = xmalloc((size_t)blen + 1);
	memcpy(body, end + 4, (size_t)blen);
	body[blen] = '\0';
	if (write(fd, "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n", 47) < 0)
		perror("test-livequeue: write");
	close(fd);
	return body;
}

/* --- the queue, with a transport played here ----------------------- */

/* send() writes each body to sent[1] and then waits for a byte on go[0]:
 * the test sees every request and says when it ends. */
static int sent[2], go[2];

static int held_send(struct tp_livelane *l, void *ctx, const char *body, size_t len)
{
	char c;

	if (write(sent[1], body, len + 1) < 0 || !readable(go[0]) || read(go[0], &c, 1) != 1)
		return -1;
	return c == 'y' ? 0 : -1;
}

/* The next body send() was given, or "(none)". */
static const char *next_body(void)
{
	static char buf[256];
	ssize_t n = -1;

	if (readable(sent[0]))
		n = read(sent[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? buf : "(none)";
}

static void release(char answer)
{
	if (write(go[1], &answer, 1) != 1)
		exit(99);
}

static const struct tp_livelane_kind lines_kind = {
	.name = "lines", .items = "lines", .silence = "-", .full = "the queue was full",
	.max = 3, .batch = 2, .age = 3600, .send = held_send,
};
static const struct tp_livelane_kind slot_kind = {
	.name = "slot", .items = "updates", .silence = "no answer",
	.max = 1, .batch = 1, .age = 0, .send = held_send,
};

/* The "not sent" lines: an earlier queue is ended (its thread joined,
 * its losses told) when the next one is, so an empty queue ends it here,
 * with the warnings going to a file in place of stderr. */
static void told(void)
{
	char why[256] = "", buf[512];
	FILE *f = tmpfile();
	int fd = f ? fileno(f) : -1, err = dup(2);
	ssize_t n = -1;

	if (fd < 0 || err < 0 || dup2(fd, 2) < 0)
		exit(99);
	error_warnings_quiet(false);
	livequeue_end(livequeue_new(why, sizeof(why)));
	dup2(err, 2);
	close(err);
	if (lseek(fd, 0, SEEK_SET) == 0)
		n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	is_str(buf, "tpmon: lines: 1 of 7 lines not sent (the queue was full)\n"
		    "tpmon: slot: 3 of 3 updates not sent (no answer)\n",
	       "at the end, one line per lane says what was not sent, and why");
	fclose(f);
}

static void queue(void)
{
	char why[256] = "";
	struct tp_livequeue *q = NULL;
	struct tp_livelane *lines, *slot;
	unsigned long total, dropped;

	if (pipe(sent) < 0 || pipe(go) < 0)
		exit(99);
	ok(livequeue_need(&q, why, sizeof(why)) != NULL, "a queue and its thread (%s)", why);
	ok(livequeue_need(&q, why, sizeof(why)) == q, "livequeue_need(): the same queue again");
	lines = livequeue_lane(q, &lines_kind, NULL);
	slot = livequeue_lane(q, &slot_kind, NULL);
	livequeue_put(lines, xstrdup("a"));
	is_str(next_body(), "a", "the first item of all goes at once, alone");
	/* the thread is held in send(): the queue fills */
	livequeue_put(lines, xstrdup("b"));
	livequeue_put(lines, xstrdup("c"));
	livequeue_put(lines, xstrdup("d"));
	livequeue_put(lines, xstrdup("e"));
	livequeue_put(slot, xstrdup("x"));
	livequeue_put(slot, xstrdup("y"));
	livequeue_put(slot, xstrdup("z"));
	livequeue_counts(lines, &total, &dropped);
	ok(total == 5 && dropped == 1, "a bounded lane: 5 queued, the oldest 1 dropped (%lu, %lu)",
	   total, dropped);
	livequeue_counts(slot, &total, &dropped);
	ok(total == 3 && dropped == 2, "a one-item lane: 3 queued, 2 replaced before sent (%lu, %lu)",
	   total, dropped);
	release('y');
	is_str(next_body(), "cde", "then the bounded lane's 3 newest, joined, in order");
	release('y');
	is_str(next_body(), "z", "and the one-item lane's newest, in the same round");
	release('n');
	livequeue_put(lines, xstrdup("f"));
	livequeue_put(lines, xstrdup("g"));
	is_str(next_body(), "fg", "a batch goes when it holds `batch` items");
	livequeue_counts(slot, &total, &dropped);
	ok(total == 3 && dropped == 3, "a failed send counts as dropped (%lu of %lu)", dropped, total);
	release('y');
	livequeue_counts(lines, &total, &dropped);
	ok(total == 7 && dropped == 1, "7 queued, still 1 dropped (%lu, %lu)", total, dropped);
	livequeue_end(q);
	told();
}

/* --- the targets, through their rows --------------------------------- */

static void fill_meta(struct tp_live_meta *m, struct tp_limits *lim, struct tp_live_point *p)
{
	memset(m, 0, sizeof(*m));
	memset(lim, 0, sizeof(*lim));
	memset(p, 0, sizeof(*p));
	m->command = "true";
	m->template = m->task = "job";
	m->host = "h";
	m->pid = 42;
	m->limits = lim;
	m->interval = 1;
	p->state = "running";
}

static void influx(void)
{
	char why[256] = "", url[64], *body, *line, want[4096] = "";
	struct tp_options o;
	struct tp_live_meta m;
	struct tp_limits lim;
	struct tp_live_point p;
	struct tp_live_rates rt = { -1, -1, -1 };
	struct tp_livequeue *q = NULL;
	void *t;
	int port, lfd = local_socket(SOCK_STREAM, &port), i;

	memset(&o, 0, sizeof(o));
	fill_meta(&m, &lim, &p);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/write?db=t", port);
	o.influxdb = url;
	ok(live_target_influx.wanted(&o), "influxdb: wanted with --influxdb");
	t = live_target_influx.open(&o, &m, &q, why, sizeof(why));
	if (!t) {
		for (i = 0; i < 3; i++)
			ok(true, "# SKIP %s", why);
		close(lfd);
		return;
	}
	live_target_influx.point(t, &p, &rt, 1000.0);
	line = influx_line(&m, &p, 1000.0);
	body = one_post(lfd);
	is_str(body ? body : "(none)", line, "the first line goes at once, alone");
	free(body);
	free(line);
	for (i = 0; i < 10; i++) {
		p.cpu_seconds = i;
		live_target_influx.point(t, &p, &rt, 1001.0 + i);
		line = influx_line(&m, &p, 1001.0 + i);
		strcat(want, line);
		free(line);
	}
	body = one_post(lfd);
	is_str(body ? body : "(none)", want, "ten lines queued: one request of those ten, in order");
	free(body);
	live_target_influx.close(t);
	livequeue_end(q);	/* the thread is joined at exit */
	close(lfd);
}

static void catalog(void)
{
	char why[256] = "", hostport[32], buf[2048];
	struct tp_options o;
	struct tp_live_meta m;
	struct tp_limits lim;
	struct tp_live_point p;
	struct tp_livequeue *q = NULL;
	int port, fd = local_socket(SOCK_DGRAM, &port);
	ssize_t n = -1;
	void *t;

	memset(&o, 0, sizeof(o));
	fill_meta(&m, &lim, &p);
	snprintf(hostport, sizeof(hostport), "127.0.0.1:%d", port);
	o.catalog = hostport;
	o.catalog_task_name = "tn";
	o.interval = 1;
	setenv("CATALOG_UPDATE_PROTOCOL", "udp", 1);
	t = live_target_catalog.open(&o, &m, &q, why, sizeof(why));
	ok(t != NULL, "catalog: opened (%s)", why);
	if (!t)
		return;
	ok(live_target_catalog.summary_due(t, 0), "an update is due at once");
	live_target_catalog.summary(t, 0, "{\"name\":\"a\\\"b\"}");
	ok(!live_target_catalog.summary_due(t, 29.9) && live_target_catalog.summary_due(t, 30),
	   "the next is due 30 s later");
	if (readable(fd))
		n = recv(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	ok(strstr(buf, "\"name\":\"a\\\"b\"") && strstr(buf, "\"type\":\"task\"") &&
	   strstr(buf, "\"task\":\"tn\"") && strstr(buf, "\"project\":\"tn\""),
	   "the update arrives by UDP: the summary with the catalog's keys (%s)", buf);
	live_target_catalog.close(t);
	livequeue_end(q);
	close(fd);
}

int main(void)
{
	plan(18);
	queue();
	catalog();
	influx();
	return done();
}
