/* SPDX-License-Identifier: MIT */
/* test-nested.c: the nested-tpmon bookkeeping (nests_register() and the
 * table's watcher) and protocol: each
 * registration's count of live processes and its peak (those of a
 * registration nested in it included), and an inner that meets an outer
 * of protocol 1 (an older tpmon) asking again in it. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "track/nested.h"
#include "track/ptree.h"
#include "tap.h"

static void test_peaks(void)
{
	struct tp_ptree t;
	struct tp_nests ns;
	unsigned a, b;
	pid_t p;

	ptree_init(&t);
	nests_init(&ns, &t);
	ptree_add_proc(&t, 100, 0);		/* sh */
	ptree_add_proc(&t, 101, 100);		/* the middle tpmon */
	ptree_add_proc(&t, 102, 101);		/* its child: the inner tpmon */
	a = nests_register(&ns, 101, 102);
	ok(a == 1, "the first registration is tag 1");
	ok(nests_register(&ns, 101, 102) == 0, "a child registered twice is refused");
	ok(nests_register(&ns, 100, 102) == 0, "only its parent may register it");
	is_int(ns.nest[a - 1].live, 1, "a registration counts its child");
	t.now = 1.0;
	ptree_add_proc(&t, 103, 102);		/* the inner's child */
	b = nests_register(&ns, 102, 103);
	is_int(ns.nest[a - 1].live, 2, "a nested registration's child is counted once");
	is_int(ns.nest[b - 1].live, 1, "...and in its own registration");
	t.now = 2.0;
	for (p = 200; p < 205; p++)
		ptree_add_proc(&t, p, 103);
	is_int(ns.nest[b - 1].peak, 6, "inner: its child and 5 at once");
	is_int(ns.nest[a - 1].peak, 7, "middle: the inner tpmon too");
	for (p = 200; p < 205; p++)
		ptree_thread_gone(&t, p);
	is_int(ns.nest[a - 1].live, 2, "ended processes leave the count");
	t.now = 3.0;
	for (p = 300; p < 303; p++)
		ptree_add_proc(&t, p, 102);	/* the middle's own, outside b */
	is_int(ns.nest[a - 1].peak, 7, "a smaller burst leaves the peak");
	is_int(ns.nest[b - 1].live, 1, "...and is not the inner registration's");
	is_double(ns.nest[a - 1].peak_at, 2.0, 1e-9, "the peak's time is when it was first reached");
	is_int(t.max_live, 9, "the tree's own peak: sh, the middle and 7");
	ptree_end_all(&t);
	is_int(ns.nest[a - 1].live, 0, "nothing left alive");
	is_int((long long)ns.nest[a - 1].procs, 10, "middle: 10 processes ended");
	is_int((long long)ns.nest[b - 1].procs, 6, "inner: 6 processes ended");
	ptree_free(&t);
}

/* An outer of protocol 1: answers @n requests, to any magic but its own
 * with { "tpn1", 0 }, as tpmon did before protocol 2. */
static void old_outer(int fd, int n)
{
	struct { uint32_t magic, op; int32_t child; } req;
	struct { uint32_t magic, ok; uint64_t procs, cpu_ns, rd, wr; } ans;
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr al; } ctl;

	while (n-- > 0) {
		struct iovec iov = { &req, sizeof(req) };
		struct msghdr msg;
		struct cmsghdr *c;
		int reply = -1;

		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = ctl.buf;
		msg.msg_controllen = sizeof(ctl.buf);
		if (recvmsg(fd, &msg, 0) != (ssize_t)sizeof(req))
			_exit(1);
		c = CMSG_FIRSTHDR(&msg);
		if (!c || c->cmsg_type != SCM_RIGHTS)
			_exit(1);
		memcpy(&reply, CMSG_DATA(c), sizeof(int));
		memset(&ans, 0, sizeof(ans));
		ans.magic = 0x74706e31u;
		if (req.magic == 0x74706e31u) {
			ans.ok = 1;
			ans.procs = 7;
			ans.cpu_ns = 8;
			ans.rd = 9;
			ans.wr = 10;
		}
		if (send(reply, &ans, sizeof(ans), 0) != (ssize_t)sizeof(ans))
			_exit(1);
		close(reply);
	}
	_exit(0);
}

static void test_old_outer(void)
{
	struct tp_nest_totals nt;
	int sv[2], st = -1;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0) {
		ok(false, "socketpair: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(sv[1]);
		old_outer(sv[0], 4);
	}
	close(sv[0]);
	is_int(nested_register(sv[1], 1234), 0, "an old outer: registered in protocol 1");
	is_int(nested_totals(sv[1], 1234, &nt), 0, "an old outer: totals in protocol 1");
	ok(!nt.whole, "...marked as not whole (no peak, only cpu and bytes)");
	is_int((long long)nt.procs, 7, "...processes");
	is_int((long long)nt.acct.cpu_ns, 8, "...cpu");
	is_int((long long)nt.acct.io.read_bytes, 9, "...bytes read");
	is_int((long long)nt.acct.io.write_bytes, 10, "...bytes written");
	close(sv[1]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	is_int(st, 0, "the old outer got 4 requests, each well formed");
}

int main(void)
{
	plan(24);
	test_peaks();
	test_old_outer();
	return done();
}
