# SPDX-License-Identifier: MIT
# tests/cgroup-common.sh: sourced by the cgroup tests (tests/cgroup-*.test)
# after init.sh.  They need a cgroup v2 with the memory and pids
# controllers, and root to set up each setting; anywhere else (this
# project's hosts are cgroup v1 or hybrid, and their cgroups are not ours)
# they skip before touching any cgroup.  CI runs them in
# ../shared/tools/vm-run (Debian 12's kernel, pure cgroup v2).
#
# cg_setting NAME runs the next tpmon runs in one setting:
#   root       tpmon as root, in the test's cgroup (it makes its run beside)
#   delegated  tpmon as uid 65534, alone in a cgroup chowned to that user,
#              as systemd's Delegate=yes does
#   none       tpmon as uid 65534 in the test's root-owned cgroup: no
#              cgroup can be had

cg_mount=$(sed -n 's|^[0-9]* [0-9]* [^ ]* / \([^ ]*\) .* - cgroup2 .*|\1|p' /proc/self/mountinfo | head -n 1)
cg_mode=
cg_deleg=

cg_require()
{
	if [ -z "$cg_mount" ] || ! grep -qw memory "$cg_mount/cgroup.controllers" ||
	   ! grep -qw pids "$cg_mount/cgroup.controllers"; then
		skip_all "no cgroup v2 with the memory and pids controllers here (cgroup v1 or hybrid); CI runs this test in ../shared/tools/vm-run"
	fi
	[ "$(id -u)" -eq 0 ] || skip_all "needs root to set up the delegated and unprivileged settings"
	[ -z "$TPMON_WRAPPER" ] || skip_all "runs tpmon as another user: not under $TPMON_WRAPPER"
	command -v setpriv >/dev/null || skip_all "no setpriv"
	# the test's own cgroup: tpmon as root makes its runs below it
	cg_own=$cg_mount$(sed -n 's/^0::\(.*\)/\1/p' /proc/self/cgroup)
	cg_own=${cg_own%/}
	# (only now: a test that skipped has nothing to clean)
	trap cg_cleanup EXIT
	# the unprivileged user writes the outputs and runs the helpers
	for_other_user
	chmod 777 "$tmp"
}

cg_end_setting()
{
	if [ -n "$cg_deleg" ]; then
		rmdir "$cg_deleg" 2>/dev/null || diag "could not remove $cg_deleg: $(ls "$cg_deleg" | grep -v '\.')"
		cg_deleg=
	fi
	TPMON_WRAPPER=
}

cg_setting()
{
	cg_end_setting
	cg_mode=$1
	case $1 in
	root) ;;
	delegated)
		cg_deleg=$cg_mount/tp-test-$$-$1
		mkdir "$cg_deleg" || bail_out "cannot make $cg_deleg"
		chown 65534:65534 "$cg_deleg" "$cg_deleg/cgroup.procs" \
			"$cg_deleg/cgroup.subtree_control" "$cg_deleg/cgroup.threads"
		TPMON_WRAPPER="$TESTS_SRCDIR/cgroup-as $cg_deleg" ;;
	none)
		TPMON_WRAPPER="$TESTS_SRCDIR/cgroup-as -" ;;
	esac
}

# cg_left: the run cgroups tpmon left, one a line: the tpmon-PID-N
# directly below the test's own cgroup, below its parent (where tpmon as
# root makes its run when its own cgroup holds other processes) and below
# the test's delegated cgroups, whose tpmon PID is gone (a live tpmon's
# run is its own to remove).  Never the whole hierarchy: other tests
# (make -j) and any tpmon of the machine run beside it, and cg_cleanup
# kills what this lists.
cg_left()
{
	# shellcheck disable=SC2086 # the glob: the delegated cgroups, if any
	find "$cg_own" "${cg_own%/*}" "$cg_mount"/tp-test-$$-* -mindepth 1 -maxdepth 1 \
		-type d -name 'tpmon-*' 2>/dev/null | sort -u |
		while read -r tp_d; do
			tp_p=${tp_d##*/tpmon-}
			tp_p=${tp_p%%-*}
			kill -0 "$tp_p" 2>/dev/null || echo "$tp_d"
		done
}

# assert_no_cgroup_left: a test point passing when no run cgroup is left.
assert_no_cgroup_left()
{
	tp_cgl=$(cg_left)
	[ -z "$tp_cgl" ]
	ok $? "$cg_mode: no cgroup of the run is left" || diag "left: $tp_cgl"
}

cg_cleanup()
{
	tp_status=$?
	cg_end_setting
	# shellcheck disable=SC2046 # one path a word
	for tp_d in $(cg_left | sort -r); do
		echo 1 >"$tp_d/cgroup.kill" 2>/dev/null
		rmdir "$tp_d" 2>/dev/null
	done
	(exit $tp_status)
	tp_cleanup
}
