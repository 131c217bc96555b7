## SPDX-License-Identifier: MIT
## tests/fuzz/local.mk: libFuzzer harnesses for parsers of outside input.
## Built only with `configure --enable-fuzzers CC=clang`; run them with
## tests/fuzz/run-fuzzers SECONDS (seeds in tests/fuzz/corpus/NAME/).
## Each harness compiles the parsers it needs itself, instrumented, rather
## than linking the uninstrumented src/libtpmon.a.
EXTRA_DIST += tests/fuzz/run-fuzzers tests/fuzz/corpus

if ENABLE_FUZZERS
FUZZ_FLAGS = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

noinst_PROGRAMS = tests/fuzz/fuzz-limits tests/fuzz/fuzz-proc tests/fuzz/fuzz-sockdiag tests/fuzz/fuzz-netlink \
	tests/fuzz/fuzz-btf tests/fuzz/fuzz-kprobe

tests_fuzz_fuzz_limits_SOURCES = tests/fuzz/fuzz-limits.c \
	src/config/limitset.c src/basic/units.c src/basic/resources.c src/basic/editdist.c src/basic/figtable.c src/basic/messages.c src/basic/outfile.c src/basic/xmalloc.c
tests_fuzz_fuzz_limits_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_limits_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_limits_LDADD = $(JANSSON_LIBS)

tests_fuzz_fuzz_proc_SOURCES = tests/fuzz/fuzz-proc.c src/kernel/proc.c src/cgroup/cgroup.c \
	src/basic/xmalloc.c src/basic/messages.c src/basic/outfile.c
tests_fuzz_fuzz_proc_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_proc_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)

tests_fuzz_fuzz_sockdiag_SOURCES = tests/fuzz/fuzz-sockdiag.c src/kernel/sockdiag.c
tests_fuzz_fuzz_sockdiag_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_sockdiag_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)

tests_fuzz_fuzz_netlink_SOURCES = tests/fuzz/fuzz-netlink.c src/kernel/taskstats.c src/kernel/procconn.c
tests_fuzz_fuzz_netlink_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_netlink_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)

tests_fuzz_fuzz_btf_SOURCES = tests/fuzz/fuzz-btf.c src/kernel/btf.c
tests_fuzz_fuzz_btf_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_btf_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)

tests_fuzz_fuzz_kprobe_SOURCES = tests/fuzz/fuzz-kprobe.c src/kernel/bpfasm.c src/basic/messages.c src/basic/outfile.c src/basic/xmalloc.c
tests_fuzz_fuzz_kprobe_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_kprobe_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
endif
