## SPDX-License-Identifier: MIT
## tests/opts.mk: resource_monitor's options that the engines can pass:
## --update-summary, --snapshot-events and --pid; and the slips on
## tpmon's own command line.  Included by
## tests/local.mk.

check_PROGRAMS += tests/helpers/log-steps
tests_helpers_log_steps_SOURCES = tests/helpers/log-steps.c $(TPH_COMMON)
tests_helpers_log_steps_LDADD = $(TPH_LIB)
tests_helpers_log_steps_CPPFLAGS = $(TPH_CPP)
tests_helpers_log_steps_CFLAGS = $(TPH_CF)
tests_helpers_log_steps_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/attach-target
tests_helpers_attach_target_SOURCES = tests/helpers/attach-target.c $(TPH_COMMON)
tests_helpers_attach_target_LDADD = $(TPH_LIB)
tests_helpers_attach_target_CPPFLAGS = $(TPH_CPP)
tests_helpers_attach_target_CFLAGS = $(TPH_CF) -pthread
tests_helpers_attach_target_LDFLAGS = $(TPH_LD) -pthread

TP_OPTS_TESTS = \
	tests/opts-update-summary.test \
	tests/opts-snapshots.test \
	tests/opts-snapshots-engines.test \
	tests/opts-pid.test \
	tests/opts-slips.test \
	tests/opts-help.test
TESTS += $(TP_OPTS_TESTS)
EXTRA_DIST += $(TP_OPTS_TESTS) tests/opts-snapshots-engines.py

check_PROGRAMS += tests/unit/test-snapevents
TESTS += tests/unit/test-snapevents
tests_unit_test_snapevents_SOURCES = tests/unit/test-snapevents.c tests/unit/tap.h
tests_unit_test_snapevents_LDADD = $(TPMON_LIBS)

if ENABLE_FUZZERS
noinst_PROGRAMS += tests/fuzz/fuzz-snapevents
tests_fuzz_fuzz_snapevents_SOURCES = tests/fuzz/fuzz-snapevents.c src/measure/snapevents.c src/basic/xmalloc.c src/basic/messages.c src/basic/outfile.c
tests_fuzz_fuzz_snapevents_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_snapevents_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_snapevents_LDADD = $(JANSSON_LIBS)
endif
