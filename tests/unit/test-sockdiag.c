/* SPDX-License-Identifier: MIT */
/* test-sockdiag.c: unit tests of kernel/sockdiag.c, the reader of
 * sock_diag's inet_diag messages, on batches built here as the kernel lays
 * them out: two sockets with tcp_info and a cgroup id, a TIME_WAIT socket
 * without tcp_info, the end of a dump, an error, a short tcp_info (an
 * older kernel), and lying lengths (a message or an attribute longer than
 * the batch, a message shorter than its header), each at an odd address. */
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "kernel/sockdiag.h"
#include "tap.h"

#define CGROUP_ID_ATTR 21	/* INET_DIAG_CGROUP_ID */

static unsigned char batch[4096];
static size_t used;

struct seen {
	struct tp_sockdiag_sock s[8];
	int n;
};

static void collect(void *arg, const struct tp_sockdiag_sock *s)
{
	struct seen *v = arg;

	if (v->n < 8)
		v->s[v->n] = *s;
	v->n++;
}

static void attr(unsigned short type, const void *data, size_t len)
{
	struct rtattr a = { .rta_len = (unsigned short)RTA_LENGTH(len), .rta_type = type };

	memcpy(batch + used, &a, sizeof(a));
	memcpy(batch + used + RTA_LENGTH(0), data, len);
	used += RTA_ALIGN(RTA_LENGTH(len));
}

/* A socket's message appended: @info_len bytes of tcp_info (0: none),
 * @cgid (0: no attribute). */
static void sock(uint64_t cookie, uint32_t ino, uint8_t state, uint16_t port,
		 uint64_t acked, uint64_t received, size_t info_len, uint64_t cgid)
{
	size_t start = used;
	struct nlmsghdr h = { .nlmsg_type = SOCK_DIAG_BY_FAMILY };
	struct inet_diag_msg m;
	struct tcp_info ti;

	memset(&m, 0, sizeof(m));
	m.idiag_family = AF_INET6;
	m.idiag_state = state;
	m.idiag_inode = ino;
	m.id.idiag_sport = htons(port);
	m.id.idiag_cookie[0] = (uint32_t)cookie;
	m.id.idiag_cookie[1] = (uint32_t)(cookie >> 32);
	used += NLMSG_HDRLEN;
	memcpy(batch + used, &m, sizeof(m));
	used += NLMSG_ALIGN(sizeof(m));
	if (info_len) {
		memset(&ti, 0, sizeof(ti));
		ti.tcpi_bytes_acked = acked;
		ti.tcpi_bytes_received = received;
		attr(INET_DIAG_INFO, &ti, info_len);
	}
	if (cgid)
		attr(CGROUP_ID_ATTR, &cgid, sizeof(cgid));
	h.nlmsg_len = (uint32_t)(used - start);
	memcpy(batch + start, &h, sizeof(h));
}

static void control(unsigned short type)
{
	struct nlmsghdr h = { .nlmsg_len = NLMSG_LENGTH(4), .nlmsg_type = type };

	memcpy(batch + used, &h, sizeof(h));
	used += NLMSG_ALIGN(h.nlmsg_len);
}

/* Parse the batch from an odd address (nothing may assume alignment). */
static int parse(struct seen *v, size_t len)
{
	static unsigned char odd[sizeof(batch) + 1];

	memset(v, 0, sizeof(*v));
	memcpy(odd + 1, batch, len);
	return sockdiag_parse(odd + 1, len, collect, v);
}

int main(void)
{
	struct seen v;
	size_t full, cut;

	plan(24);

	used = 0;
	sock(0x1122334455667788ull, 4242, 1 /* ESTABLISHED */, 8080,
	     1000000, 2500, sizeof(struct tcp_info), 77);
	sock(9, 4343, 6 /* TIME_WAIT */, 443, 0, 0, 0, 0);
	full = used;
	is_int(parse(&v, full), 1, "a batch without NLMSG_DONE: more may come");
	is_int(v.n, 2, "two sockets");
	ok(v.s[0].cookie == 0x1122334455667788ull, "the cookie joins its two halves");
	is_int((long long)v.s[0].inode, 4242, "the inode");
	is_int(v.s[0].family, AF_INET6, "the family");
	is_int(ntohs(v.s[0].sport), 8080, "the port, in network order");
	is_int(v.s[0].state, 1, "the state");
	ok(v.s[0].info, "tcp_info present");
	is_int((long long)v.s[0].bytes_acked, 1000000, "tcpi_bytes_acked");
	is_int((long long)v.s[0].bytes_received, 2500, "tcpi_bytes_received");
	is_int((long long)v.s[0].cgroup_id, 77, "INET_DIAG_CGROUP_ID");
	ok(!v.s[1].info && v.s[1].bytes_acked == 0 && v.s[1].cgroup_id == 0,
	   "a TIME_WAIT socket: no tcp_info, no cgroup");

	control(NLMSG_DONE);
	sock(10, 1, 1, 1, 1, 1, sizeof(struct tcp_info), 0);
	is_int(parse(&v, used), 0, "NLMSG_DONE ends the dump");
	is_int(v.n, 2, "nothing after NLMSG_DONE is read");

	used = 0;
	control(NLMSG_ERROR);
	is_int(parse(&v, used), -1, "NLMSG_ERROR: -1");

	/* a kernel whose tcp_info ends before tcpi_bytes_acked */
	used = 0;
	sock(5, 6, 1, 7, 123, 456, offsetof(struct tcp_info, tcpi_bytes_acked), 0);
	parse(&v, used);
	ok(v.n == 1 && v.s[0].info && v.s[0].bytes_acked == 0 && v.s[0].bytes_received == 0,
	   "a short tcp_info: present, its missing counts 0");

	/* lies */
	used = 0;
	sock(5, 6, 1, 7, 123, 456, sizeof(struct tcp_info), 0);
	cut = used - 8;
	is_int(parse(&v, cut), 1, "a message longer than the batch: more may come");
	is_int(v.n, 0, "and it is not read");

	used = 0;
	sock(5, 6, 1, 7, 123, 456, sizeof(struct tcp_info), 0);
	{
		/* the attribute claims more than its message holds */
		struct rtattr a;
		size_t at = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct inet_diag_msg));

		memcpy(&a, batch + at, sizeof(a));
		a.rta_len = 4000;
		memcpy(batch + at, &a, sizeof(a));
	}
	parse(&v, used);
	ok(v.n == 1 && !v.s[0].info, "an attribute longer than its message is dropped");

	used = 0;
	{
		struct nlmsghdr h = { .nlmsg_len = NLMSG_LENGTH(8), .nlmsg_type = SOCK_DIAG_BY_FAMILY };

		memcpy(batch, &h, sizeof(h));
		used = NLMSG_ALIGN(h.nlmsg_len);
	}
	sock(3, 3, 1, 3, 3, 3, sizeof(struct tcp_info), 0);
	parse(&v, used);
	ok(v.n == 1 && v.s[0].cookie == 3, "a message shorter than inet_diag_msg is skipped, the next read");

	used = 0;
	{
		struct nlmsghdr h = { .nlmsg_len = 3, .nlmsg_type = SOCK_DIAG_BY_FAMILY };

		memcpy(batch, &h, sizeof(h));
		used = sizeof(h);
	}
	is_int(parse(&v, used), 1, "a length below the header's: the batch ends");
	is_int(v.n, 0, "nothing read from it");

	is_int(parse(&v, 0), 1, "an empty batch");
	is_int(parse(&v, 7), 1, "a batch shorter than a header");
	return done();
}
