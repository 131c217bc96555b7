/* SPDX-License-Identifier: MIT */
/* test-netprobe.c: unit tests of the pure parts of the socket probes: the
 * sources tried for each value of TPMON_NETPROBE (kernel/netprobe.c),
 * and the kprobe PMU's sysfs texts, the registers' offsets per
 * architecture and the kernel version a kprobe program carries
 * (kernel/bpfasm.c), on the texts the kernel writes and on broken ones. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernel/bpfasm.h"
#include "kernel/netprobe.h"
#include "tap.h"

static void sources(void)
{
	enum netprobe_source s[2] = { NETPROBE_KPROBES, NETPROBE_KPROBES };
	size_t n = netprobe_sources(NULL, s);

	ok(n == 2 && s[0] == NETPROBE_TRACEPOINTS && s[1] == NETPROBE_KPROBES,
	   "unset: the tracepoints, then the kprobes");
	n = netprobe_sources("", s);
	ok(n == 2 && s[0] == NETPROBE_TRACEPOINTS, "empty: both, the tracepoints first");
	n = netprobe_sources("kprobe", s);
	ok(n == 1 && s[0] == NETPROBE_KPROBES, "kprobe: the kprobes only");
	n = netprobe_sources("tracepoint", s);
	ok(n == 1 && s[0] == NETPROBE_TRACEPOINTS, "tracepoint: the tracepoints only");
	n = netprobe_sources("kprobes ", s);
	ok(n == 2 && s[0] == NETPROBE_TRACEPOINTS, "an unknown value: both, in order");
	like(netprobe_source_name(NETPROBE_KPROBES), "inet_sendmsg", "the kprobes' name");
	like(netprobe_source_name(NETPROBE_TRACEPOINTS), "sock_send_length",
	     "the tracepoints' name");
}

static void pmu_texts(void)
{
	is_int(bpfasm_kprobe_type("6\n"), 6, "type \"6\\n\"");
	is_int(bpfasm_kprobe_type("10"), 10, "type \"10\" without its newline");
	is_int(bpfasm_kprobe_type(""), -1, "type: empty");
	is_int(bpfasm_kprobe_type("-6\n"), -1, "type: negative");
	is_int(bpfasm_kprobe_type("6 \n"), -1, "type: a space after");
	is_int(bpfasm_kprobe_type("6\n7\n"), -1, "type: two lines");
	is_int(bpfasm_kprobe_type("99999999999\n"), -1, "type: beyond an int");
	is_int(bpfasm_kprobe_retbit("config:0\n"), 0, "retprobe \"config:0\"");
	is_int(bpfasm_kprobe_retbit("config:63"), 63, "retprobe at the last bit");
	is_int(bpfasm_kprobe_retbit("config:64\n"), -1, "retprobe beyond 64 bits");
	is_int(bpfasm_kprobe_retbit("config1:0\n"), -1, "retprobe in config1");
	is_int(bpfasm_kprobe_retbit("config:0-1\n"), -1, "retprobe: a range");
	is_int(bpfasm_kprobe_retbit("config:\n"), -1, "retprobe: no bit");
	is_int(bpfasm_kprobe_retbit("config"), -1, "retprobe: cut short");
}

static void regs_and_version(void)
{
	struct bpfasm_regs r = { -1, -1, -1 };

	ok(bpfasm_regs_of("x86_64", &r) == 0 && r.ret == 80 && r.arg1 == 112 && r.arg4 == 88,
	   "x86_64: ax at 80, di at 112, cx at 88");
	ok(bpfasm_regs_of("aarch64", &r) == 0 && r.ret == 0 && r.arg1 == 0 && r.arg4 == 24,
	   "aarch64: x0 at 0 (the result and the first argument), x3 at 24");
	is_int(bpfasm_regs_of("i686", &r), -1, "i686: refused");
	is_int(bpfasm_regs_of("ppc64le", &r), -1, "ppc64le: refused");
	is_int(bpfasm_kversion("4.18.0-553.el8_10.x86_64"), 0x041200, "RHEL 8's 4.18.0");
	is_int(bpfasm_kversion("5.14.0-427.el9.x86_64"), 0x050e00, "RHEL 9's 5.14.0");
	is_int(bpfasm_kversion("4.19.316-1"), 0x0413ff, "a sublevel over 255 kept at 255");
	is_int(bpfasm_kversion("6.1.0-56-amd64"), 0x060100, "Debian 12's 6.1.0");
	is_int(bpfasm_kversion("5.4-rc1"), 0x050400, "no sublevel");
	is_int(bpfasm_kversion("6"), 0, "no minor: 0");
	is_int(bpfasm_kversion("x.1.2"), 0, "not a number: 0");
	is_int(bpfasm_kversion("300.1.2"), 0, "a major beyond 255: 0");
}

int main(void)
{
	plan(33);
	sources();
	pmu_texts();
	regs_and_version();
	return done();
}
