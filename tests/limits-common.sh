# SPDX-License-Identifier: MIT
# tests/limits-common.sh: checks shared by the limits and signals tests
# (tests/limits-*.test, tests/signals-*.test), sourced after init.sh.
# POSIX sh.

# json_eq EXPR JSON: exit 0 when the summary's EXPR equals the JSON value
# (compared by jq, so 100 and 100.0 are equal).
json_eq()
{
	"$JQ" -e --argjson want "$2" "($1) == \$want" "$summary" >/dev/null 2>&1
}

# expect_stop RES VALUE UNIT [STATUS]: 6 test points saying that the last
# run was stopped for crossing the RES limit VALUE UNIT, and nothing else:
# exit status STATUS (default 124), exit_type "limits", limits_exceeded
# exactly {RES: [VALUE, UNIT]}, the "limit exceeded" line on stderr, the
# violator named, and nothing left running.
expect_stop()
{
	tp_res=$1
	tp_want="{\"$1\": [$2, \"$3\"]}"
	is "$rc" "${4:-124}" "$tp_res: tpmon exits ${4:-124}"
	is "$(jqs .exit_type)" limits "$tp_res: exit_type is limits"
	json_eq .limits_exceeded "$tp_want"
	ok $? "$tp_res: limits_exceeded is $tp_want" ||
		diag "got: $("$JQ" -c .limits_exceeded "$summary" 2>&1)"
	grep -q "^tpmon: limit exceeded: $tp_res " "$tmp/stderr"
	ok $? "$tp_res: 'tpmon: limit exceeded: $tp_res' on stderr"
	tp_vpid=$(jqs .limit_violator_pid)
	tp_vcmd=$(jqs '.limit_violator_command // ""')
	case $tp_vpid in
	''|*[!0-9]*|0) false ;;
	*) [ -n "$tp_vcmd" ] ;;
	esac
	ok $? "$tp_res: limit_violator_pid and limit_violator_command are set" ||
		diag "got pid '$tp_vpid', command '$tp_vcmd'"
	assert_no_leftovers
}

# expect_normal RES: 5 test points saying that the last run, which stayed
# under its RES limit, ended on its own: status 0, exit_type "normal",
# limits_exceeded null, no "limit exceeded" line, nothing left running.
expect_normal()
{
	tp_res=$1
	is "$rc" 0 "$tp_res (under): tpmon exits 0"
	is "$(jqs .exit_type)" normal "$tp_res (under): exit_type is normal"
	is "$(jqs .limits_exceeded)" null "$tp_res (under): limits_exceeded is null"
	! grep -q "limit exceeded" "$tmp/stderr"
	ok $? "$tp_res (under): no 'limit exceeded' on stderr"
	assert_no_leftovers
}

# start_tpmon ARGS...: like run_tpmon, but tpmon runs in the background
# (its pid in $tpmon_pid), for tests that signal it.  Sets mark.
start_tpmon()
{
	tp_runs=$((tp_runs + 1))
	mark="$tp_mark_base.$tp_runs."
	rm -f "$tmp/out.summary"
	# shellcheck disable=SC2086 # the wrapper is a command line
	TPMON_TEST_MARK=$mark $TPMON_WRAPPER "$TPMON" -O "$tmp/out" "$@" \
		</dev/null >"$tmp/stdout" 2>"$tmp/stderr" &
	tpmon_pid=$!
}

# wait_for_file FILE SECONDS: exit 0 once FILE exists, 1 after SECONDS.
wait_for_file()
{
	tp_i=0
	while [ ! -e "$1" ]; do
		[ "$tp_i" -ge $(($2 * 20)) ] && return 1
		sleep 0.05
		tp_i=$((tp_i + 1))
	done
	return 0
}

# tp_running PID: exit 0 while PID is alive and not a zombie.
tp_running()
{
	case $(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null) in
	Z|X|'') return 1 ;;
	esac
	return 0
}

# finish_tpmon SECONDS: wait at most SECONDS for the background tpmon to
# end (then SIGKILL it); sets rc and elapsed (ms since this call).
finish_tpmon()
{
	tp_t0=$(tp_now_ms)
	tp_i=0
	while tp_running "$tpmon_pid"; do
		if [ "$tp_i" -ge $(($1 * 50)) ]; then
			diag "tpmon still running after $1 s: SIGKILL"
			kill -9 "$tpmon_pid" 2>/dev/null
			break
		fi
		sleep 0.02
		tp_i=$((tp_i + 1))
	done
	wait "$tpmon_pid"
	rc=$?
	elapsed=$(($(tp_now_ms) - tp_t0))
	if [ -s "$tmp/stderr" ]; then
		diag "stderr of tpmon:"
		diag "$(head -c 4000 "$tmp/stderr")"
	fi
}
