/* SPDX-License-Identifier: MIT */
/* sockdiag.h: the sock_diag answers (NETLINK_SOCK_DIAG, inet_diag) decoded:
 * a pure reader of the messages of a TCP socket dump or of the destroy
 * groups' announcements, one struct per socket. */
#ifndef TPMON_SOCKDIAG_H
#define TPMON_SOCKDIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* TCP_LISTEN of the kernel's TCP states (include/net/tcp_states.h) */
#define TP_SOCKDIAG_LISTEN 10

/* One socket as sock_diag lists it. */
struct tp_sockdiag_sock {
	uint64_t cookie;	/* the kernel's socket cookie (SO_COOKIE) */
	uint64_t inode;		/* 0 for an announced destruction */
	uint64_t cgroup_id;	/* the cgroup v2 that made it, 0: not said (before 5.9) */
	uint64_t bytes_acked;	/* tcp_info's, valid with @info */
	uint64_t bytes_received;
	int family;		/* AF_INET or AF_INET6 */
	uint16_t sport;		/* local port, network order */
	uint8_t state;		/* TCP state, TP_SOCKDIAG_LISTEN ... */
	bool info;		/* tcp_info present (absent: TIME_WAIT, figures gone) */
};

/* Called for each socket of a batch of messages; @s is valid during the
 * call only. */
typedef void (*tp_sockdiag_fn)(void *arg, const struct tp_sockdiag_sock *s);

/* Decode the netlink messages in @buf (@len bytes, as recv() gave them;
 * any alignment): @fn for each inet_diag message.  Short or malformed
 * messages are skipped; nothing outside @buf is read.  Returns 0 at the
 * end of a dump (NLMSG_DONE), -1 on an error message, 1 when more may
 * come.  No I/O. */
int sockdiag_parse(const void *buf, size_t len, tp_sockdiag_fn fn, void *arg);

#endif
