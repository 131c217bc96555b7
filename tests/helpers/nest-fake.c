/* nest-fake: a task that pretends to be a nested tpmon.  It speaks the
 * outer tpmon's protocol (src/nested.c) on the TPMON_NEST_FD channel by
 * itself, and prints one line per question:
 *   "foreign-totals ok|refused"    totals of its parent's subtree
 *   "foreign-register ok|refused"  registering its parent (not its child)
 *   "own-register ok|refused"      registering its own child
 *   "own-totals N|refused"         processes counted under that child,
 *                                  which forks K short children (K + 1)
 * Ground truth for a correct outer: refused, refused, ok, K + 1.
 *   usage: nest-fake K */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "K"

struct req { uint32_t magic, op; int32_t child; };
struct ans { uint32_t magic, ok; uint64_t procs, cpu_ns, rd, wr; };

/* One question; 1 with *a filled when answered ok, 0 otherwise. */
static int ask(int chan, uint32_t op, pid_t child, struct ans *a)
{
	struct req r = { 0x74706e31u, op, (int32_t)child };
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr al; } ctl;
	struct iovec iov = { &r, sizeof(r) };
	struct msghdr msg;
	struct cmsghdr *c;
	struct pollfd pfd;
	int sv[2], ok;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		helper_die("socketpair");
	memset(&msg, 0, sizeof(msg));
	memset(&ctl, 0, sizeof(ctl));
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
	ok = poll(&pfd, 1, 30000) == 1 &&
	     recv(sv[0], a, sizeof(*a), 0) == (ssize_t)sizeof(*a) && a->ok;
	close(sv[0]);
	return ok;
}

int main(int argc, char **argv)
{
	const char *env = getenv("TPMON_NEST_FD");
	int chan, go[2], st;
	long k, i;
	struct ans a;
	pid_t child;
	char c;

	helper_init(argc, argv);
	if (argc != 2)
		helper_usage(USAGE);
	k = helper_arg_long(argv[1], USAGE);
	if (!env)
		helper_die("no TPMON_NEST_FD");
	chan = atoi(env);
	printf("foreign-totals %s\n", ask(chan, 2, getppid(), &a) ? "ok" : "refused");
	printf("foreign-register %s\n", ask(chan, 1, getppid(), &a) ? "ok" : "refused");
	if (pipe(go) < 0)
		helper_die("pipe");
	fflush(stdout);
	child = fork();
	if (child < 0)
		helper_die("fork");
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		for (i = 0; i < k; i++) {
			pid_t p = fork();

			if (p == 0)
				_exit(0);
			if (p > 0)
				waitpid(p, NULL, 0);
		}
		_exit(0);
	}
	close(go[0]);
	printf("own-register %s\n", ask(chan, 1, child, &a) ? "ok" : "refused");
	if (write(go[1], "g", 1) != 1)
		helper_die("write");
	close(go[1]);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	if (ask(chan, 2, child, &a))
		printf("own-totals %llu\n", (unsigned long long)a.procs);
	else
		printf("own-totals refused\n");
	return 0;
}
