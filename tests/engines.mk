## SPDX-License-Identifier: MIT
## tests/engines.mk: tpmon under the real cctools engines (Work Queue,
## TaskVine, Makeflow; Debian's cctools 8.0 and the current source built
## into CCTOOLS_PREFIX, see configure --with-cctools).  Each test skips
## itself, saying why, when its engine is missing.
TESTS += tests/engines-wq.test tests/engines-vine.test tests/engines-wq8.test \
	tests/engines-makeflow.test tests/engines-auto-modes.test
EXTRA_DIST += tests/engines-wq.test tests/engines-vine.test tests/engines-wq8.test \
	tests/engines-makeflow.test tests/engines-auto-modes.test \
	tests/engines-lib.sh tests/engines/manager.py tests/engines/wq-manager.c tests/engines/sizing-manager.py
AM_TESTS_ENVIRONMENT += \
	TPMON_CCTOOLS_PREFIX="$${TPMON_CCTOOLS_PREFIX:-$(CCTOOLS_PREFIX)}"; \
	export TPMON_CCTOOLS_PREFIX;
