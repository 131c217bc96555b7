/* SPDX-License-Identifier: MIT */
/* netint.h: what net.c (the socket table, the dumps, pacing and totals)
 * and netconn.c (the tree's connect and accept calls) share; private to
 * the two, the rest of tpmon uses net.h. */
#ifndef TPMON_NETINT_H
#define TPMON_NETINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "measure/net.h"

struct sock_rec {
	uint64_t cookie;		/* 0: free slot */
	uint64_t base_sent, base_recv;	/* inherited: figures at first sight */
	uint64_t sent, recv;		/* last seen, from the start of the socket */
	unsigned dump_gen;		/* the last dump that listed it */
	bool open;			/* noted at connect, destruction not yet
					 * announced */
};

/* Sockets accept() was called on whose port (or whose not being TCP) is
 * noted already, by inode: a server calls accept thousands of times on
 * one or two sockets. */
#define ACCEPT_SEEN 16

struct tp_net {
	int fd;				/* NETLINK_SOCK_DIAG, for dumps */
	int destroy_fd;			/* subscribed to TCP socket destructions, or -1 */
	struct sock_rec *recs;		/* open addressing by cookie */
	size_t cap, n;
	uint64_t *inherited;		/* sorted inodes of tpmon's own sockets */
	size_t ninherited;
	uint64_t *skip;			/* inodes of sockets that carry no traffic */
	size_t nskip;
	uint64_t *ino;			/* sorted inodes of the tree, this sample */
	size_t nino, ino_cap;
	bool had_sockets;		/* the last sample saw sockets of the tree */
	bool trapping;			/* connect and accept are caught */
	bool per_family;		/* TCPDIAG_GETSOCK refused: a dump per family */
	bool paced;			/* dumps bounded to DUMP_CPU_SHARE */
	double next_dump;		/* paced: no dump before (clock_mono) */
	struct listener { int family; uint16_t port; } *listeners;	/* network order */
	size_t nlisteners;
	uint64_t accept_seen[ACCEPT_SEEN];	/* socket inodes accepted on, noted */
	unsigned naccept_seen;
	uint64_t sent, recv;		/* totals */
	unsigned dump_gen;		/* dumps made, the one in progress */
	struct tp_cgskb *skb;		/* the kernel counts the cgroup's bytes */
	struct tp_netprobe *probe;	/* or every process's IP bytes */
	char *cg_dir;			/* the task's cgroup, without skb */
	uint64_t *cg_ids;		/* sorted ids of cgroup and descendants */
	size_t ncg_ids;
	unsigned lost;			/* connections that may have been missed */
	bool destroys_lost;		/* announcements lost (buffer overflow) */
	bool unannounced_end;		/* net_end() saw some unannounced */
	uint64_t listener_ino;		/* a dump looks for this listener only */
};

/* A batch of sock_diag messages being read: of a dump, or announcements
 * of destroyed sockets. */
struct net_batch {
	struct tp_net *net;
	bool destroyed;
};

/* The record of socket @cookie (inode @ino), made if new: an inherited
 * socket starts from the figures it has now (@sent, @recv). */
struct sock_rec *net_rec_get(struct tp_net *n, uint64_t cookie, uint64_t ino,
			     uint64_t sent, uint64_t recv);

/* Dump the TCP sockets of @family in @states; -1 when sock_diag failed. */
int net_dump(struct tp_net *n, int family, uint32_t states);

/* Read the destructions announced since the last look. */
void net_drain_destroyed(struct tp_net *n);

/* Note that the tree listens on @port (network order) of @family. */
void net_add_listener(struct tp_net *n, int family, uint16_t port);

#endif
