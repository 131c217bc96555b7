## SPDX-License-Identifier: MIT
## tests/cgroup.mk: the cgroup tests (containment, kernel figures and
## limits, --tracking=cgroup, the SIGKILL guard).  The v2 ones skip where
## no cgroup v2 with the memory and pids controllers exists (this
## project's hosts); CI runs them as root in ../shared/tools/vm-run, where
## each runs its cases as root, as a user in a delegated cgroup and as a
## user without one (tests/cgroup-common.sh).  cgroup-hybrid.test is the
## other way round: it runs natively, as root, on a cgroup v1 or hybrid
## host (this project's), and skips on pure v2; cgroup-v1only.test runs it
## again with the unified hierarchy unmounted (RHEL 8's layout).  Included by
## tests/local.mk.
TP_CGROUP_TESTS = \
	tests/cgroup-basic.test \
	tests/cgroup-limits.test \
	tests/cgroup-sigkill.test \
	tests/cgroup-tools.test \
	tests/cgroup-nested.test \
	tests/cgroup-exact.test \
	tests/cgroup-net.test \
	tests/cgroup-hybrid.test \
	tests/cgroup-v1only.test \
	tests/cgroup-neighbours.test \
	tests/cgroup-sweep.test \
	tests/cgroup-delegated.test \
	tests/cgroup-scope.test
# the conformance matrix's cgroup rows (tests/conformance.mk): a VM of its
# own, so that each stays within its --timeout
TP_CGROUP_CONFORMANCE = tests/cgroup-conformance.test

# tpmon's own cgroup, read only (Slurm's task cgroup): on this project's
# cgroup v1 hosts, as root, in cgroups it makes beside its own; on cgroup
# v2 in the VM (check-cgroup-vm)
TP_CGROUP_HOME = tests/cgroup-home.test

# a real Slurm (slurm-wlm) with its cgroup/v2 plugin, IgnoreSystemd=yes:
# `srun tpmon` reads the task's cgroup; in the VM only (check-cgroup-vm)
TP_CGROUP_SLURM = tests/cgroup-slurm.test

# a machine that boots systemd, with a lingering user (tests/tools/vm-run-systemd):
# the user's default tpmon gets a scope; in that VM only (check-systemd-vm)
TP_CGROUP_SYSTEMD = tests/cgroup-systemd.test

TESTS += $(TP_CGROUP_TESTS) $(TP_CGROUP_CONFORMANCE) $(TP_CGROUP_HOME) $(TP_CGROUP_SLURM) \
	$(TP_CGROUP_SYSTEMD)
EXTRA_DIST += tests/cgroup-common.sh tests/cgroup-v1-common.sh tests/cgroup-as $(TP_CGROUP_TESTS) $(TP_CGROUP_CONFORMANCE) \
	$(TP_CGROUP_HOME) $(TP_CGROUP_SLURM) $(TP_CGROUP_SYSTEMD) tests/tools/vm-run-systemd

# make check-cgroup-vm: the cgroup tests in the VM (see .ci/run).  Two
# VMs at a time, each mostly one busy CPU of its two (its suite runs one
# test at a time): the cgroup tests in one; the conformance matrix's
# rows, tpmon's own cgroup read only, Slurm, the signal sender, the
# socket probes, vgem and the input probe, then the machine that boots systemd, in the
# other.  Timed per test from TAP timestamps (session 16, beside other
# suites): the cgroup tests 10.6 minutes from the first point to the
# last; the other side 6.8, then 4.7 for the systemd VM with its boot,
# so that the two end within a minute of each other.  Not beside two
# others: under three, the user's systemd took more than 2 s to give a
# scope (tpmon now waits up to 10 s).  Each has its own log and test-suite log, printed in that
# order when all are done.
VM_RUN = $(abs_top_srcdir)/../shared/tools/vm-run
VM_LOGS = tests/vm-cgroup tests/vm-conformance tests/vm-systemd
check-cgroup-vm: all
	$(MAKE) $(AM_MAKEFLAGS) $(check_PROGRAMS)
	rm -f $(VM_LOGS:=.out) $(VM_LOGS:=.rc); \
	{ $(VM_RUN) --timeout 1800 -- \
		$(MAKE) $(AM_MAKEFLAGS) check TEST_SUITE_LOG=tests/vm-cgroup-suite.log \
		TESTS='$(TP_CGROUP_TESTS)'; \
	  echo $$? >tests/vm-cgroup.rc; } >tests/vm-cgroup.out 2>&1 & \
	{ $(VM_RUN) --timeout 1800 -- \
		$(MAKE) $(AM_MAKEFLAGS) check TEST_SUITE_LOG=tests/vm-conformance-suite.log \
		TESTS='$(TP_CGROUP_CONFORMANCE) $(TP_CGROUP_HOME) $(TP_CGROUP_SLURM) $(TP_END_VM_TESTS) $(TP_NET_VM_TESTS) $(TP_GPU_VM_TESTS) $(TP_INPUT_VM_TESTS)'; \
	  echo $$? >tests/vm-conformance.rc; } >tests/vm-conformance.out 2>&1; \
	{ $(MAKE) $(AM_MAKEFLAGS) check-systemd-vm; \
	  echo $$? >tests/vm-systemd.rc; } >tests/vm-systemd.out 2>&1; \
	wait; st=0; \
	for v in $(VM_LOGS); do \
		cat $$v.out; echo "$$v: exit status $$(cat $$v.rc)"; \
		test "$$(cat $$v.rc)" = 0 || st=1; \
	done; exit $$st

CLEANFILES += $(VM_LOGS:=.out) $(VM_LOGS:=.rc)

# make check-systemd-vm: tests/cgroup-systemd.test in a VM that boots systemd
VM_RUN_SYSTEMD = $(abs_top_srcdir)/tests/tools/vm-run-systemd
check-systemd-vm: all
	$(MAKE) $(AM_MAKEFLAGS) $(check_PROGRAMS)
	VM_RUN_BOOT_TIME=1 $(VM_RUN_SYSTEMD) --timeout 1200 -- \
		$(MAKE) $(AM_MAKEFLAGS) check TEST_SUITE_LOG=tests/vm-systemd-suite.log \
		TESTS='$(TP_CGROUP_SYSTEMD)'

# the parsers of tpmon's own cgroup v1 directories (src/cgroup/cghome.c)
check_PROGRAMS += tests/unit/test-cghome
TESTS += tests/unit/test-cghome
tests_unit_test_cghome_SOURCES = tests/unit/test-cghome.c tests/unit/tap.h
tests_unit_test_cghome_LDADD = $(TPMON_LIBS)

# when a systemd scope is asked for, and that asking never hangs
# (src/cgroup/sdbus.c, with libsystemd and fake buses)
check_PROGRAMS += tests/unit/test-sdbus
TESTS += tests/unit/test-sdbus
tests_unit_test_sdbus_SOURCES = tests/unit/test-sdbus.c tests/unit/tap.h
tests_unit_test_sdbus_LDADD = $(TPMON_LIBS)
