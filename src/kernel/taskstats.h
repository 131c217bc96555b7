/* SPDX-License-Identifier: MIT */
/* taskstats.h: the kernel's exit records (the TASKSTATS generic netlink
 * family): as each task of the machine ends on a CPU a listener
 * registered for, the kernel sends its final CPU time, I/O, context
 * switches and peak RSS.  Registering needs CAP_NET_ADMIN.  Nothing is
 * stopped.  The parser is pure; the socket is non-blocking.
 *
 * The records' precision: ac_utime and ac_stime are the task's tick-
 * sampled times in µs (as getrusage's raw figures); the kernel rounds
 * read_char, write_char, read_bytes and write_bytes down to a multiple of
 * 1024 (so at most 1023 bytes of each are lost per task), and the
 * syscall counts likewise (so those are not taken). */
#ifndef TPMON_TASKSTATS_H
#define TPMON_TASKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The final figures of one task (a thread, its own figures only). */
struct tp_taskstats {
	pid_t tid;			/* the task */
	pid_t ppid;			/* its parent's process when it ended
					 * (a thread: its process's parent) */
	/* its CPU time, ns: the scheduler's sum_exec_runtime, exact, from
	 * the delay accounting's part of the record (filled whether or not
	 * delay accounting is on, where it is built in: Debian, RHEL 8);
	 * ac_utime and ac_stime are only the scheduler tick's samples (4 ms
	 * apart at HZ=250), not used */
	uint64_t cpu_ns;
	bool cpu_exact;			/* cpu_ns was there (else 0) */
	uint64_t rchar, wchar;		/* bytes passed to read/write calls */
	uint64_t read_bytes, write_bytes;	/* storage I/O, bytes */
	uint64_t cancelled_write_bytes;
	uint64_t ctxsw;			/* voluntary + involuntary switches */
	uint64_t hiwater_rss_kb;	/* its memory's peak RSS, KiB (0: none) */
};

/* Parse one datagram of @len bytes from the family numbered @family.
 * Returns 1 with *@out filled from a task's exit record (the per-task
 * part; a whole process's sum, sent beside it, is not read: its threads'
 * records add up to it); 0 for a message to ignore (an ack, another
 * family or command); -1 for a malformed one. */
int taskstats_parse(const void *buf, size_t len, uint16_t family, struct tp_taskstats *out);

/* Open a socket listening to the exit records of every possible CPU,
 * with a receive queue of @rcvbuf bytes (forced past rmem_max when
 * allowed).  Returns the descriptor (non-blocking, close-on-exec) with
 * *@family set, or -1 with errno (EPERM: not CAP_NET_ADMIN; ENOENT: the
 * kernel has no taskstats).  Closing it is enough: the kernel drops a
 * listener it can no longer send to. */
int taskstats_open(int rcvbuf, uint16_t *family);

/* (its datagrams are read with procconn_recv(), procconn.h) */

#endif
