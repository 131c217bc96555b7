## SPDX-License-Identifier: MIT
## tests/signals.mk: signals sent to tpmon itself (stop the tree, SIGKILL
## to tpmon, signals forwarded to the task).  Included by tests/local.mk,
## after tests/limits.mk (tests/limits-common.sh).
TP_SIGNALS_TESTS = \
	tests/signals-stop.test \
	tests/signals-kill.test \
	tests/signals-forward.test \
	tests/signals-terminal.test
TESTS += $(TP_SIGNALS_TESTS)
EXTRA_DIST += $(TP_SIGNALS_TESTS)
