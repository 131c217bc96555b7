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
	TPMON_SANITIZED='$(TP_SANITIZED)'; \
	export TPMON HELPERS TESTS_SRCDIR JQ TPMON_WRAPPER TPMON_SANITIZED;
TPMON_WRAPPER =

include $(srcdir)/tests/unit/local.mk
include $(srcdir)/tests/helpers/local.mk
include $(srcdir)/tests/fuzz/local.mk
include $(srcdir)/tests/cctools.mk

# Each family of scenario tests (FAMILY-CASE.test) is registered in
# tests/FAMILY.mk, with its helpers and unit tests; a family of one test is
# here.
TP_SINGLE_TESTS = \
	tests/daemon.test \
	tests/exit-status.test \
	tests/io-children.test \
	tests/license-spdx.test \
	tests/release-version.test \
	tests/sh-option.test \
	tests/snakemake-workflow.test \
	tests/stop-cont.test \
	tests/structure.test \
	tests/structure-figures.test \
	tests/summary-fields.test
TESTS += $(TP_SINGLE_TESTS)
EXTRA_DIST += tests/shcalls.awk
EXTRA_DIST += $(TP_SINGLE_TESTS)

# The scenario tests again with every tpmon run under valgrind memcheck:
# any memory error or definite leak makes tpmon exit 99 and the test fail.
VALGRIND_WRAPPER = $(VALGRIND) -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite --show-leak-kinds=definite
check-valgrind:
	@test -n "$(VALGRIND)" || { echo "valgrind not found"; exit 1; }
	$(MAKE) $(AM_MAKEFLAGS) check TPMON_WRAPPER="$(VALGRIND_WRAPPER)"
.PHONY: check-valgrind
# the longest tests first (conformance 60-90 s, Slurm's time limit 60-90
# s, mostly waiting): started last, they ran alone at the end of make -j2
include $(srcdir)/tests/conformance.mk
include $(srcdir)/tests/slurm.mk
include $(srcdir)/tests/tracking.mk
include $(srcdir)/tests/input.mk
include $(srcdir)/tests/memory.mk
include $(srcdir)/tests/outputs.mk
include $(srcdir)/tests/disk.mk
include $(srcdir)/tests/limits.mk
include $(srcdir)/tests/signals.mk
include $(srcdir)/tests/end.mk
include $(srcdir)/tests/opts.mk
include $(srcdir)/tests/hostile.mk
include $(srcdir)/tests/nest.mk
include $(srcdir)/tests/net.mk
include $(srcdir)/tests/gpu.mk
include $(srcdir)/tests/report.mk
include $(srcdir)/tests/story.mk
include $(srcdir)/tests/cgroup.mk
include $(srcdir)/tests/engines.mk
include $(srcdir)/tests/static.mk
include $(srcdir)/tests/live.mk
include $(srcdir)/tests/quality.mk
include $(srcdir)/tests/sizing.mk
