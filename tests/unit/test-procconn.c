/* SPDX-License-Identifier: MIT */
/* test-procconn.c: unit tests of procconn.c: the parser of the proc
 * connector's datagrams, built here as the kernel lays them out (fork,
 * thread, exec, exit, ack, other kinds, another connector, short and
 * lying lengths), and the per-CPU sequence check. */
#include <stddef.h>
#include <string.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include "kernel/procconn.h"
#include "tap.h"

union msg {
	char buf[NLMSG_HDRLEN + sizeof(struct cn_msg) + sizeof(struct proc_event) + 16];
} __attribute__((aligned(8)));

/* A datagram holding @pe (its first @evlen bytes) from CPU @cpu, number @seq. */
static size_t build(union msg *m, const struct proc_event *pe, size_t evlen, uint32_t seq)
{
	struct nlmsghdr nh;
	struct cn_msg cn;

	memset(m, 0, sizeof(*m));
	memset(&nh, 0, sizeof(nh));
	memset(&cn, 0, sizeof(cn));
	nh.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + sizeof(cn) + evlen);
	nh.nlmsg_type = NLMSG_DONE;
	cn.id.idx = CN_IDX_PROC;
	cn.id.val = CN_VAL_PROC;
	cn.seq = seq;
	cn.len = (uint16_t)evlen;
	memcpy(m->buf, &nh, sizeof(nh));
	memcpy(m->buf + NLMSG_HDRLEN, &cn, sizeof(cn));
	memcpy(m->buf + NLMSG_HDRLEN + sizeof(cn), pe, evlen);
	return nh.nlmsg_len;
}

static void event(struct proc_event *pe, enum what what, unsigned cpu)
{
	memset(pe, 0, sizeof(*pe));
	pe->what = what;
	pe->cpu = cpu;
	pe->timestamp_ns = 1234567890123ULL;
}

static void test_kinds(void)
{
	union msg m;
	struct proc_event pe;
	struct tp_pc_event ev;
	size_t len;

	event(&pe, PROC_EVENT_FORK, 3);
	pe.event_data.fork.parent_pid = 100;
	pe.event_data.fork.parent_tgid = 100;
	pe.event_data.fork.child_pid = 101;
	pe.event_data.fork.child_tgid = 101;
	len = build(&m, &pe, sizeof(pe), 7);
	ok(procconn_parse(m.buf, len, &ev) == 1 && ev.kind == TP_PC_FORK && ev.pid == 101 &&
	   ev.tid == 101 && ev.ppid == 100 && ev.ptid == 100 && ev.cpu == 3 && ev.seq == 7 &&
	   ev.ts_ns == 1234567890123ULL, "fork: child, parent, cpu, number, time");

	/* a thread: its parent is its process's parent, not the process */
	pe.event_data.fork.parent_pid = 1;
	pe.event_data.fork.parent_tgid = 1;
	pe.event_data.fork.child_pid = 102;
	pe.event_data.fork.child_tgid = 101;
	len = build(&m, &pe, sizeof(pe), 8);
	ok(procconn_parse(m.buf, len, &ev) == 1 && ev.pid == 101 && ev.tid == 102 && ev.ppid == 1,
	   "a thread: tid differs from its process's id");

	event(&pe, PROC_EVENT_EXEC, 0);
	pe.event_data.exec.process_pid = 101;
	pe.event_data.exec.process_tgid = 101;
	len = build(&m, &pe, sizeof(pe), 9);
	ok(procconn_parse(m.buf, len, &ev) == 1 && ev.kind == TP_PC_EXEC && ev.pid == 101,
	   "exec");

	event(&pe, PROC_EVENT_EXIT, 1);
	pe.event_data.exit.process_pid = 101;
	pe.event_data.exit.process_tgid = 101;
	pe.event_data.exit.exit_code = 3 << 8;
	pe.event_data.exit.exit_signal = 17;
	len = build(&m, &pe, sizeof(pe), 10);
	ok(procconn_parse(m.buf, len, &ev) == 1 && ev.kind == TP_PC_EXIT && ev.status == 3 << 8,
	   "exit: the wait status");
	/* a kernel before 4.18 sends no parent in the exit event */
	len = build(&m, &pe, offsetof(struct proc_event, event_data.exit.parent_pid), 11);
	ok(procconn_parse(m.buf, len, &ev) == 1 && ev.status == 3 << 8, "exit without its parent");
	pe.event_data.exit.exit_code = 9;	/* SIGKILL */
	len = build(&m, &pe, sizeof(pe), 12);
	ok(procconn_parse(m.buf, len, &ev) == 1 && ev.status == 9, "exit by a signal");
}

static void test_others(void)
{
	union msg m;
	struct proc_event pe;
	struct tp_pc_event ev;
	struct nlmsghdr nh;
	struct cn_msg cn;
	size_t len;

	event(&pe, PROC_EVENT_COMM, 2);
	pe.event_data.comm.process_pid = 5;
	pe.event_data.comm.process_tgid = 5;
	len = build(&m, &pe, sizeof(pe), 40);
	ok(procconn_parse(m.buf, len, &ev) == 2 && ev.cpu == 2 && ev.seq == 40,
	   "another kind: numbered, not an event of ours");

	/* an ack of another process's subscription, numbered by its CPU
	 * (send_msg()): its number must be checked, or the next event of
	 * that CPU reads as a gap */
	event(&pe, PROC_EVENT_NONE, 1);
	len = build(&m, &pe, sizeof(pe), 41);
	ok(procconn_parse(m.buf, len, &ev) == 2 && ev.cpu == 1 && ev.seq == 41,
	   "an ack: numbered by its CPU, not an event of ours");
	event(&pe, PROC_EVENT_NONE, 0xffffffffU);
	len = build(&m, &pe, sizeof(pe), 1);
	ok(procconn_parse(m.buf, len, &ev) == 2 && ev.cpu == 0xffffffffU,
	   "an ack with cpu -1: not an event of ours (its number is not checked)");

	event(&pe, PROC_EVENT_FORK, 0);
	pe.event_data.fork.child_pid = 7;
	pe.event_data.fork.child_tgid = 7;
	len = build(&m, &pe, sizeof(pe), 1);
	memcpy(&cn, m.buf + NLMSG_HDRLEN, sizeof(cn));
	cn.id.idx = CN_IDX_PROC + 1;
	memcpy(m.buf + NLMSG_HDRLEN, &cn, sizeof(cn));
	ok(procconn_parse(m.buf, len, &ev) == 0, "another connector: ignored");

	len = build(&m, &pe, sizeof(pe), 1);
	ok(procconn_parse(m.buf, len - 1, &ev) == -1, "datagram shorter than its header says");
	ok(procconn_parse(m.buf, 10, &ev) == -1, "shorter than a netlink header");
	len = build(&m, &pe, 8, 1);
	ok(procconn_parse(m.buf, len, &ev) == -1, "event too short to hold its kind's fields");
	len = build(&m, &pe, sizeof(pe), 1);
	memcpy(&cn, m.buf + NLMSG_HDRLEN, sizeof(cn));
	cn.len = 60000;
	memcpy(m.buf + NLMSG_HDRLEN, &cn, sizeof(cn));
	ok(procconn_parse(m.buf, len, &ev) == -1, "connector length past the datagram");

	len = build(&m, &pe, sizeof(pe), 1);
	memcpy(&nh, m.buf, sizeof(nh));
	nh.nlmsg_type = NLMSG_ERROR;
	memcpy(m.buf, &nh, sizeof(nh));
	ok(procconn_parse(m.buf, len, &ev) == 0, "a netlink error message: ignored");

	event(&pe, PROC_EVENT_EXIT, 0);
	len = build(&m, &pe, sizeof(pe), 1);
	ok(procconn_parse(m.buf, len, &ev) == -1, "pid 0: refused");
}

static void test_seq(void)
{
	struct tp_pc_seq s;
	bool gap = false;
	uint32_t i;

	memset(&s, 0, sizeof(s));
	ok(!procconn_seq_gap(&s, 0, 500), "a CPU's first number sets its start");
	for (i = 501; i < 600; i++)
		gap |= procconn_seq_gap(&s, 0, i);
	ok(!gap, "numbers in a row: no gap");
	ok(!procconn_seq_gap(&s, 37, 4) && !procconn_seq_gap(&s, 37, 5), "a CPU far up: its own count");
	ok(!procconn_seq_gap(&s, 0, 600), "CPU 0 goes on where it was");
	ok(procconn_seq_gap(&s, 0, 602), "one number skipped: a gap");
	ok(!procconn_seq_gap(&s, 0, 603), "then in a row again");
	ok(!procconn_seq_gap(&s, 1, 0xffffffffU) && !procconn_seq_gap(&s, 1, 0), "wraps around");
	ok(!procconn_seq_gap(&s, 0xffffffffU, 0), "cpu -1 (an ack): not checked");
	procconn_seq_free(&s);
}

int main(void)
{
	plan(24);
	test_kinds();
	test_others();
	test_seq();
	return done();
}
