/* SPDX-License-Identifier: MIT */
/* tcp-load.c: a TCP client and server in one task, over 127.0.0.1.
 *
 *     tcp-load storm N BYTES   N short connections, one after the other:
 *                              the client connects, sends BYTES, reads
 *                              them back and closes; the server (a
 *                              forked child) accepts with accept4(),
 *                              echoes and closes
 *     tcp-load bulk N MIB      N connections in turn, each carrying MIB
 *                              MiB from the client to the server, which
 *                              sends one byte back when it has them all
 *
 * Every connect() and accept4() is a seccomp stop under tpmon, so the
 * storm is what those stops cost; the bulk is few stops and many bytes.
 * At the end it prints the bytes the tree sent (client + server, as TCP
 * acknowledged them: what tpmon's bytes_sent should be) to stdout.
 * Exit status 0 when every byte went through, 1 otherwise. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHUNK 65536

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int read_full(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

static int write_full(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* Read and drop @len bytes. */
static int drain(int fd, unsigned long long len)
{
	static char buf[CHUNK];

	while (len > 0) {
		ssize_t n = read(fd, buf, len < CHUNK ? (size_t)len : CHUNK);

		if (n <= 0)
			return -1;
		len -= (unsigned long long)n;
	}
	return 0;
}

static int send_bytes(int fd, unsigned long long len)
{
	static char buf[CHUNK];

	while (len > 0) {
		size_t n = len < CHUNK ? (size_t)len : CHUNK;

		if (write_full(fd, buf, n) < 0)
			return -1;
		len -= n;
	}
	return 0;
}

/* The server: @n connections, each echoing @bytes (storm) or taking
 * @bytes and answering one byte (bulk). */
static void serve(int ls, long n, unsigned long long bytes, int storm)
{
	char *buf = storm ? malloc(bytes ? bytes : 1) : NULL;
	long i;

	for (i = 0; i < n; i++) {
		int c = accept4(ls, NULL, NULL, SOCK_CLOEXEC);

		if (c < 0)
			die("accept4");
		if (storm ? read_full(c, buf, bytes) < 0 || write_full(c, buf, bytes) < 0 :
			    drain(c, bytes) < 0 || write_full(c, "k", 1) < 0)
			_exit(1);
		close(c);
	}
	free(buf);
	_exit(0);
}

static int dial(const struct sockaddr_in *sa)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;

	if (fd < 0)
		die("socket");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) < 0)
		die("connect");
	return fd;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	unsigned long long bytes;
	int storm, ls, status, one = 1;
	long n, i;
	pid_t server;
	char *buf;

	if (argc != 4 || (strcmp(argv[1], "storm") && strcmp(argv[1], "bulk"))) {
		fprintf(stderr, "usage: tcp-load storm N BYTES | tcp-load bulk N MIB\n");
		return 2;
	}
	storm = strcmp(argv[1], "storm") == 0;
	n = atol(argv[2]);
	bytes = strtoull(argv[3], NULL, 10) << (storm ? 0 : 20);
	buf = malloc(bytes && storm ? bytes : 1);
	memset(buf, 'x', bytes && storm ? bytes : 1);

	ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ls < 0)
		die("socket");
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(ls, 128) < 0 ||
	    getsockname(ls, (struct sockaddr *)&sa, &len) < 0)
		die("listen");
	server = fork();
	if (server < 0)
		die("fork");
	if (server == 0)
		serve(ls, n, bytes, storm);
	close(ls);

	for (i = 0; i < n; i++) {
		int fd = dial(&sa);
		char k;

		if (storm ? write_full(fd, buf, bytes) < 0 || read_full(fd, buf, bytes) < 0 :
			    send_bytes(fd, bytes) < 0 || read_full(fd, &k, 1) < 0) {
			fprintf(stderr, "tcp-load: connection %ld broke\n", i);
			return 1;
		}
		close(fd);
	}
	free(buf);
	if (waitpid(server, &status, 0) != server || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	/* client and server each sent BYTES per connection (storm), or the
	 * client BYTES and the server 1 (bulk) */
	printf("%llu\n", (unsigned long long)n * (storm ? 2 * bytes : bytes + 1));
	return 0;
}
