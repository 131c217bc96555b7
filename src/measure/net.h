/* SPDX-License-Identifier: MIT */
/* net.h: bytes the tree sent and received over TCP, per task and without
 * privileges: the tree's sockets (socket:[inode] links in /proc/PID/fd)
 * looked up in the kernel's socket table through sock_diag. */
#ifndef TPMON_NET_H
#define TPMON_NET_H

#include <stdbool.h>
#include <stdint.h>
#include "track/ptree.h"

struct tp_net;

/* A new counter; the sockets tpmon itself holds now (inherited by the
 * task: a worker's connection on stdin) count only what moves from their
 * first sighting on.  NULL, with a debug message, when sock_diag cannot
 * be opened: the figures are then unknown. */
struct tp_net *net_new(void);
void net_free(struct tp_net *n);

/* With @on, the tree's connect and accept calls are caught (net_syscall()):
 * then only the descriptors of processes with net_flag set are scanned
 * (the others cannot hold a TCP connection), not those of every process
 * that ran. */
void net_set_trapping(struct tp_net *n, bool on);

/* Free what net puts in each record of @t (its sockets' inodes) as the
 * record is freed (ptree_watch()).  Before any process is added. */
void net_watch(struct tp_net *n, struct tp_ptree *t);

/* The socket of inode @ino (tpmon's, handed to the task; 0: none)
 * carries no TCP traffic:
 * the task's copies of it are not the tree's sockets.  A tree whose only
 * socket is the nested-tpmon channel then costs no dump of the kernel's
 * socket table, nor scans of its processes' descriptors. */
void net_skip_inode(struct tp_net *n, uint64_t ino);

/* With @on and trapping, net_sample() dumps the kernel's socket table only
 * as often as keeps its cost under 2% of a CPU (the table holds every
 * socket of the machine); off where a network limit needs every sample. */
void net_pace_dumps(struct tp_net *n, bool on);

/* Look at the tree's TCP sockets now and update the figures of each, kept
 * by socket cookie: a socket closed since is still counted with what was
 * last seen of it (or with its final figures when the kernel still lists
 * it after the close, as it does in FIN_WAIT1, CLOSING and LAST_ACK). */
void net_sample(struct tp_net *n, struct tp_ptree *t);

/* The last look, once the tree has ended: also waits a few ms for the
 * kernel to announce the destruction of the tree's last sockets. */
void net_end(struct tp_net *n, struct tp_ptree *t);

/* Thread @tid of process @pid is stopped at the entry of connect, accept
 * or accept4 (a seccomp stop): note the TCP socket it connects, so that
 * its final figures count even if it is closed before the next sample,
 * or the port it accepts on, so that the connections it accepts count
 * likewise.  Reads the descriptor through pidfd_getfd(). */
void net_syscall(struct tp_net *n, pid_t pid, pid_t tid);

/* Count the TCP bytes of the cgroup @dir (the task's, made before the
 * task starts): with BPF allowed (root, 4.15) the kernel counts every
 * payload byte of its sockets (cgskb.h), exactly, and true is returned:
 * then no connect or accept needs a stop.  Otherwise false, and the
 * sock_diag dumps also take the sockets made in @dir or below (by their
 * INET_DIAG_CGROUP_ID, 5.9), which finds those of processes no sample
 * saw, but not those closed between two samples. */
bool net_use_cgroup(struct tp_net *n, const char *dir);

/* As root (6.4 and later), count the IP bytes (TCP and UDP) of every
 * process through the socket calls' tracepoints (netprobe.h), summed over
 * the tree's processes: the table must hold every process of the tree
 * from its birth to its end (poll with the kernel's records, --pid).
 * Call it before the task starts.  True when they count; otherwise
 * false, and the sock_diag dumps go on as before. */
bool net_use_probes(struct tp_net *n);

/* Are the totals exact?  True with the cgroup's kernel counters, and in
 * ptrace mode where every connect and accept was noted and every
 * destruction announced; else they are lower bounds (poll, --pid, a
 * cgroup without BPF, a kernel without pidfd_getfd).  False for NULL. */
bool net_bytes_exact(const struct tp_net *n);

/* Totals so far, bytes. */
void net_totals(const struct tp_net *n, uint64_t *sent, uint64_t *received);

#endif
