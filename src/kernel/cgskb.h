/* SPDX-License-Identifier: MIT */
/* cgskb.h: the TCP payload bytes that a cgroup's sockets send and
 * receive, counted by the kernel itself: two BPF_PROG_TYPE_CGROUP_SKB
 * programs (egress and ingress) attached to the cgroup add each TCP
 * segment's payload to a BPF array that tpmon reads.  No process is
 * stopped and no socket is missed, however short its life.
 *
 * Needs Linux 4.15 (cgroup_skb 4.10, BPF_F_ALLOW_MULTI 4.15; plain
 * attach is tried before 4.15), cgroup v2, and CAP_SYS_ADMIN (or
 * CAP_BPF and CAP_NET_ADMIN, 5.8): root, in practice. */
#ifndef TPMON_CGSKB_H
#define TPMON_CGSKB_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct tp_cgskb;

/* Attach the counters to the cgroup directory @dir: its sockets, and
 * those of its descendants, count from now on.  NULL with the reason in
 * @why when the kernel or tpmon's privileges do not allow it.  The
 * programs live as long as the cgroup: removing it (as tpmon's guard
 * does if tpmon is killed) detaches them, so nothing outlives the run. */
struct tp_cgskb *cgskb_attach(const char *dir, char *why, size_t size);

/* The payload bytes counted so far (retransmissions included, see the
 * man page); -1 when the counters cannot be read. */
int cgskb_read(struct tp_cgskb *c, uint64_t *sent, uint64_t *received);

/* Had the last cgskb_read() seen IPv6 TCP?  Then its totals are lower
 * bounds (see MAP_IPV6 in cgskb.c). */
bool cgskb_ipv6_seen(const struct tp_cgskb *c);

/* Detach the programs (if the cgroup still exists) and close them. */
void cgskb_free(struct tp_cgskb *c);

#endif
