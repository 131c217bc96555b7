/* SPDX-License-Identifier: MIT */
/* nest-fake: a task that pretends to be a nested tpmon.  It speaks the
 * outer tpmon's protocol (src/track/nested.c) on the TPMON_NEST_FD channel
 * (with -n: on the abstract socket named in TPMON_NEST) by itself, written from the description in doc/INTERNALS.md, not from
 * nested.c's structures, and prints one line per question:
 *   "foreign-totals ok|refused"    totals of its parent's subtree
 *   "foreign-register ok|refused"  registering its parent (not its child)
 *   "own-register ok|refused"      registering its own child
 *   "own-totals N|refused"         processes counted under that child,
 *                                  which forks K children that all wait
 *                                  on a pipe, then exit together (K + 1)
 *   "own-peak N|refused"           most of them alive at once (K + 1)
 *   "v1-totals N|refused"          the same totals asked in protocol 1
 *   "unknown-protocol tpn2|other"  the protocol of the answer to a magic
 *                                  the outer does not know (its newest)
 * Ground truth for a correct outer: refused, refused, ok, K + 1, K + 1,
 * K + 1, tpn2.
 * With -s PID it is a spy, anywhere (outside the outer's tree too): it
 * connects to the name in TPMON_NEST and asks for PID's totals in
 * protocols 2 and 1 and to register PID, and prints
 *   "spy-totals|spy-v1-totals|spy-register ok|refused|unanswered"
 *   usage: nest-fake [-n] K | -s PID */
#include <errno.h>
#include <stddef.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "[-n] K | -s PID"
#define TPN1 0x74706e31u
#define TPN2 0x74706e32u
#define TPN9 0x74706e39u
#define REGISTER 1
#define TOTALS 2

struct req { uint32_t magic, op; int32_t child; };
/* protocol 1: magic, ok, procs, cpu_ns, read_bytes, write_bytes;
 * protocol 2: magic, ok, procs, peak, peak_ago_us, cpu_ns, ctxsw, rchar,
 * wchar, syscr, syscw, read_bytes, write_bytes, cancelled_write_bytes */
struct ans { uint32_t magic, ok; uint64_t v[12]; };
#define ANS1_SIZE (8 + 4 * 8)
#define ANS2_SIZE (8 + 12 * 8)

/* One question in protocol @magic; the size of the answer, -1 for none. */
static ssize_t ask(int chan, uint32_t magic, uint32_t op, pid_t child, struct ans *a)
{
	struct req r = { magic, op, (int32_t)child };
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr al; } ctl;
	struct iovec iov = { &r, sizeof(r) };
	struct msghdr msg;
	struct cmsghdr *c;
	struct pollfd pfd;
	int sv[2];
	ssize_t len = -1;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		helper_die("socketpair");
	memset(&msg, 0, sizeof(msg));
	memset(&ctl, 0, sizeof(ctl));
	memset(a, 0, sizeof(*a));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof(ctl.buf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &sv[1], sizeof(int));
	if (sendmsg(chan, &msg, 0) < 0)
		helper_die("sendmsg");
	close(sv[1]);
	pfd.fd = sv[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 30000) == 1)
		len = recv(sv[0], a, sizeof(*a), 0);
	close(sv[0]);
	return len;
}

/* A question in protocol 2; 1 when answered ok. */
static int ask2(int chan, uint32_t op, pid_t child, struct ans *a)
{
	return ask(chan, TPN2, op, child, a) == ANS2_SIZE && a->magic == TPN2 && a->ok;
}

/* The registered child: K children alive together, then all gone. */
static void child_burst(int go, long k)
{
	int bar[2];
	long i;
	char c;

	if (read(go, &c, 1) < 0 || pipe(bar) < 0)
		_exit(1);
	for (i = 0; i < k; i++) {
		pid_t p = fork();

		if (p == 0) {
			close(bar[1]);
			_exit(read(bar[0], &c, 1) == 0 ? 0 : 1);
		}
	}
	close(bar[1]);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	_exit(0);
}

/* A socket connected to the outer's name in TPMON_NEST ("@name"). */
static int by_name(void)
{
	const char *env = getenv("TPMON_NEST");
	struct sockaddr_un sa;
	size_t l;
	int fd;

	if (!env || env[0] != '@')
		helper_die("no TPMON_NEST");
	l = strlen(env + 1);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (l + 1 > sizeof(sa.sun_path))
		helper_die("TPMON_NEST too long");
	memcpy(sa.sun_path + 1, env + 1, l);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + l)) < 0)
		helper_die("connect to %s", env);
	return fd;
}

/* The answer to one question of a spy */
static const char *verdict(ssize_t len, ssize_t want, uint32_t magic, const struct ans *a)
{
	if (len < 0)
		return "unanswered";
	return len == want && a->magic == magic && a->ok ? "ok" : "refused";
}

/* -s PID: ask about PID from wherever we are */
static int spy(pid_t pid)
{
	int chan = by_name();
	struct ans a;
	ssize_t len;

	len = ask(chan, TPN2, TOTALS, pid, &a);
	printf("spy-totals %s\n", verdict(len, ANS2_SIZE, TPN2, &a));
	len = ask(chan, TPN1, TOTALS, pid, &a);
	printf("spy-v1-totals %s\n", verdict(len, ANS1_SIZE, TPN1, &a));
	len = ask(chan, TPN2, REGISTER, pid, &a);
	printf("spy-register %s\n", verdict(len, ANS2_SIZE, TPN2, &a));
	close(chan);
	return 0;
}

static void print_count(const char *what, int ok, uint64_t n)
{
	if (ok)
		printf("%s %llu\n", what, (unsigned long long)n);
	else
		printf("%s refused\n", what);
}

int main(int argc, char **argv)
{
	const char *env = getenv("TPMON_NEST_FD");
	int chan, go[2], st, ok;
	long k;
	struct ans a;
	pid_t child;
	ssize_t len;

	helper_init(argc, argv);
	if (argc == 3 && strcmp(argv[1], "-s") == 0)
		return spy((pid_t)helper_arg_long(argv[2], USAGE));
	if (argc == 3 && strcmp(argv[1], "-n") == 0) {
		chan = by_name();
	} else if (argc == 2) {
		if (!env)
			helper_die("no TPMON_NEST_FD");
		chan = atoi(env);
	} else {
		helper_usage(USAGE);
	}
	k = helper_arg_long(argv[argc - 1], USAGE);
	printf("foreign-totals %s\n", ask2(chan, TOTALS, getppid(), &a) ? "ok" : "refused");
	printf("foreign-register %s\n", ask2(chan, REGISTER, getppid(), &a) ? "ok" : "refused");
	if (pipe(go) < 0)
		helper_die("pipe");
	fflush(stdout);
	child = fork();
	if (child < 0)
		helper_die("fork");
	if (child == 0) {
		close(go[1]);
		child_burst(go[0], k);
	}
	close(go[0]);
	printf("own-register %s\n", ask2(chan, REGISTER, child, &a) ? "ok" : "refused");
	if (write(go[1], "g", 1) != 1)
		helper_die("write");
	close(go[1]);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	ok = ask2(chan, TOTALS, child, &a);
	print_count("own-totals", ok, a.v[0]);
	print_count("own-peak", ok, a.v[1]);
	ok = ask(chan, TPN1, TOTALS, child, &a) == ANS1_SIZE && a.magic == TPN1 && a.ok;
	print_count("v1-totals", ok, a.v[0]);
	len = ask(chan, TPN9, TOTALS, child, &a);
	printf("unknown-protocol %s\n", len == ANS2_SIZE && a.magic == TPN2 && !a.ok ?
	       "tpn2" : "other");
	return 0;
}
