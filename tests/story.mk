## SPDX-License-Identifier: MIT
## tests/story.mk: the story of one task: process records, the trace,
## plots, utilization figures and the terminal summary (issue 12).
TP_STORY_TESTS = \
	tests/story-records.test \
	tests/story-records-memory.test \
	tests/story-trace.test \
	tests/story-usage.test \
	tests/story-plot.test \
	tests/story-tty.test

TESTS += $(TP_STORY_TESTS)
EXTRA_DIST += $(TP_STORY_TESTS)

# the arithmetic of the utilization figures
check_PROGRAMS += tests/unit/test-utilization
TESTS += tests/unit/test-utilization
tests_unit_test_utilization_SOURCES = tests/unit/test-utilization.c tests/unit/tap.h
tests_unit_test_utilization_LDADD = $(TPMON_LIBS)
