## SPDX-License-Identifier: MIT
## tests/local.mk: how `make check` runs the test suite (included by Makefile.am).
## Every test speaks TAP; scenario tests are tests/*.test shell scripts sharing
## tests/init.sh, unit tests are C programs in tests/unit/.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .test
TEST_LOG_DRIVER = $(LOG_DRIVER)
AM_TESTS_ENVIRONMENT = \
	TPMON='$(abs_top_builddir)/tpmon'; \
	HELPERS='$(abs_top_builddir)/tests/helpers'; \
	TESTS_SRCDIR='$(abs_top_srcdir)/tests'; \
	JQ='$(JQ)'; \
	TPMON_WRAPPER='$(TPMON_WRAPPER)'; \
	export TPMON HELPERS TESTS_SRCDIR JQ TPMON_WRAPPER;
TPMON_WRAPPER =

include $(srcdir)/tests/unit/local.mk
include $(srcdir)/tests/helpers/local.mk
include $(srcdir)/tests/fuzz/local.mk
include $(srcdir)/tests/cctools.mk

# outputs besides the summary: series, files, checkpoints, disk, cctools mode
TESTS += tests/outputs.test tests/tracking-races.test tests/outputs-cctools-series.test \
	tests/quality-modes.test tests/quality-outputs.test
EXTRA_DIST += tests/outputs.test tests/tracking-races.test tests/outputs-cctools-series.test \
	tests/quality-modes.test tests/quality-outputs.test

# The scenario tests again with every tpmon run under valgrind memcheck:
# any memory error or definite leak makes tpmon exit 99 and the test fail.
VALGRIND_WRAPPER = $(VALGRIND) -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite --show-leak-kinds=definite
check-valgrind:
	@test -n "$(VALGRIND)" || { echo "valgrind not found"; exit 1; }
	$(MAKE) $(AM_MAKEFLAGS) check TPMON_WRAPPER="$(VALGRIND_WRAPPER)"
.PHONY: check-valgrind
include $(srcdir)/tests/limits.mk
include $(srcdir)/tests/engine-opts.mk
include $(srcdir)/tests/hostile-core.mk
include $(srcdir)/tests/hostile-outputs.mk
include $(srcdir)/tests/report.mk
include $(srcdir)/tests/cgroup.mk
include $(srcdir)/tests/story.mk
include $(srcdir)/tests/gpu-net.mk
include $(srcdir)/tests/engines.mk
include $(srcdir)/tests/nest-peak.mk
include $(srcdir)/tests/trace-out.mk
include $(srcdir)/tests/bench-stops.mk
include $(srcdir)/tests/ship.mk
include $(srcdir)/tests/batch.mk
include $(srcdir)/tests/live.mk
include $(srcdir)/tests/conformance.mk
