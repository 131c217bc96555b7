## SPDX-License-Identifier: MIT
## tests/outputs.mk: the files written besides the summary (series,
## files, checkpoints, cctools mode), and what tpmon does with hostile or
## broken output paths (planted links, umask, bad templates) and a full
## disk (whole records only, the lost ones counted); the deep-tree helper
## (for disk-deep.test) and the unit test of outfile.c.  Included by
## tests/local.mk.
TP_OUTPUTS_TESTS = \
	tests/outputs.test \
	tests/outputs-cctools-series.test \
	tests/outputs-links.test \
	tests/outputs-planted.test \
	tests/outputs-umask.test \
	tests/outputs-full-disk.test \
	tests/outputs-full-disk-story.test \
	tests/outputs-template.test
TESTS += $(TP_OUTPUTS_TESTS)
EXTRA_DIST += $(TP_OUTPUTS_TESTS)

check_PROGRAMS += tests/helpers/deep-tree
tests_helpers_deep_tree_SOURCES = tests/helpers/deep-tree.c $(TPH_COMMON)
tests_helpers_deep_tree_LDADD = $(TPH_LIB)
tests_helpers_deep_tree_CPPFLAGS = $(TPH_CPP)
tests_helpers_deep_tree_CFLAGS = $(TPH_CF)
tests_helpers_deep_tree_LDFLAGS = $(TPH_LD)

UNIT_TESTS += tests/unit/test-outfile
tests_unit_test_outfile_SOURCES = tests/unit/test-outfile.c tests/unit/tap.h
tests_unit_test_outfile_LDADD = $(TPMON_LIBS)
