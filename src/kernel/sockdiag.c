/* SPDX-License-Identifier: MIT */
/* sockdiag.c: the pure reader of sock_diag's inet_diag messages (a TCP
 * dump, or the destroy groups' announcements): each socket's cookie,
 * inode, cgroup, state, port and tcp_info byte counts.  measure/net.c does
 * the netlink I/O. */
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <string.h>
#include "kernel/sockdiag.h"

#ifndef INET_DIAG_CGROUP_ID
#define INET_DIAG_CGROUP_ID 21	/* 5.9: the cgroup v2 that made the socket */
#endif

/* The attributes after the inet_diag_msg, @len bytes at @p: tcp_info's
 * byte counts and the cgroup id into @s. */
static void attrs(const unsigned char *p, size_t len, struct tp_sockdiag_sock *s)
{
	while (len >= sizeof(struct rtattr)) {
		struct rtattr a;
		size_t alen, plen;

		memcpy(&a, p, sizeof(a));
		alen = a.rta_len;
		if (alen < sizeof(a) || alen > len)
			return;
		plen = alen - RTA_LENGTH(0);
		if (a.rta_type == INET_DIAG_INFO) {
			struct tcp_info ti;

			memset(&ti, 0, sizeof(ti));
			memcpy(&ti, p + RTA_LENGTH(0), plen < sizeof(ti) ? plen : sizeof(ti));
			s->bytes_acked = ti.tcpi_bytes_acked;
			s->bytes_received = ti.tcpi_bytes_received;
			s->info = true;
		} else if (a.rta_type == INET_DIAG_CGROUP_ID && plen >= sizeof(uint64_t)) {
			memcpy(&s->cgroup_id, p + RTA_LENGTH(0), sizeof(uint64_t));
		}
		alen = RTA_ALIGN(alen);
		if (alen >= len)
			return;
		p += alen;
		len -= alen;
	}
}

/* One inet_diag message of @len bytes at @p (at least the header). */
static void one(const unsigned char *p, size_t len, tp_sockdiag_fn fn, void *arg)
{
	struct inet_diag_msg m;
	struct tp_sockdiag_sock s;

	memcpy(&m, p, sizeof(m));
	memset(&s, 0, sizeof(s));
	s.cookie = (uint64_t)m.id.idiag_cookie[0] | (uint64_t)m.id.idiag_cookie[1] << 32;
	s.inode = m.idiag_inode;
	s.family = m.idiag_family;
	s.sport = m.id.idiag_sport;
	s.state = m.idiag_state;
	attrs(p + NLMSG_ALIGN(sizeof(m)), len - NLMSG_ALIGN(sizeof(m)), &s);
	fn(arg, &s);
}

int sockdiag_parse(const void *buf, size_t len, tp_sockdiag_fn fn, void *arg)
{
	const size_t hdr = NLMSG_ALIGN(sizeof(struct nlmsghdr));
	const size_t body = NLMSG_ALIGN(sizeof(struct inet_diag_msg));
	const unsigned char *p = buf;

	while (len >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr h;
		size_t mlen;

		memcpy(&h, p, sizeof(h));
		mlen = h.nlmsg_len;
		if (mlen < sizeof(h) || mlen > len)
			return 1;	/* truncated: nothing more in this batch */
		if (h.nlmsg_type == NLMSG_DONE)
			return 0;
		if (h.nlmsg_type == NLMSG_ERROR)
			return -1;
		if (mlen >= hdr + body)
			one(p + hdr, mlen - hdr, fn, arg);
		mlen = NLMSG_ALIGN(mlen);
		if (mlen >= len)
			break;
		p += mlen;
		len -= mlen;
	}
	return 1;
}
