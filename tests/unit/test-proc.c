/* SPDX-License-Identifier: MIT */
/* test-proc.c: the /proc parsers on real and hostile snapshots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernel/proc.h"
#include "tap.h"

static void test_stat_plain(void)
{
	struct proc_stat st;
	const char *s = "1234 (bash) S 1000 1234 1234 34816 1234 4194304 1200 300 0 0 "
			"150 75 4 2 20 0 3 0 98765 12345678 456 18446744073709551615 "
			"1 1 0 0 0 0 65536 3670020 1266777851 0 0 0 17 1 0 0 0 0 0";

	ok(proc_stat_parse(s, &st) == 0, "plain stat parses");
	is_int(st.pid, 1234, "pid");
	is_str(st.comm, "bash", "comm");
	is_int(st.state, 'S', "state");
	is_int(st.ppid, 1000, "ppid");
	is_int((long long)st.utime, 150, "utime (14)");
	is_int((long long)st.stime, 75, "stime (15)");
	is_int(st.num_threads, 3, "num_threads (20)");
	is_int((long long)st.starttime, 98765, "starttime (22)");
	is_int((long long)st.vsize, 12345678, "vsize (23)");
	is_int((long long)st.rss, 456, "rss (24)");
}

static void test_stat_hostile(void)
{
	struct proc_stat st;
	const char *evil = "77 (a) b (c) R 5 77 77 0 -1 4194304 0 0 0 0 "
			   "9 8 0 0 20 0 1 0 555 4096 1 0";
	const char *zombie = "88 (defunct) Z 5 88 88 0 -1 4194308 0 0 0 0 "
			     "3 4 0 0 20 0 1 0 666 0 0 0";
	const char *spaces = "99 ( x ) S 1 99 99 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 7 8 9 0";

	ok(proc_stat_parse(evil, &st) == 0, "comm with ') ' parses");
	is_str(st.comm, "a) b (c", "comm anchored on the last ')'");
	is_int(st.ppid, 5, "ppid after a hostile comm");
	is_int((long long)st.utime, 9, "utime after a hostile comm");
	ok(proc_stat_parse(zombie, &st) == 0, "zombie parses");
	is_int(st.state, 'Z', "zombie state");
	is_int((long long)st.vsize, 0, "zombie has no vsize");
	ok(proc_stat_parse(spaces, &st) == 0, "comm with spaces parses");
	is_str(st.comm, " x ", "comm keeps its spaces");
	ok(proc_stat_parse("1234 (bash) S 1000 1234", &st) < 0, "truncated stat rejected");
	ok(proc_stat_parse("1234 (bash", &st) < 0, "unterminated comm rejected");
	ok(proc_stat_parse("", &st) < 0, "empty stat rejected");
	ok(proc_stat_parse("x (y) S", &st) < 0, "non-numeric pid rejected");
	ok(proc_stat_parse("1 (y) ", &st) < 0, "missing state rejected");
}

static void test_long_comm(void)
{
	struct proc_stat st;
	char buf[512];

	snprintf(buf, sizeof(buf), "5 (%0200d) S 1 5 5 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 7 8 9 0", 0);
	ok(proc_stat_parse(buf, &st) == 0, "overlong comm parses");
	is_int((long long)strlen(st.comm), (long long)sizeof(st.comm) - 1, "overlong comm truncated");
}

static void test_schedstat(void)
{
	struct proc_schedstat ss;

	ok(proc_schedstat_parse("30123456789 456 78\n", &ss) == 0, "schedstat parses");
	is_int((long long)ss.run_ns, 30123456789LL, "run time in ns");
	is_int((long long)ss.timeslices, 78, "timeslices");
	ok(proc_schedstat_parse("12 34", &ss) < 0, "short schedstat rejected");
	ok(proc_schedstat_parse("-1 2 3", &ss) < 0, "negative schedstat rejected");
}

static void test_io(void)
{
	struct proc_io io;
	const char *s = "rchar: 100\nwchar: 200\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\n"
			"write_bytes: 8192\ncancelled_write_bytes: 0\n";

	ok(proc_io_parse(s, &io) == 0, "io parses");
	is_int((long long)io.rchar, 100, "rchar");
	is_int((long long)io.wchar, 200, "wchar");
	is_int((long long)io.read_bytes, 4096, "read_bytes, not confused with rchar");
	is_int((long long)io.write_bytes, 8192, "write_bytes");
	ok(proc_io_parse("rchar: 100\nwchar: 200\n", &io) < 0, "truncated io rejected");
}

static void test_rollup_status(void)
{
	struct proc_rollup r;
	pid_t tgid, ppid;
	const char *roll = "55d0-7ffd [rollup]\nRss:              262400 kB\n"
			   "Pss:               65600 kB\nPss_Anon: 1 kB\nSwap:                 12 kB\n"
			   "SwapPss: 3 kB\n";
	const char *status = "Name:\tcat\nUmask:\t0022\nState:\tR (running)\nTgid:\t4242\n"
			     "Ngid:\t0\nPid:\t4243\nPPid:\t17\n";

	ok(proc_rollup_parse(roll, &r) == 0, "smaps_rollup parses");
	is_int(r.rss_kb, 262400, "Rss");
	is_int(r.pss_kb, 65600, "Pss, not Pss_Anon");
	is_int(r.swap_kb, 12, "Swap, not SwapPss");
	ok(proc_rollup_parse("nothing here\n", &r) < 0, "empty rollup rejected");
	ok(proc_status_ids_parse(status, &tgid, &ppid) == 0, "status ids parse");
	is_int(tgid, 4242, "Tgid");
	is_int(ppid, 17, "PPid");
	ok(proc_status_ids_parse("Name:\tx\n", &tgid, &ppid) < 0, "status without ids rejected");
}

static void test_statm(void)
{
	uint64_t size = 0, res = 0;
	struct proc_stat st;
	char buf[128];
	ssize_t n;

	ok(proc_statm_parse("2961 406 300 25 0 150 0\n", &size, &res) == 0, "statm parses");
	is_int((long)size, 2961, "statm size (pages)");
	is_int((long)res, 406, "statm resident (pages)");
	ok(proc_statm_parse("\n", &size, &res) < 0, "empty statm rejected");
	ok(proc_init() == 0, "/proc opens");
	/* the memory passes read statm where the samples read stat: the two
	 * tell the same resident size, up to the kernel's per-CPU batching
	 * (stat reads the counters' estimate, statm their exact sum, which
	 * differ by up to 32 pages a CPU here) */
	n = proc_read("self/statm", buf, sizeof(buf));
	ok(n > 0 && proc_statm_parse(buf, &size, &res) == 0 && proc_read_stat(getpid(), &st) == 0,
	   "own statm and stat read");
	ok(res > 0 && labs((long)res - (long)st.rss) <= 1024 * 1024 / sysconf(_SC_PAGESIZE),
	   "statm's resident is stat's rss, within 1 MB");
}

static void test_readers(void)
{
	struct proc_stat st;
	struct proc_schedstat ss;

	ok(proc_init() == 0, "/proc opens");
	ok(proc_read_stat(getpid(), &st) == 0 && st.pid == getpid(), "own stat reads");
	ok(proc_read_thread_schedstat(getpid(), getpid(), &ss) == 0, "own schedstat reads");
	ok(proc_read_stat(0x3fffffff, &st) < 0, "a pid that does not exist is an error");
}

int main(void)
{
	test_stat_plain();
	test_stat_hostile();
	test_long_comm();
	test_schedstat();
	test_io();
	test_rollup_status();
	test_readers();
	test_statm();
	return done();
}
