# SPDX-License-Identifier: MIT
# tests/end-common.sh: sourced by the ending tests that need a memory
# cgroup of their own (tests/end-oom.test, tests/end-limit.test), after
# init.sh.  As root: a v1 memory cgroup made as a child of the test's own
# (this project's hosts), or a v2 one with memory.max (pure v2, in
# ../shared/tools/vm-run).  Nothing else is written; end_memcg_remove
# takes it away.

# end_memcg TAG [BYTES]: make the cgroup tpmon-TAG-PID (with a memory
# limit of BYTES, swap none, when given); sets end_cg (its directory) and
# end_cg_name (as tpmon names it: "v1 memory:/..." or "v2:/...").  Skips
# the test where none can be made.
end_memcg()
{
	[ "$(id -u)" = 0 ] || skip_all "making a memory cgroup needs root"
	em_own=$(sed -n 's/^[0-9]*:[^:]*memory[^:]*:\(.*\)/\1/p' /proc/self/cgroup)
	em_v1=$(awk '$9 == "cgroup" && $NF ~ /memory/ { print $5; exit }' /proc/self/mountinfo)
	em_v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	end_cg=
	if [ -n "$em_own" ] && [ -n "$em_v1" ] && mkdir "$em_v1${em_own%/}/tpmon-$1-$$" 2>/dev/null; then
		end_cg=$em_v1${em_own%/}/tpmon-$1-$$
		end_cg_name="v1 memory:${em_own%/}/tpmon-$1-$$"
		if [ -n "${2:-}" ]; then
			echo "$2" >"$end_cg/memory.limit_in_bytes" || bail_out "cannot set the limit"
			[ ! -e "$end_cg/memory.memsw.limit_in_bytes" ] ||
				echo "$2" >"$end_cg/memory.memsw.limit_in_bytes"
		fi
	else
		em_own=$(sed -n 's/^0::\(.*\)/\1/p' /proc/self/cgroup)
		if [ -n "$em_v2" ] && grep -qw memory "$em_v2${em_own%/}/cgroup.subtree_control" 2>/dev/null &&
		   mkdir "$em_v2${em_own%/}/tpmon-$1-$$" 2>/dev/null; then
			end_cg=$em_v2${em_own%/}/tpmon-$1-$$
			end_cg_name="v2:${em_own%/}/tpmon-$1-$$"
			if [ -n "${2:-}" ]; then
				echo "$2" >"$end_cg/memory.max" || bail_out "cannot set the limit"
				[ ! -e "$end_cg/memory.swap.max" ] || echo 0 >"$end_cg/memory.swap.max"
			fi
		fi
	fi
	[ -n "$end_cg" ] || skip_all "no memory cgroup can be made under this test's own"
}

# end_in_memcg MARK ARGS...: tpmon ARGS in $end_cg (moved there by a shell
# that then becomes it), as run_tpmon_raw: $rc, $tmp/stdout, $tmp/stderr.
end_in_memcg()
{
	em_mark=$1
	shift
	TPMON_TEST_MARK=$em_mark timeout -k 5 "$TP_TIMEOUT" sh -c \
		'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$end_cg" \
		$TPMON_WRAPPER "$TPMON" "$@" </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
}

# end_memcg_remove: the cgroup away (its last process may take a moment).
end_memcg_remove()
{
	rmdir "$end_cg" 2>/dev/null || { sleep 1; rmdir "$end_cg"; }
}
