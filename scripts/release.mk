## SPDX-License-Identifier: MIT
## scripts/release.mk: `make release` (scripts/release: the tarball, the
## static binary, the .deb and their SHA256SUMS) and `make distcheck-quick`,
## the distcheck it runs.  Included by Makefile.am.
EXTRA_DIST += scripts/release scripts/deb-smoke scripts/release.mk
# debian/ too: the .deb builds from the tarball alone
EXTRA_DIST += debian/changelog debian/control debian/copyright debian/rules \
	debian/source/format debian/tpmon.alternatives debian/tpmon.docs \
	debian/tpmon.lintian-overrides

# The tests that make distcheck-quick runs on the tarball: the unit tests
# and a few scenario tests (tracking, a limit, exit statuses, the summary,
# the license lines).  CI runs the whole suite three times already (gcc,
# ASan+UBSan, valgrind); this checks that the tarball holds everything
# needed to build and test, without a fourth full run.
DISTCHECK_TESTS = $(UNIT_TESTS) tests/license-spdx.test tests/exit-status.test \
	tests/tracking-fork-tree.test tests/limits-memory.test tests/summary-fields.test

distcheck-quick:
	$(MAKE) $(AM_MAKEFLAGS) distcheck TESTS='$(DISTCHECK_TESTS)'

release:
	$(top_srcdir)/scripts/release $(abs_top_builddir)/release
.PHONY: distcheck-quick release

# The tarball's list of its own files (tests/license-spdx.test reads it
# where there is no git checkout to ask, so that build products never count).
dist-hook:
	cd $(distdir) && find . -type f ! -name MANIFEST | sed 's|^\./||' | LC_ALL=C sort >MANIFEST
