## SPDX-License-Identifier: MIT
## tests/bench-stops.mk: what the cheaper seccomp stops must not lose
## (accepts on a socket noted before are not looked at again).
TP_BENCH_STOPS_TESTS = \
	tests/net-accept.test

TESTS += $(TP_BENCH_STOPS_TESTS)
EXTRA_DIST += $(TP_BENCH_STOPS_TESTS)
