## SPDX-License-Identifier: MIT
## tests/conformance.mk: the conformance matrix (issue 27): the same
## ground-truth workloads (tests/conformance-lib.sh) in every tracking mode,
## each figure judged exact, a flagged lower bound, or null.  The host's
## modes in tests/conformance.test; the cgroup modes in
## tests/cgroup-conformance.test (listed in tests/cgroup.mk, run in the VM
## by make check-cgroup-vm).  Included by tests/local.mk.

# oldkernel: runs a command with the system calls of a 4.18 kernel
check_PROGRAMS += tests/helpers/oldkernel
tests_helpers_oldkernel_SOURCES = tests/helpers/oldkernel.c $(TPH_COMMON)
tests_helpers_oldkernel_CPPFLAGS = $(TPH_CPP) $(SECCOMP_CFLAGS)
tests_helpers_oldkernel_CFLAGS = $(TPH_CF)
tests_helpers_oldkernel_LDFLAGS = $(TPH_LD)
tests_helpers_oldkernel_LDADD = $(TPH_LIB) $(SECCOMP_LIBS)

TESTS += tests/conformance.test
EXTRA_DIST += tests/conformance.test tests/conformance-lib.sh
