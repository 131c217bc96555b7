/* SPDX-License-Identifier: MIT */
/* test-sender.c: the sender's queue and thread (live/sender.c) against
 * collectors played here on localhost: InfluxDB's write URL, a TCP
 * listener that reads each POST and answers 204 (the first line goes at
 * once, the next ten in one request of exactly those lines, in order),
 * and a catalog server on UDP (an update arrives as sent).  Without
 * libcurl on the machine, the InfluxDB part is skipped. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "basic/xmalloc.h"
#include "live/sender.h"
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
		perror("test-sender: socket");
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
		perror("test-sender: write");
	close(fd);
	return body;
}

static void influx(void)
{
	char why[256] = "", url[64], *body, want[256] = "";
	struct tp_sender *s;
	int port, lfd = local_socket(SOCK_STREAM, &port), i;

	snprintf(url, sizeof(url), "http://127.0.0.1:%d/write?db=t", port);
	s = sender_new(url, NULL, false, why, sizeof(why));
	if (!s) {
		for (i = 0; i < 4; i++)
			ok(true, "# SKIP %s", why);
		close(lfd);
		return;
	}
	ok(sender_influx_on(s), "an InfluxDB URL: the sender posts");
	sender_influx(s, xstrdup("first v=1\n"));
	body = one_post(lfd);
	is_str(body ? body : "(none)", "first v=1\n", "the first line goes at once, alone");
	free(body);
	for (i = 0; i < 10; i++) {
		char line[32];

		snprintf(line, sizeof(line), "l%d v=%d\n", i, i);
		strcat(want, line);
		sender_influx(s, xstrdup(line));
	}
	body = one_post(lfd);
	is_str(body ? body : "(none)", want, "ten lines queued: one request of those ten, in order");
	free(body);
	sender_end(s);	/* the thread is joined at exit */
	ok(true, "sender_end() with nothing left to send");
	close(lfd);
}

static void catalog(void)
{
	char why[256] = "", hostport[32], buf[512];
	struct tp_sender *s;
	int port, fd = local_socket(SOCK_DGRAM, &port);
	ssize_t n = -1;

	snprintf(hostport, sizeof(hostport), "127.0.0.1:%d", port);
	s = sender_new(NULL, hostport, true, why, sizeof(why));
	ok(s && !sender_influx_on(s), "a catalog only: no InfluxDB (%s)", why);
	if (!s)
		return;
	sender_catalog(s, xstrdup("{\"type\":\"task\",\"name\":\"a\\\"b\"}"));
	if (readable(fd))
		n = recv(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	is_str(buf, "{\"type\":\"task\",\"name\":\"a\\\"b\"}", "the update arrives by UDP as queued");
	sender_end(s);
	close(fd);
}

int main(void)
{
	plan(6);
	catalog();
	influx();
	return done();
}
