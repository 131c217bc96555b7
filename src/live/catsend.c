/* SPDX-License-Identifier: MIT */
/* catsend.c: the sender's catalog transport: an update to each server of
 * the list, by UDP to its port or by TCP to the port + 1 (as cctools
 * does), with a deadline and in slices that look at the sender's abort
 * flag. */
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
#include "live/senderint.h"

#define CATALOG_PORT 9097
#define CATALOG_TIMEOUT 5.0	/* s */

/* Wait until @fd is ready for @events, in slices that look at the abort
 * flag, until @deadline (mono).  0, or -1 (timed out, aborted). */
static int wait_fd(struct tp_sender *s, int fd, short events, double deadline)
{
	struct pollfd p = { .fd = fd, .events = events };

	while (!sender_aborted(s) && clock_mono() < deadline) {
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
		sender_note_error(s->cat_err, sizeof(s->cat_err), why ? why : strerror(errno));
		pthread_mutex_unlock(&s->lock);
	}
	return r;
}

int catsend_send(struct tp_sender *s, const char *text)
{
	char *list = xstrdup(s->catalog), *save = NULL, *h;
	int ok = -1;

	for (h = strtok_r(list, ",", &save); h; h = strtok_r(NULL, ",", &save))
		if (catalog_one(s, h, text) == 0)
			ok = 0;
	free(list);
	return ok;
}
