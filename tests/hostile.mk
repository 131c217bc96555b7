## SPDX-License-Identifier: MIT
## tests/hostile.mk: hostile tasks against the core (issue #10, items
## 1-4): no process leaves the tree, a fork bomb cannot starve tpmon, its
## own memory and descriptors stay bounded, nested tpmon runs are exact; a
## hostile command line.
## Included by tests/local.mk.

check_PROGRAMS += tests/helpers/clone-escape
tests_helpers_clone_escape_SOURCES = tests/helpers/clone-escape.c $(TPH_COMMON)
tests_helpers_clone_escape_LDADD = $(TPH_LIB)
tests_helpers_clone_escape_CPPFLAGS = $(TPH_CPP)
tests_helpers_clone_escape_CFLAGS = $(TPH_CF)
tests_helpers_clone_escape_LDFLAGS = $(TPH_LD) -pthread

check_PROGRAMS += tests/helpers/fork-flood
tests_helpers_fork_flood_SOURCES = tests/helpers/fork-flood.c $(TPH_COMMON)
tests_helpers_fork_flood_LDADD = $(TPH_LIB)
tests_helpers_fork_flood_CPPFLAGS = $(TPH_CPP)
tests_helpers_fork_flood_CFLAGS = $(TPH_CF)
tests_helpers_fork_flood_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/many-threads
tests_helpers_many_threads_SOURCES = tests/helpers/many-threads.c $(TPH_COMMON)
tests_helpers_many_threads_LDADD = $(TPH_LIB)
tests_helpers_many_threads_CPPFLAGS = $(TPH_CPP)
tests_helpers_many_threads_CFLAGS = $(TPH_CF)
tests_helpers_many_threads_LDFLAGS = $(TPH_LD) -pthread

check_PROGRAMS += tests/helpers/nest-fake
tests_helpers_nest_fake_SOURCES = tests/helpers/nest-fake.c $(TPH_COMMON)
tests_helpers_nest_fake_LDADD = $(TPH_LIB)
tests_helpers_nest_fake_CPPFLAGS = $(TPH_CPP)
tests_helpers_nest_fake_CFLAGS = $(TPH_CF)
tests_helpers_nest_fake_LDFLAGS = $(TPH_LD)

TP_HOSTILE_TESTS = \
	tests/hostile-clone.test \
	tests/hostile-cmdline.test \
	tests/hostile-forkbomb.test \
	tests/hostile-neighbours.test \
	tests/hostile-nested.test \
	tests/hostile-scale.test
TESTS += $(TP_HOSTILE_TESTS)
EXTRA_DIST += $(TP_HOSTILE_TESTS)
