## SPDX-License-Identifier: MIT
## tests/hostile-outputs.mk: what tpmon does with hostile or broken output
## paths (planted links, umask, bad templates), a full disk and a deep tree.
TP_HOSTILE_OUTPUTS_TESTS = tests/outputs-links.test tests/outputs-umask.test \
	tests/disk-deep.test tests/outputs-full-disk.test \
	tests/outputs-template.test tests/limits-debatable.test
TESTS += $(TP_HOSTILE_OUTPUTS_TESTS)
EXTRA_DIST += $(TP_HOSTILE_OUTPUTS_TESTS)

check_PROGRAMS += tests/helpers/deep-tree
tests_helpers_deep_tree_SOURCES = tests/helpers/deep-tree.c $(TPH_COMMON)
tests_helpers_deep_tree_LDADD = $(TPH_LIB)
tests_helpers_deep_tree_CPPFLAGS = $(TPH_CPP)
tests_helpers_deep_tree_CFLAGS = $(TPH_CF)
tests_helpers_deep_tree_LDFLAGS = $(TPH_LD)

UNIT_TESTS += tests/unit/test-outfile
tests_unit_test_outfile_SOURCES = tests/unit/test-outfile.c tests/unit/tap.h
tests_unit_test_outfile_LDADD = $(TPMON_LIBS)
