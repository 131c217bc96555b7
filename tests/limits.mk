## SPDX-License-Identifier: MIT
## tests/limits.mk: scenario tests of limit enforcement (every limitable
## resource crossed and just not crossed, --measure-only, the kill grace,
## cctools exit codes, bad limits, debatable values).  tests/limits-common.sh
## is shared with tests/signals.mk.
## Included by tests/local.mk, after tests/helpers/local.mk.

check_PROGRAMS += tests/helpers/hog-vmem
tests_helpers_hog_vmem_SOURCES = tests/helpers/hog-vmem.c $(TPH_COMMON)
tests_helpers_hog_vmem_LDADD = $(TPH_LIB)
tests_helpers_hog_vmem_CPPFLAGS = $(TPH_CPP)
tests_helpers_hog_vmem_CFLAGS = $(TPH_CF)
tests_helpers_hog_vmem_LDFLAGS = $(TPH_LD)

TP_LIMITS_TESTS = \
	tests/limits-cores.test \
	tests/limits-cores-under.test \
	tests/limits-time.test \
	tests/limits-procs.test \
	tests/limits-disk.test \
	tests/limits-io.test \
	tests/limits-vmem.test \
	tests/limits-measure-only.test \
	tests/limits-grace.test \
	tests/limits-memory.test \
	tests/limits-cctools.test \
	tests/limits-badinput.test \
	tests/limits-extremes.test \
	tests/limits-debatable.test
TESTS += $(TP_LIMITS_TESTS)
EXTRA_DIST += tests/limits-common.sh $(TP_LIMITS_TESTS)
