## SPDX-License-Identifier: MIT
## tests/quality.mk: which figures are exact and which are lower bounds in
## each mode (ptrace, poll, --pid, cgroup), against ground truth, and how
## the outputs say so (series nan, the cctools split, exit 4 on a fatal
## error: tests/helpers/faildumps).  Included by tests/local.mk.
TP_QUALITY_TESTS = \
	tests/quality-modes.test \
	tests/quality-outputs.test
TESTS += $(TP_QUALITY_TESTS)
EXTRA_DIST += $(TP_QUALITY_TESTS)
