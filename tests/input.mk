## SPDX-License-Identifier: MIT
## tests/input.mk: the task's input in its summary (input_size,
## input_files): the files it opened for reading, each once, at their size
## then, exact under ptrace and null with input_reason where no open call
## stops.  Included by tests/local.mk.
TP_INPUT_TESTS = \
	tests/input-files.test \
	tests/input-hostile.test \
	tests/input-cgroup.test
TESTS += $(TP_INPUT_TESTS)
EXTRA_DIST += $(TP_INPUT_TESTS)
# in the pure-v2 VM too (check-cgroup-vm, tests/cgroup.mk): the cgroup
# mode's probe on the opens, which this host's kernel may not allow
TP_INPUT_VM_TESTS = tests/input-files.test tests/input-cgroup.test

UNIT_TESTS += tests/unit/test-inputs
tests_unit_test_inputs_SOURCES = tests/unit/test-inputs.c tests/unit/tap.h
tests_unit_test_inputs_LDADD = $(TPMON_LIBS)
