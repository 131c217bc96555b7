/* SPDX-License-Identifier: MIT */
/* net-peer: TCP traffic of a known size over loopback, for the network
 * tests.
 *   sink PORTFILE [N] [-6]    listen on 127.0.0.1 (::1 with -6) port 0, write
 *                             the port to PORTFILE, take N connections one
 *                             after the other, read each to its end, print
 *                             the total number of bytes read.
 *   send PORTFILE BYTES [--count N] [--rate MB_PER_S] [-6]
 *                             N connections one after the other, each
 *                             sending BYTES, then shutting down its side and
 *                             waiting for the peer's close.
 *   pair BYTES                two processes of its own: the child sends
 *                             BYTES to the parent, which sends them back.
 *   udp BYTES [--peek] [-6]   one process, two UDP sockets on loopback: BYTES
 *                             in datagrams of 1000 bytes from one to the
 *                             other, each received before the next is sent
 *                             (with --peek, first looked at with MSG_PEEK);
 *                             prints the bytes received.
 * Waits up to 10 s for PORTFILE to appear. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "sink PORTFILE [N] [-6] | send PORTFILE BYTES [--count N] [--rate MB_PER_S] [-6] | " \
	"pair BYTES | udp BYTES [--peek] [-6]"

static char chunk[65536];

static socklen_t loopback(struct sockaddr_storage *ss, int six, int port)
{
	memset(ss, 0, sizeof(*ss));
	if (six) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		a->sin6_port = htons((unsigned short)port);
		return sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		a->sin_port = htons((unsigned short)port);
		return sizeof(*a);
	}
}

static int listen_any(int six, int *port)
{
	struct sockaddr_storage ss;
	socklen_t len = loopback(&ss, six, 0);
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, 128) < 0)
		helper_die("listen");
	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		helper_die("getsockname");
	*port = ntohs(six ? ((struct sockaddr_in6 *)&ss)->sin6_port :
			    ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

static int connect_to(int six, int port)
{
	struct sockaddr_storage ss;
	socklen_t len = loopback(&ss, six, port);
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&ss, len) < 0)
		helper_die("connect");
	return fd;
}

/* Read @fd to its end; returns the number of bytes read. */
static long long drain(int fd)
{
	long long total = 0;
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			helper_die("read");
		total += n;
	}
	return total;
}

/* Send @bytes on @fd, at @rate MB/s when > 0. */
static void send_bytes(int fd, long long bytes, double rate)
{
	double t0 = helper_now();
	long long done = 0;

	while (done < bytes) {
		size_t len = bytes - done < (long long)sizeof(chunk) ? (size_t)(bytes - done) : sizeof(chunk);
		ssize_t n = write(fd, chunk, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			helper_die("write");
		done += n;
		if (rate > 0) {
			double due = t0 + (double)done / (rate * (double)MIB);

			if (due > helper_now())
				helper_sleep(due - helper_now());
		}
	}
}

static int read_port(const char *path)
{
	int i, port = 0;

	for (i = 0; i < 1000; i++) {
		FILE *f = fopen(path, "r");

		if (f) {
			int got = fscanf(f, "%d", &port);

			fclose(f);
			if (got == 1 && port > 0)
				return port;
		}
		helper_sleep(0.01);
	}
	helper_die("no port in %s", path);
}

static void write_port(const char *path, int port)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f) != 0 || rename(tmp, path) < 0)
		helper_die("write %s", path);
}

static int has_flag(int argc, char **argv, const char *flag)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], flag))
			return 1;
	return 0;
}

static const char *opt_value(int argc, char **argv, const char *name)
{
	int i;

	for (i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], name))
			return argv[i + 1];
	return NULL;
}

static int sink(int argc, char **argv)
{
	int six = has_flag(argc, argv, "-6"), port, lfd;
	long n = argc > 3 && argv[3][0] != '-' ? helper_arg_long(argv[3], USAGE) : 1, i;
	long long total = 0;

	lfd = listen_any(six, &port);
	write_port(argv[2], port);
	for (i = 0; i < n; i++) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0)
			helper_die("accept");
		total += drain(fd);
		close(fd);
	}
	printf("%lld\n", total);
	return 0;
}

static int sender(int argc, char **argv)
{
	const char *count = opt_value(argc, argv, "--count"), *rate = opt_value(argc, argv, "--rate");
	int six = has_flag(argc, argv, "-6"), port;
	long long bytes;
	long n, i;

	if (argc < 4)
		helper_usage(USAGE);
	port = read_port(argv[2]);
	bytes = helper_arg_long(argv[3], USAGE);
	n = count ? helper_arg_long(count, USAGE) : 1;
	for (i = 0; i < n; i++) {
		int fd = connect_to(six, port);

		send_bytes(fd, bytes, rate ? helper_arg_double(rate, USAGE) : 0);
		shutdown(fd, SHUT_WR);
		drain(fd);
		close(fd);
	}
	return 0;
}

static int pair(int argc, char **argv)
{
	long long bytes, got;
	int port, lfd, status;
	pid_t pid;

	if (argc < 3)
		helper_usage(USAGE);
	bytes = helper_arg_long(argv[2], USAGE);
	lfd = listen_any(0, &port);
	pid = fork();
	if (pid < 0)
		helper_die("fork");
	if (pid == 0) {
		int fd = connect_to(0, port);

		send_bytes(fd, bytes, 0);
		shutdown(fd, SHUT_WR);
		got = drain(fd);
		close(fd);
		_exit(got == bytes ? 0 : 1);
	} else {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0)
			helper_die("accept");
		got = drain(fd);
		send_bytes(fd, got, 0);
		close(fd);
		if (waitpid(pid, &status, 0) < 0)
			helper_die("waitpid");
		return got == bytes && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
	}
}

/* A UDP socket bound to loopback port 0; its address in @ss. */
static int udp_socket(int six, struct sockaddr_storage *ss, socklen_t *len)
{
	int fd;

	*len = loopback(ss, six, 0);
	fd = socket(ss->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)ss, *len) < 0 ||
	    getsockname(fd, (struct sockaddr *)ss, len) < 0)
		helper_die("udp socket");
	return fd;
}

static int udp(int argc, char **argv)
{
	int six = has_flag(argc, argv, "-6"), peek = has_flag(argc, argv, "--peek");
	long long bytes = helper_arg_long(argv[2], USAGE), done = 0, got = 0;
	struct sockaddr_storage a, b;
	socklen_t alen, blen;
	int fa = udp_socket(six, &a, &alen), fb = udp_socket(six, &b, &blen);

	while (done < bytes) {
		size_t len = bytes - done < 1000 ? (size_t)(bytes - done) : 1000;
		ssize_t n = sendto(fa, chunk, len, 0, (struct sockaddr *)&b, blen);

		if (n < 0)
			helper_die("sendto");
		done += n;
		if (peek && recv(fb, chunk, sizeof(chunk), MSG_PEEK) < 0)
			helper_die("recv MSG_PEEK");
		n = recv(fb, chunk, sizeof(chunk), 0);
		if (n < 0)
			helper_die("recv");
		got += n;
	}
	close(fa);
	close(fb);
	printf("%lld\n", got);
	return got == bytes ? 0 : 1;
}

int main(int argc, char **argv)
{
	helper_init(argc, argv);
	if (argc < 3)
		helper_usage(USAGE);
	if (!strcmp(argv[1], "sink"))
		return sink(argc, argv);
	if (!strcmp(argv[1], "send"))
		return sender(argc, argv);
	if (!strcmp(argv[1], "pair"))
		return pair(argc, argv);
	if (!strcmp(argv[1], "udp"))
		return udp(argc, argv);
	helper_usage(USAGE);
}
