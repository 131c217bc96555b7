## SPDX-License-Identifier: MIT
## tests/live.mk: the live figures (src/live, issue 26): the runtime file
## and `tpmon top` (in tmux), and the real collectors started on localhost
## by tests/live-lib.sh: node_exporter and Prometheus, influxd, cctools'
## catalog_server; a collector down or hung.  Each skips with its reason
## where a server is missing.
TP_LIVE_TESTS = tests/live-runtime.test tests/live-top.test \
	tests/live-prometheus.test tests/live-influxdb.test \
	tests/live-down.test tests/live-catalog.test
TESTS += $(TP_LIVE_TESTS)
EXTRA_DIST += $(TP_LIVE_TESTS) tests/live-lib.sh

# the live formats' escaping and the runtime file's reader, fuzzed
if ENABLE_FUZZERS
noinst_PROGRAMS += tests/fuzz/fuzz-live
tests_fuzz_fuzz_live_SOURCES = tests/fuzz/fuzz-live.c \
	src/live/point.c src/live/prom.c src/live/influx.c src/live/liveread.c src/live/livedir.c \
	src/basic/safetext.c src/basic/resources.c src/basic/editdist.c src/basic/figtable.c src/basic/xmalloc.c src/basic/messages.c src/basic/outfile.c
tests_fuzz_fuzz_live_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_live_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_live_LDADD = $(JANSSON_LIBS)
endif
