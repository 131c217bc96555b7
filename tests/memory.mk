## SPDX-License-Identifier: MIT
## tests/memory.mk: the memory figures: spikes, sums over the tree, shared
## pages, late growth, a tree that holds few descriptors.  Included by
## tests/local.mk.
TP_MEMORY_TESTS = \
	tests/memory-spike.test \
	tests/memory-sum.test \
	tests/memory-shared.test \
	tests/memory-late.test \
	tests/memory-few-fds.test
TESTS += $(TP_MEMORY_TESTS)
EXTRA_DIST += $(TP_MEMORY_TESTS)
