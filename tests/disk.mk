## SPDX-License-Identifier: MIT
## tests/disk.mk: the disk footprint: no depth hides a file
## (disk-deep.test), and a working directory that is not the task's own
## is not walked whole (disk-foreign.test).  Included by tests/local.mk.
TP_DISK_TESTS = \
	tests/disk-deep.test \
	tests/disk-foreign.test
TESTS += $(TP_DISK_TESTS)
EXTRA_DIST += $(TP_DISK_TESTS)

# which working directories are never one task's own (src/measure/disk.c)
UNIT_TESTS += tests/unit/test-disk
tests_unit_test_disk_SOURCES = tests/unit/test-disk.c tests/unit/tap.h
tests_unit_test_disk_LDADD = $(TPMON_LIBS)
