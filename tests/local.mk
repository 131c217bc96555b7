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
	export TPMON HELPERS TESTS_SRCDIR JQ;

include $(srcdir)/tests/unit/local.mk
include $(srcdir)/tests/helpers/local.mk
include $(srcdir)/tests/fuzz/local.mk
