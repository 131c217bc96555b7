## SPDX-License-Identifier: MIT
## tests/nest.mk: a nested tpmon's peak of live processes comes from
## the enclosing tpmon, which saw every process (tests/hostile-nested.test
## and tests/nest-peak.test), found by name when the task closed the
## inherited descriptor (tests/nest-name.test).  Included by tests/local.mk.

check_PROGRAMS += tests/helpers/fork-burst
tests_helpers_fork_burst_SOURCES = tests/helpers/fork-burst.c $(TPH_COMMON)
tests_helpers_fork_burst_LDADD = $(TPH_LIB)
tests_helpers_fork_burst_CPPFLAGS = $(TPH_CPP)
tests_helpers_fork_burst_CFLAGS = $(TPH_CF)
tests_helpers_fork_burst_LDFLAGS = $(TPH_LD)

TP_NEST_TESTS = \
	tests/nest-peak.test \
	tests/nest-name.test
TESTS += $(TP_NEST_TESTS)
EXTRA_DIST += $(TP_NEST_TESTS)

check_PROGRAMS += tests/unit/test-nested
TESTS += tests/unit/test-nested
tests_unit_test_nested_SOURCES = tests/unit/test-nested.c tests/unit/tap.h
tests_unit_test_nested_LDADD = $(TPMON_LIBS)
