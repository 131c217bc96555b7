## SPDX-License-Identifier: MIT
## tests/tracking.mk: following the tree: every process of it counted
## exactly (fork trees, posix_spawn, a static program, zombies, exec from
## a thread, races between events).  Included by tests/local.mk.
TP_TRACKING_TESTS = \
	tests/tracking-fork-tree.test \
	tests/tracking-noreap.test \
	tests/tracking-spawn.test \
	tests/tracking-static.test \
	tests/tracking-threads-exec.test \
	tests/tracking-races.test
TESTS += $(TP_TRACKING_TESTS)
EXTRA_DIST += $(TP_TRACKING_TESTS) tests/exact-or-named.sh
