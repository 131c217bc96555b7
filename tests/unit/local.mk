## SPDX-License-Identifier: MIT
## tests/unit/local.mk: C unit tests, TAP through tests/unit/tap.h, linked
## with the real code in src/libtpmon.a (included by tests/local.mk).
UNIT_TESTS = tests/unit/test-units tests/unit/test-limits
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

tests_unit_test_units_SOURCES = tests/unit/test-units.c tests/unit/tap.h
tests_unit_test_units_LDADD = $(TPMON_LIBS)

tests_unit_test_limits_SOURCES = tests/unit/test-limits.c tests/unit/tap.h
tests_unit_test_limits_LDADD = $(TPMON_LIBS)

# the edit distance behind every "did you mean"
UNIT_TESTS += tests/unit/test-editdist
tests_unit_test_editdist_SOURCES = tests/unit/test-editdist.c tests/unit/tap.h
tests_unit_test_editdist_LDADD = $(TPMON_LIBS)

# the command quoted as a shell reads it back
UNIT_TESTS += tests/unit/test-shquote
tests_unit_test_shquote_SOURCES = tests/unit/test-shquote.c tests/unit/tap.h
tests_unit_test_shquote_LDADD = $(TPMON_LIBS)

UNIT_TESTS += tests/unit/test-proc tests/unit/test-ptree
tests_unit_test_proc_SOURCES = tests/unit/test-proc.c tests/unit/tap.h
tests_unit_test_proc_LDADD = $(TPMON_LIBS)
tests_unit_test_ptree_SOURCES = tests/unit/test-ptree.c tests/unit/tap.h
tests_unit_test_ptree_LDADD = $(TPMON_LIBS)
# a signal's sender where PTRACE_GETSIGINFO fails: none, never the kernel
UNIT_TESTS += tests/unit/test-tracer-sender
tests_unit_test_tracer_sender_SOURCES = tests/unit/test-tracer-sender.c tests/unit/tap.h
tests_unit_test_tracer_sender_LDADD = $(TPMON_LIBS)
# outside ptrace, a pid signalled only while it names the table's process
UNIT_TESTS += tests/unit/test-track-signal
tests_unit_test_track_signal_SOURCES = tests/unit/test-track-signal.c tests/unit/tap.h
tests_unit_test_track_signal_LDADD = $(TPMON_LIBS)

UNIT_TESTS += tests/unit/test-cgroup tests/unit/test-procconn
tests_unit_test_procconn_SOURCES = tests/unit/test-procconn.c tests/unit/tap.h
tests_unit_test_procconn_LDADD = $(TPMON_LIBS)
tests_unit_test_cgroup_SOURCES = tests/unit/test-cgroup.c tests/unit/tap.h
tests_unit_test_cgroup_LDADD = $(TPMON_LIBS)
UNIT_TESTS += tests/unit/test-taskstats
tests_unit_test_taskstats_SOURCES = tests/unit/test-taskstats.c tests/unit/tap.h
tests_unit_test_taskstats_LDADD = $(TPMON_LIBS)

# the summary writer (src/output/summary.c), read back with jansson
UNIT_TESTS += tests/unit/test-summary
tests_unit_test_summary_SOURCES = tests/unit/test-summary.c tests/unit/tap.h
tests_unit_test_summary_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_summary_LDADD = $(TPMON_LIBS)

# the sampler (src/measure/sampler.c) on real children of known size
UNIT_TESTS += tests/unit/test-sampler
tests_unit_test_sampler_SOURCES = tests/unit/test-sampler.c tests/unit/tap.h
tests_unit_test_sampler_LDADD = $(TPMON_LIBS)

# the live sending thread and its lanes (src/live/livequeue.c), and the
# network targets' rows against local collectors
UNIT_TESTS += tests/unit/test-livequeue
tests_unit_test_livequeue_SOURCES = tests/unit/test-livequeue.c tests/unit/tap.h
tests_unit_test_livequeue_LDADD = $(TPMON_LIBS)

# the socket probes' pure parts (src/kernel/netprobe.c, bpfasm.c's kprobes)
UNIT_TESTS += tests/unit/test-netprobe
tests_unit_test_netprobe_SOURCES = tests/unit/test-netprobe.c tests/unit/tap.h
tests_unit_test_netprobe_LDADD = $(TPMON_LIBS)

# the sock_diag reader (src/kernel/sockdiag.c), on hand-built batches
UNIT_TESTS += tests/unit/test-sockdiag
tests_unit_test_sockdiag_SOURCES = tests/unit/test-sockdiag.c tests/unit/tap.h
tests_unit_test_sockdiag_LDADD = $(TPMON_LIBS)

# the rules of the report, on hand-made figures (src/measure/figures.c)
UNIT_TESTS += tests/unit/test-figures
tests_unit_test_figures_SOURCES = tests/unit/test-figures.c tests/unit/tap.h
tests_unit_test_figures_LDADD = $(TPMON_LIBS)

# the series' columns, the table's kernel ones included (src/output/series.c)
UNIT_TESTS += tests/unit/test-series
tests_unit_test_series_SOURCES = tests/unit/test-series.c tests/unit/tap.h
tests_unit_test_series_LDADD = $(TPMON_LIBS)

# the live formats, the runtime file's reader and the table of targets (src/live)
UNIT_TESTS += tests/unit/test-live
tests_unit_test_live_SOURCES = tests/unit/test-live.c tests/unit/tap.h
tests_unit_test_live_LDADD = src/libtop.a $(TPMON_LIBS)

# which figures are lower bounds in each mode (src/measure/quality.c)
UNIT_TESTS += tests/unit/test-quality
tests_unit_test_quality_SOURCES = tests/unit/test-quality.c tests/unit/tap.h
tests_unit_test_quality_LDADD = $(TPMON_LIBS)
# the limits' decisions (src/enforce/enforce.c), on hand-made figures
UNIT_TESTS += tests/unit/test-enforce
tests_unit_test_enforce_SOURCES = tests/unit/test-enforce.c tests/unit/tap.h
tests_unit_test_enforce_LDADD = $(TPMON_LIBS)

# warnings held until their destination is known (src/basic/messages.c)
UNIT_TESTS += tests/unit/test-messages
tests_unit_test_messages_SOURCES = tests/unit/test-messages.c tests/unit/tap.h
tests_unit_test_messages_LDADD = $(BASIC_LIBS)
