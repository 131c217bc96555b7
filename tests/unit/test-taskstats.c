/* SPDX-License-Identifier: MIT */
/* test-taskstats.c: unit tests of taskstats.c: the parser of the TASKSTATS
 * family's exit records, built here as the kernel lays them out (a task's
 * record, a thread group's beside it, padding, acks, other families and
 * commands, short and lying lengths); then, as root, the real kernel's
 * record of a child that wrote a known number of bytes and ran a known
 * time. */
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#include "kernel/procconn.h"
#include "kernel/taskstats.h"
#include "tap.h"

#define FAMILY 27

union msg {
	char buf[1024];
} __attribute__((aligned(8)));

struct builder {
	union msg m;
	size_t len;
};

/* Append attribute @type with @n bytes of @data; returns its offset. */
static size_t put(struct builder *b, unsigned type, const void *data, size_t n)
{
	struct nlattr a;
	size_t at = b->len;

	a.nla_len = (uint16_t)(NLA_HDRLEN + n);
	a.nla_type = (uint16_t)type;
	memcpy(b->m.buf + at, &a, sizeof(a));
	if (n)
		memcpy(b->m.buf + at + NLA_HDRLEN, data, n);
	b->len = at + NLA_ALIGN(NLA_HDRLEN + n);
	return at;
}

/* Close the nest opened at @at. */
static void nest_end(struct builder *b, size_t at)
{
	struct nlattr a;

	memcpy(&a, b->m.buf + at, sizeof(a));
	a.nla_len = (uint16_t)(b->len - at);
	memcpy(b->m.buf + at, &a, sizeof(a));
}

static void header(struct builder *b, uint16_t family, uint8_t cmd)
{
	struct genlmsghdr gh;

	memset(b, 0, sizeof(*b));
	memset(&gh, 0, sizeof(gh));
	gh.cmd = cmd;
	memcpy(b->m.buf + NLMSG_HDRLEN, &gh, sizeof(gh));
	b->len = NLMSG_HDRLEN + GENL_HDRLEN;
	(void)family;
}

static size_t finish(struct builder *b, uint16_t family)
{
	struct nlmsghdr nh;

	memset(&nh, 0, sizeof(nh));
	nh.nlmsg_len = (uint32_t)b->len;
	nh.nlmsg_type = family;
	memcpy(b->m.buf, &nh, sizeof(nh));
	return b->len;
}

/* A record of task @tid with @ts (its first @tslen bytes), the group's
 * aggregate after it if @group, a padding attribute before if @pad. */
static size_t record(struct builder *b, uint32_t tid, const struct taskstats *ts, size_t tslen,
		     bool group, bool pad)
{
	size_t at;

	header(b, FAMILY, TASKSTATS_CMD_NEW);
	if (pad)
		put(b, TASKSTATS_TYPE_NULL, NULL, 0);
	at = put(b, TASKSTATS_TYPE_AGGR_PID | NLA_F_NESTED, NULL, 0);
	put(b, TASKSTATS_TYPE_PID, &tid, sizeof(tid));
	put(b, TASKSTATS_TYPE_STATS, ts, tslen);
	nest_end(b, at);
	if (group) {
		uint32_t tgid = 1;
		struct taskstats all = *ts;

		all.ac_utime *= 10;
		at = put(b, TASKSTATS_TYPE_AGGR_TGID, NULL, 0);
		put(b, TASKSTATS_TYPE_TGID, &tgid, sizeof(tgid));
		put(b, TASKSTATS_TYPE_STATS, &all, sizeof(all));
		nest_end(b, at);
	}
	return finish(b, FAMILY);
}

static void sample_stats(struct taskstats *ts)
{
	memset(ts, 0, sizeof(*ts));
	ts->version = TASKSTATS_VERSION;
	ts->ac_utime = 120000;
	ts->ac_stime = 30000;
	ts->cpu_run_virtual_total = 151234567;
	ts->read_char = 4096;
	ts->write_char = 3145728;
	ts->read_bytes = 8192;
	ts->write_bytes = 3145728;
	ts->cancelled_write_bytes = 1024;
	ts->nvcsw = 5;
	ts->nivcsw = 2;
	ts->hiwater_rss = 2048;
	ts->ac_ppid = 77;
}

static void test_records(void)
{
	struct builder b;
	struct taskstats ts;
	struct tp_taskstats r;
	size_t len;

	sample_stats(&ts);
	len = record(&b, 4321, &ts, sizeof(ts), false, false);
	ok(taskstats_parse(b.m.buf, len, FAMILY, &r) == 1 && r.tid == 4321 && r.cpu_ns == 151234567 && r.cpu_exact &&
	   r.rchar == 4096 && r.wchar == 3145728 && r.read_bytes == 8192 &&
	   r.write_bytes == 3145728 && r.cancelled_write_bytes == 1024 && r.ctxsw == 7 &&
	   r.hiwater_rss_kb == 2048 && r.ppid == 77, "a task's record: every figure read");
	len = record(&b, 4321, &ts, sizeof(ts), true, true);
	ok(taskstats_parse(b.m.buf, len, FAMILY, &r) == 1 && r.tid == 4321 && r.cpu_ns == 151234567,
	   "beside its group's sum, after padding: the task's own figures");
	/* an older kernel's shorter struct: what is read is there */
	len = record(&b, 9, &ts, offsetof(struct taskstats, nivcsw) + 8, false, false);
	ok(taskstats_parse(b.m.buf, len, FAMILY, &r) == 1 && r.tid == 9 && r.ctxsw == 7,
	   "a shorter struct that holds the fields read");
	/* a kernel without delay accounting built in: only the tick's
	 * samples, so the CPU time is not exact (exitrec.c then gives
	 * lower bounds) */
	ts.cpu_run_virtual_total = 0;
	len = record(&b, 4321, &ts, sizeof(ts), false, false);
	ok(taskstats_parse(b.m.buf, len, FAMILY, &r) == 1 && !r.cpu_exact && r.cpu_ns == 0,
	   "no sum_exec_runtime in the record: its CPU time is not exact");
	ts.ac_utime = ts.ac_stime = 0;
	len = record(&b, 4321, &ts, sizeof(ts), false, false);
	ok(taskstats_parse(b.m.buf, len, FAMILY, &r) == 1 && r.cpu_exact,
	   "a task that never ran: 0, exactly");
	sample_stats(&ts);
	len = record(&b, 9, &ts, offsetof(struct taskstats, nvcsw), false, false);
	is_int(taskstats_parse(b.m.buf, len, FAMILY, &r), -1, "a struct cut before them: refused");
	len = record(&b, 0, &ts, sizeof(ts), false, false);
	is_int(taskstats_parse(b.m.buf, len, FAMILY, &r), -1, "task 0: refused");
}

static void test_others(void)
{
	struct builder b;
	struct taskstats ts;
	struct tp_taskstats r;
	struct nlmsghdr nh;
	size_t len, at;
	uint32_t tid = 5;

	sample_stats(&ts);
	len = record(&b, 5, &ts, sizeof(ts), false, false);
	is_int(taskstats_parse(b.m.buf, len, FAMILY + 1, &r), 0, "another family: ignored");
	is_int(taskstats_parse(b.m.buf, len, NLMSG_ERROR, &r), 0, "family number of an ack: ignored");
	header(&b, FAMILY, TASKSTATS_CMD_GET);
	put(&b, TASKSTATS_TYPE_STATS, &ts, sizeof(ts));
	len = finish(&b, FAMILY);
	is_int(taskstats_parse(b.m.buf, len, FAMILY, &r), 0, "another command: ignored");
	header(&b, FAMILY, TASKSTATS_CMD_NEW);
	put(&b, TASKSTATS_TYPE_NULL, NULL, 0);
	len = finish(&b, FAMILY);
	is_int(taskstats_parse(b.m.buf, len, FAMILY, &r), 0, "no task's record: ignored");
	header(&b, FAMILY, TASKSTATS_CMD_NEW);
	at = put(&b, TASKSTATS_TYPE_AGGR_PID, NULL, 0);
	put(&b, TASKSTATS_TYPE_PID, &tid, sizeof(tid));
	nest_end(&b, at);
	len = finish(&b, FAMILY);
	is_int(taskstats_parse(b.m.buf, len, FAMILY, &r), -1, "a task without its stats: refused");

	len = record(&b, 5, &ts, sizeof(ts), false, false);
	is_int(taskstats_parse(b.m.buf, len - 1, FAMILY, &r), -1, "a datagram shorter than it says");
	is_int(taskstats_parse(b.m.buf, NLMSG_HDRLEN - 1, FAMILY, &r), -1, "shorter than a header");
	/* a nest whose length runs past the message */
	at = NLMSG_HDRLEN + GENL_HDRLEN;
	b.m.buf[at] = (char)0xff;
	b.m.buf[at + 1] = 0x0f;
	ok(taskstats_parse(b.m.buf, len, FAMILY, &r) <= 0, "an attribute past the end: no record");
	memcpy(&nh, b.m.buf, sizeof(nh));
	nh.nlmsg_len = NLMSG_HDRLEN + 2;
	memcpy(b.m.buf, &nh, sizeof(nh));
	is_int(taskstats_parse(b.m.buf, len, FAMILY, &r), -1, "no room for the family's header");
}

/* Wait up to 2 s for the record of @tid on @fd. */
static bool record_of(int fd, uint16_t family, pid_t tid, struct tp_taskstats *r)
{
	union msg m;
	int i;

	for (i = 0; i < 200; i++) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		ssize_t n;

		if (poll(&pfd, 1, 10) < 0)
			return false;
		while ((n = procconn_recv(fd, m.buf, sizeof(m.buf))) > 0)
			if (taskstats_parse(m.buf, (size_t)n, family, r) == 1 && r->tid == tid)
				return true;
	}
	return false;
}

/* As root: a child writes 3 MiB to /dev/null in 1 KiB writes and spins
 * for 0.2 s of CPU; its record says so. */
static void test_kernel(void)
{
	uint16_t family;
	int fd = taskstats_open(1 << 20, &family);
	struct tp_taskstats r;
	pid_t pid;
	int st;

	if (fd < 0) {
		diag("no taskstats listener here (not root?): the kernel's record not checked");
		ok(geteuid() != 0, "only root may listen");
		return;
	}
	pid = fork();
	if (pid == 0) {
		static char buf[1024];
		struct timespec t0, t;
		int w = open("/dev/null", O_WRONLY), i;

		for (i = 0; i < 3072; i++)
			if (write(w, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
				_exit(1);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		do
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		while ((t.tv_sec - t0.tv_sec) * 1e9 + (t.tv_nsec - t0.tv_nsec) < 2e8);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	if (!ok(record_of(fd, family, pid, &r), "the child's exit record came"))
		return;
	is_int((long long)r.wchar, 3145728, "its write_char: 3 MiB, exactly");
	/* the child ran until its own CPU clock (sum_exec_runtime) passed
	 * 0.2 s, after 3 MiB of writes: its record's CPU time is at least
	 * that, and at most a little more (its exit) */
	ok(r.cpu_exact && r.cpu_ns >= 200000000 && r.cpu_ns <= 260000000,
	   "its CPU time, exact: %.6f s, from 0.2 s to 0.26 s", (double)r.cpu_ns / 1e9);
	ok(r.hiwater_rss_kb > 0, "its peak RSS: %llu KiB", (unsigned long long)r.hiwater_rss_kb);
	is_int(r.ppid, getpid(), "its parent: this test");
	close(fd);
}

int main(void)
{
	test_records();
	test_others();
	test_kernel();
	return done();
}
