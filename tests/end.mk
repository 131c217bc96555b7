## SPDX-License-Identifier: MIT
## tests/end.mk: why a task ended, what to ask for next time, and notes
## (the summary's ending, retry and notes; issue 33).  Included by
## tests/local.mk, after tests/limits.mk (tests/limits-common.sh).
TP_END_TESTS = \
	tests/end-cause.test \
	tests/end-sender.test \
	tests/end-oom.test \
	tests/end-throttle.test \
	tests/end-limit.test
TESTS += $(TP_END_TESTS)
# in the pure-v2 VM too (check-cgroup-vm, tests/cgroup.mk): the cgroup
# mode on v2 and Debian 12's kernel, whose BTF places tgid elsewhere
TP_END_VM_TESTS = tests/end-sender.test
EXTRA_DIST += $(TP_END_TESTS) tests/end-common.sh

# the decisions: cause, notes and retry on hand-made summaries, and the
# parsers of mountinfo, oom_kill counters and PSI
check_PROGRAMS += tests/unit/test-endcause
TESTS += tests/unit/test-endcause
tests_unit_test_endcause_SOURCES = tests/unit/test-endcause.c tests/unit/tap.h
tests_unit_test_endcause_LDADD = $(TPMON_LIBS)

# the kernel's BTF read for the signal sender's probe (a member's offset),
# on hand-built blobs and this machine's own
check_PROGRAMS += tests/unit/test-btf
TESTS += tests/unit/test-btf
tests_unit_test_btf_SOURCES = tests/unit/test-btf.c tests/unit/tap.h
tests_unit_test_btf_LDADD = $(TPMON_LIBS)
