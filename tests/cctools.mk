## SPDX-License-Identifier: MIT
## tests/cctools.mk: the end-to-end test of tpmon as the resource monitor of
## cctools' Makeflow and Work Queue (it skips itself when they are missing).
TESTS += tests/cctools-makeflow.test
EXTRA_DIST += tests/cctools-makeflow.test
