/* SPDX-License-Identifier: MIT */
/* netprobe.h: the bytes every process of the machine sends and receives
 * over IP sockets (TCP, UDP, both families), counted by the kernel as
 * they pass through the socket calls: BPF programs on the raw
 * tracepoints sock_send_length and sock_recv_length (Linux 6.4), or on
 * kprobes at the functions those calls reach (inet_sendmsg, inet_recvmsg
 * and their inet6_ twins: 4.17 on), add each call's result to the
 * calling process's slot of a hash map keyed by its thread-group id.  Nothing is stopped, and a connection opened and
 * closed between two samples is counted like any other.  The caller says
 * which processes are the tree's (netprobe_totals(), netprobe_take());
 * slots of other processes are dropped.
 *
 * Needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN: root, in practice.
 * The programs, tracepoint links and kprobes live as long as their
 * descriptors: a killed tpmon leaves nothing behind. */
#ifndef TPMON_NETPROBE_H
#define TPMON_NETPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct tp_netprobe;

/* Where the bytes are counted: the socket calls' raw tracepoints (6.4),
 * or kprobes on the functions they call (4.17 on; see netprobe.c). */
enum netprobe_source { NETPROBE_TRACEPOINTS, NETPROBE_KPROBES };

/* The sources to try, in order, for the value @env of TPMON_NETPROBE
 * (NULL when unset): "kprobe" or "tracepoint" forces one (for the
 * tests), anything else tries the tracepoints, then the kprobes.  Their
 * number, into @out. */
size_t netprobe_sources(const char *env, enum netprobe_source out[2]);

/* The source, in words (for the debug messages). */
const char *netprobe_source_name(enum netprobe_source s);

/* Load and attach the programs of the first source that works
 * (netprobe_sources() of $TPMON_NETPROBE), and check that they count
 * tpmon's own datagram over loopback.  NULL with every source's reason
 * in @why when the kernel or tpmon's privileges allow none (before 4.17,
 * or without CONFIG_KPROBES before 6.4), or when tpmon's pids are not
 * the kernel's (a pid namespace).  With @dir (a cgroup v2 directory),
 * only the calls of the processes in that cgroup or below are counted
 * (bpf_current_task_under_cgroup(), 4.9): every slot is the tree's, and
 * the totals need no list of its processes (netprobe_take() does
 * nothing). */
struct tp_netprobe *netprobe_open(const char *dir, char *why, size_t size);

/* Process @pid of the tree has ended: its bytes join the ended ones, and
 * its slot is dropped (its pid may be reused). */
void netprobe_take(struct tp_netprobe *np, pid_t pid);

/* The tree's bytes so far: the ended processes' and those of the @n live
 * processes @live (sorted; ignored when kept to a cgroup).  A slot of no live process that was already
 * there at the previous call is dropped (a process the table did not
 * know yet is known by then).  Returns 0, or -1 when the map cannot be
 * read. */
int netprobe_totals(struct tp_netprobe *np, const pid_t *live, size_t n, uint64_t *sent,
		    uint64_t *received);

/* Were the counts complete: no slot refused or evicted for lack of room? */
bool netprobe_complete(const struct tp_netprobe *np);

void netprobe_free(struct tp_netprobe *np);

#endif
