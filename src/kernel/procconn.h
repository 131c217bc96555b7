/* SPDX-License-Identifier: MIT */
/* procconn.h: the kernel's proc connector (netlink NETLINK_CONNECTOR,
 * group CN_IDX_PROC): a fork, exec and exit event for every task of the
 * machine as it happens, to a listener with CAP_NET_ADMIN.  Nothing is
 * stopped.  The parser is pure; the socket is non-blocking.
 *
 * Lost events: the socket's queue overflows (recv() says ENOBUFS), or the
 * kernel could not allocate a message (each CPU numbers its events, so
 * a gap in one CPU's sequence shows it).  Either way the caller can no
 * longer claim to have seen every event. */
#ifndef TPMON_PROCCONN_H
#define TPMON_PROCCONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum tp_pc_kind {
	TP_PC_FORK = 1,		/* @pid/@tid born of @ppid/@ptid */
	TP_PC_EXEC,		/* @pid (its @tid) called execve */
	TP_PC_EXIT,		/* thread @tid of @pid ended with @status */
};

struct tp_pc_event {
	enum tp_pc_kind kind;
	pid_t pid, tid;		/* the task: thread group id and thread id */
	pid_t ppid, ptid;	/* FORK: the parent (real_parent: for a new
				 * thread, the parent of its process) */
	int status;		/* EXIT: the wait status (code << 8 | signal) */
	uint64_t ts_ns;		/* CLOCK_MONOTONIC when it happened, ns */
	unsigned cpu;		/* the CPU that sent it */
	uint32_t seq;		/* that CPU's sequence number */
};

/* Parse one datagram of @len bytes.  Returns 1 with *@ev filled for a
 * fork, exec or exit event; 2 for another kind of event (uid, comm, an
 * ack, ...), with only @cpu and @seq set (it is numbered too); 0 for a
 * message to ignore (another connector, a netlink error); -1 for a
 * malformed one. */
int procconn_parse(const void *buf, size_t len, struct tp_pc_event *ev);

/* The sequence numbers seen, per CPU, to find gaps. */
struct tp_pc_seq {
	uint32_t *next;		/* owned: the number expected next, per CPU */
	bool *seen;		/* owned: whether a CPU has sent one yet */
	unsigned ncpu;
};

/* Note event number @seq from CPU @cpu.  Returns true when events of that
 * CPU were skipped since its previous one (lost); the first event of a
 * CPU sets its start. */
bool procconn_seq_gap(struct tp_pc_seq *s, unsigned cpu, uint32_t seq);
void procconn_seq_free(struct tp_pc_seq *s);

/* Open a listening socket with a receive queue of @rcvbuf bytes (forced
 * past rmem_max when allowed).  Returns the descriptor (non-blocking,
 * close-on-exec), or -1 with errno (EPERM: not CAP_NET_ADMIN; the kernel
 * lacks CONFIG_PROC_EVENTS: EPROTONOSUPPORT or ENOENT). */
int procconn_open(int rcvbuf);

/* Read the next datagram into @buf.  Returns its length, 0 when none is
 * waiting, or -1 with errno (ENOBUFS: events were dropped, the socket
 * goes on). */
ssize_t procconn_recv(int fd, void *buf, size_t size);

/* Read and parse the next datagram of @fd (buffered in @buf of @size
 * bytes), checking its CPU's numbering in @seq.  Returns 1 with *@ev
 * filled for a fork, exec or exit; 2 for a datagram that is no such
 * event; 0 when none is waiting.  *@lost is set to why, when events were
 * dropped before it (a full queue, a gap in a CPU's numbering), else left
 * alone. */
int procconn_next(int fd, void *buf, size_t size, struct tp_pc_seq *seq,
		  struct tp_pc_event *ev, const char **lost);

#endif
