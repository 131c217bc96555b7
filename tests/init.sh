# SPDX-License-Identifier: MIT
# tests/init.sh: sourced by every scenario test (tests/*.test).  Gives each
# test a private temporary directory (its cwd, removed on exit), TAP output
# (plan, ok, is, num_cmp...), a way to run tpmon under `timeout -k` and to
# read its summary with jq, and a check that nothing the test started is
# still running.  POSIX sh.
#
# Environment (set by tests/local.mk; defaults for running a test by hand
# from the source tree): TPMON, HELPERS, TESTS_SRCDIR, JQ, and optionally
# TPMON_WRAPPER (e.g. "valgrind --error-exitcode=99 -q"), put in front of
# every tpmon run; time bounds are then multiplied by TPMON_TIME_SCALE
# (default 10 with a wrapper, 1 without).

tp_me=${0##*/}
: "${TESTS_SRCDIR:=$(cd "$(dirname "$0")" && pwd)}"
: "${TPMON:=$TESTS_SRCDIR/../tpmon}"
: "${HELPERS:=$TESTS_SRCDIR/helpers}"
: "${TPMON_WRAPPER:=}"
[ -n "${JQ:-}" ] || JQ=jq
if [ -n "$TPMON_WRAPPER" ]; then
	: "${TPMON_TIME_SCALE:=10}"
else
	: "${TPMON_TIME_SCALE:=1}"
fi
# Longest run of one tpmon invocation, in seconds.  The task itself runs
# natively under a wrapper, so this is not multiplied by the scale.
if [ -n "$TPMON_WRAPPER" ]; then
	: "${TP_TIMEOUT:=120}"
else
	: "${TP_TIMEOUT:=60}"
fi

tp_n=0
tp_planned=
tp_runs=0
tp_mark_base="tp$$.$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
tmp=
rc=
elapsed=
mark=

# --- TAP -----------------------------------------------------------------

diag()
{
	printf '%s\n' "$*" | sed 's/^/# /'
}

plan()
{
	tp_planned=$1
	echo "1..$1"
}

# skip_all REASON: the whole test cannot run here (not a failure).
skip_all()
{
	echo "1..0 # SKIP $*"
	tp_planned=0
	exit 0
}

# sources_only: a check of the sources, the same whatever the build: the
# plain build's suite runs it, the sanitizers' and valgrind's skip it
sources_only()
{
	[ -z "$TPMON_WRAPPER" ] && [ -z "$TPMON_SANITIZED" ] ||
		skip_all "a check of the sources, the same in every build: the plain build's suite runs it"
}

# skip REASON N: the next N test points cannot run here: each is written
# as passed with a SKIP directive (TAP), so the plan still adds up.
skip()
{
	tp_skip_reason=$1
	tp_skip_n=$2
	while [ "$tp_skip_n" -gt 0 ]; do
		tp_n=$((tp_n + 1))
		echo "ok $tp_n # SKIP $tp_skip_reason"
		tp_skip_n=$((tp_skip_n - 1))
	done
}

# bail_out REASON: the test cannot go on; the driver reports an error.
bail_out()
{
	echo "Bail out! $tp_me: $*"
	exit 99
}

# ok CODE DESC...: one test point, passed when CODE (an exit code) is 0.
# Returns CODE.
ok()
{
	tp_code=$1
	shift
	tp_n=$((tp_n + 1))
	if [ "$tp_code" -eq 0 ] 2>/dev/null; then
		echo "ok $tp_n - $*"
		return 0
	fi
	echo "not ok $tp_n - $*"
	return 1
}

# check DESC CMD ARGS...: run CMD and report its exit code.
check()
{
	tp_desc=$1
	shift
	"$@"
	ok $? "$tp_desc"
}

# is GOT EXPECTED DESC...: string equality, with a diagnostic on failure.
# An empty GOT fails whatever EXPECTED is (a command that printed nothing,
# a field of a summary that was never written): a test that expects
# nothing says so with is_empty.
is()
{
	tp_got=$1
	tp_exp=$2
	shift 2
	if [ -n "$tp_got" ] && [ "$tp_got" = "$tp_exp" ]; then
		ok 0 "$*"
		return 0
	fi
	ok 1 "$*"
	diag "got: '$tp_got'" "expected: '$tp_exp'"
	[ -n "$tp_got" ] || diag "an empty result fails (is_empty expects one)"
	return 1
}

# is_empty GOT DESC...: GOT is empty (no file left, no payload ran, no
# line missing).
is_empty()
{
	tp_got=$1
	shift
	[ -z "$tp_got" ]
	ok $? "$*" || diag "got: '$tp_got'" "expected nothing"
}

tp_is_number()
{
	printf '%s' "$1" | grep -Eq '^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$'
}

# num_cmp GOT OP EXPECTED DESC...: numeric comparison, OP one of
# == != < <= > >=.  A GOT that is not a number (null, empty) fails.
num_cmp()
{
	tp_got=$1
	tp_op=$2
	tp_exp=$3
	shift 3
	if tp_is_number "$tp_got"; then
		awk -v g="$tp_got" -v e="$tp_exp" -v op="$tp_op" 'BEGIN {
			g += 0; e += 0
			if (op == "==") r = g == e; else if (op == "!=") r = g != e
			else if (op == "<") r = g < e; else if (op == "<=") r = g <= e
			else if (op == ">") r = g > e; else if (op == ">=") r = g >= e
			else r = 0
			exit !r }'
	else
		false
	fi
	ok $? "$*" || diag "got: '$tp_got'" "expected: $tp_op $tp_exp"
}

# in_range GOT LO HI DESC...: LO <= GOT <= HI.
in_range()
{
	tp_got=$1
	tp_lo=$2
	tp_hi=$3
	shift 3
	if tp_is_number "$tp_got"; then
		awk -v g="$tp_got" -v lo="$tp_lo" -v hi="$tp_hi" \
			'BEGIN { exit !(g + 0 >= lo + 0 && g + 0 <= hi + 0) }'
	else
		false
	fi
	ok $? "$*" || diag "got: '$tp_got'" "expected: in [$tp_lo, $tp_hi]"
}

# approx VALUE EXPECTED PCT: exit 0 when VALUE is within PCT percent of
# EXPECTED.  Not a test point by itself: use with ok or check.
approx()
{
	tp_is_number "$1" || return 1
	awk -v v="$1" -v e="$2" -v p="$3" 'BEGIN {
		d = v - e; if (d < 0) d = -d
		m = e * p / 100; if (m < 0) m = -m
		exit !(d <= m) }'
}

# --- the private directory, and what the test left running ---------------

# The pids of live processes whose environment holds the mark prefix $1.
tp_marked_pids()
{
	# (one grep; the rest read by the shell itself, where each process
	# costs 0.1 s in the emulated VM).  The grep ends before any state
	# is read: where the test exported the mark (the Slurm tests), the
	# grep itself carries it, and was seen running.
	tp_paths=$(grep -lasF -- "TPMON_TEST_MARK=$1" /proc/[0-9]*/environ 2>/dev/null)
	for tp_path in $tp_paths; do
		tp_pid=${tp_path#/proc/}
		tp_pid=${tp_pid%/environ}
		# Zombies have an empty environment already; skip the ones
		# that are just exiting too.
		tp_state=
		{
			while read -r tp_key tp_val _; do
				[ "$tp_key" = State: ] && tp_state=$tp_val && break
			done <"/proc/$tp_pid/status"
		} 2>/dev/null
		case $tp_pid/$tp_state in
		*[!0-9]*/*|/*|*/Z|*/X|*/) ;;
		*) echo "$tp_pid" ;;
		esac
	done
}

tp_cleanup()
{
	tp_status=$?
	for tp_pid in $(tp_marked_pids "$tp_mark_base."); do
		kill -9 "$tp_pid" 2>/dev/null
	done
	if [ -n "$tmp" ] && [ -d "$tmp" ]; then
		if [ -n "${TP_KEEP_TMP:-}" ]; then
			diag "kept $tmp"
		else
			rm -rf "$tmp" "$tp_fc_file"
		fi
	fi
	# Failed test points are reported by their "not ok" lines; the exit
	# status only says whether the script ran to its end.
	if [ -n "$tp_planned" ] && [ "$tp_planned" = "$tp_n" ]; then
		exit 0
	fi
	[ -n "$tp_planned" ] && diag "planned $tp_planned tests but ran $tp_n"
	[ "$tp_status" -ne 0 ] || tp_status=1
	exit "$tp_status"
}

# assert_no_leftovers [MARK]: a test point passing when no process started
# by the tpmon run marked MARK (default: the last run) is alive, after at
# most 3 s for SIGKILLed processes to vanish (a deadline, not a count of
# looks: a look costs 0.1 s in the emulated VM, 2 ms here, and a process
# of Slurm's step took more than a second to go there).
assert_no_leftovers()
{
	tp_m=${1:-$mark}
	tp_left=
	tp_until=$(($(tp_now_ms) + 3000))
	while :; do
		tp_left=$(tp_marked_pids "$tp_m")
		[ -z "$tp_left" ] && break
		[ "$(tp_now_ms)" -lt "$tp_until" ] || break
		sleep 0.05
	done
	[ -z "$tp_left" ]
	ok $? "no process of the task is left running" || {
		for tp_pid in $tp_left; do
			diag "left: $tp_pid ($(cat "/proc/$tp_pid/comm" 2>/dev/null)," \
				"$(grep '^State:' "/proc/$tp_pid/status" 2>/dev/null))" \
				"$(tr '\0' ' ' <"/proc/$tp_pid/cmdline" 2>/dev/null)"
		done
	}
}

# --- running tpmon --------------------------------------------------------

# tp_now_ms: milliseconds since boot, to 10 ms, from /proc/uptime: read
# by the shell itself, where a date is a process (0.1 s in the emulated VM,
# two a run).
tp_now_ms()
{
	IFS=' .' read -r tp_s tp_cs _ </proc/uptime
	echo $((tp_s * 1000 + ${tp_cs#0} * 10))
}

# run_tpmon_raw ARGS...: run $TPMON_WRAPPER $TPMON ARGS in $tmp under
# timeout -k, with stdin from /dev/null and stdout/stderr in $tmp/stdout
# and $tmp/stderr.  Sets rc (exit status), elapsed (ms) and mark (the
# TPMON_TEST_MARK value in the environment of tpmon and of the task).
run_tpmon_raw()
{
	tp_runs=$((tp_runs + 1))
	mark="$tp_mark_base.$tp_runs."
	tp_limit=$TP_TIMEOUT
	tp_t0=$(tp_now_ms)
	# shellcheck disable=SC2086 # the wrapper is a command line
	TPMON_TEST_MARK=$mark timeout -k 5 "$tp_limit" \
		$TPMON_WRAPPER "$TPMON" "$@" \
		<"${TP_STDIN:-/dev/null}" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	elapsed=$(($(tp_now_ms) - tp_t0))
	if [ "$elapsed" -ge $((tp_limit * 1000)) ]; then
		diag "tpmon $* timed out after $tp_limit s (status $rc)"
	fi
	if [ -s "$tmp/stderr" ]; then
		diag "stderr of tpmon $*:"
		diag "$(head -c 4000 "$tmp/stderr")"
	fi
	return 0
}

# run_tpmon ARGS...: run_tpmon_raw -O $tmp/out ARGS, so the summary is
# $tmp/out.summary.
run_tpmon()
{
	rm -f "$tmp/out.summary" "$tmp/out.series" "$tmp/out.files" "$tmp/out.tpmon.json"
	run_tpmon_raw -O "$tmp/out" "$@"
}

# On an emulated CPU (the VM's TCG: QEMU's CPU model) a process's start
# and end cost tens of ms more: CPU-time bounds allow this much there.
TP_EMULATED_CPU_SLACK=0.3
tp_emulated_cpu()
{
	grep -q '^model name.*QEMU' /proc/cpuinfo
}

# scaled N: N multiplied by TPMON_TIME_SCALE (integer), for time bounds.
scaled()
{
	echo $(($1 * TPMON_TIME_SCALE))
}

# --- another user ----------------------------------------------------------

# for_other_user: a test that runs tpmon or a helper as another user (uid
# 65534, munge...) calls this first.  The build tree may sit where only
# its owner can enter (a clone in root's home, /root is 0700, or under
# mktemp -d), so TPMON and HELPERS become copies in $tmp/pub, a 0755
# directory ($tmp made 0755 too; /tmp is world-reachable).  Always
# copies, so that the test runs the same way wherever the tree is.
for_other_user()
{
	[ -d "$tmp/pub" ] && return 0
	chmod 755 "$tmp" && mkdir -m 755 "$tmp/pub" "$tmp/pub/helpers" ||
		bail_out "cannot make $tmp/pub"
	cp -p "$TPMON" "$tmp/pub/tpmon" &&
		cp -pR "$HELPERS/." "$tmp/pub/helpers/" &&
		chmod -R go+rX "$tmp/pub" || bail_out "cannot copy tpmon and the helpers to $tmp/pub"
	# the test's private TMPDIR too, open to all as /tmp is: valgrind, as
	# TPMON_WRAPPER, writes there, and exits 1 where it cannot
	chmod 1777 "$TMPDIR" || bail_out "cannot open $TMPDIR to other users"
	TPMON=$tmp/pub/tpmon
	HELPERS=$tmp/pub/helpers
}

# --- reading the summary --------------------------------------------------

summary=

# The summary's top-level fields, read by one jq a summary.  field, unit
# and jqs .NAME are most of a test's jq runs, and a jq costs 40 ms of CPU
# here and 0.45 s in the emulated VM (0.7 s beside another).  tp_fc_load
# FILE reads every top-level field of FILE once into $tp_fc_file, shell
# assignments headed by FILE's identity (path, device, inode, size, mtime
# in ns, read before jq reads it): while that identity holds, the next
# lookups source it (a stat, no jq).
# What the cache cannot hold as jq -r prints it (an object or array that
# is not a measurement of a scalar, a string with a NUL, a name that is not
# a shell name, a file that is not one JSON object) is left to jq itself.
#   tpc_k_NAME  set: the field is present
#   tpc_v_NAME  field's answer: a measurement's value, or the scalar
#   tpc_u_NAME  unit's answer
#   tpc_r_NAME  jq -r .NAME's answer (scalars only)
tp_fc_prog='def sh: if (type == "object" or type == "array")
		or (type == "string" and (explode | any(. == 0))) then empty else tostring | @sh end;
	if length != 1 or (.[0] | type) != "object" then error("not one object") else .[0] end
	| to_entries[] | select(.key | test("^[A-Za-z_][A-Za-z0-9_]*$"))
	| .key as $k | "tpc_k_\($k)=1",
	  (if (.value | type) == "array"
	   then (.value[0] | sh | "tpc_v_\($k)=\(.)"), (.value[1] | sh | "tpc_u_\($k)=\(.)")
	   else (.value | sh | "tpc_v_\($k)=\(.)", "tpc_r_\($k)=\(.)"),
		"tpc_u_\($k)=\("(not a measurement)" | @sh)" end)'

tp_fc_load()
{
	tp_fc_id=$(stat -L -c '%d %i %s %y' -- "$1" 2>/dev/null) || return 1
	tp_fc_id="# $1 $tp_fc_id"
	tp_fc_old=
	[ -f "$tp_fc_file" ] && IFS= read -r tp_fc_old <"$tp_fc_file"
	if [ "$tp_fc_old" != "$tp_fc_id" ]; then
		# a file jq cannot cache is marked so, and left to jq at once;
		# the last line says the cache was written whole
		printf '%s\n' "$tp_fc_id" >"$tp_fc_file" || return 1
		"$JQ" -r -s "$tp_fc_prog" -- "$1" >>"$tp_fc_file" 2>/dev/null ||
			echo tp_fc_bad=1 >>"$tp_fc_file"
		echo tp_fc_whole=1 >>"$tp_fc_file"
	fi
	tp_fc_bad= tp_fc_whole=
	. "$tp_fc_file"
	[ -z "$tp_fc_bad" ] && [ -n "$tp_fc_whole" ] && return 0
	# (a cache cut short: written again by the next lookup)
	: >"$tp_fc_file"
	return 1
}

# tp_fc_get KIND NAME FILE: print the cached answer (KIND v, u or r) for
# the field NAME of FILE; false, printing nothing, where jq must answer.
# In a subshell, so that one summary's fields never outlive its lookup.
tp_fc_get()
(
	case $2 in
	''|[!A-Za-z_]*|*[!A-Za-z0-9_]*) exit 1 ;;
	esac
	tp_fc_load "$3" || exit 1
	eval "tp_fc_k=\${tpc_k_$2-} tp_fc_s=\${tpc_$1_$2+y} tp_fc_v=\${tpc_$1_$2-}"
	if [ -z "$tp_fc_k" ]; then
		# absent: what jq says of a missing field
		[ "$1" = u ] && echo '(not a measurement)' || echo null
	elif [ -n "$tp_fc_s" ]; then
		printf '%s\n' "$tp_fc_v"
	else
		exit 1
	fi
)

# jqs EXPR [FILE]: jq -r EXPR on the summary (default $tmp/out.summary).
jqs()
{
	case $1 in
	.[A-Za-z_]*) tp_fc_get r "${1#.}" "${2:-$summary}" && return 0 ;;
	esac
	"$JQ" -r "$1" "${2:-$summary}"
}

# valid_json [FILE]: exit 0 when the summary (or FILE) parses with jq.
valid_json()
{
	"$JQ" . "${1:-$summary}" >/dev/null
}

# field NAME [FILE]: a summary field; a measurement [value, "unit"] gives
# its value.  null when absent.
field()
{
	tp_fc_get v "$1" "${2:-$summary}" && return 0
	"$JQ" -r --arg f "$1" \
		'if (.[$f] | type) == "array" then .[$f][0] else .[$f] end' \
		"${2:-$summary}"
}

# unit NAME [FILE]: the unit string of a measurement.
unit()
{
	tp_fc_get u "$1" "${2:-$summary}" && return 0
	"$JQ" -r --arg f "$1" \
		'if (.[$f] | type) == "array" then .[$f][1] else "(not a measurement)" end' \
		"${2:-$summary}"
}

# dump_summary: copy the summary into the log, for a failing test.
dump_summary()
{
	diag "summary:"
	diag "$(head -c 8000 "${1:-$summary}" 2>/dev/null)"
}

# --- setup ----------------------------------------------------------------

command -v "$JQ" >/dev/null 2>&1 || skip_all "jq not found"
command -v timeout >/dev/null 2>&1 || skip_all "timeout (coreutils) not found"
case $TPMON in
*/*) TPMON=$(cd "$(dirname "$TPMON")" 2>/dev/null && pwd)/${TPMON##*/} ;;
*) TPMON=$(command -v "$TPMON") || bail_out "tpmon not found in PATH" ;;
esac
HELPERS=$(cd "$HELPERS" 2>/dev/null && pwd) || bail_out "no helpers directory"
[ -x "$TPMON" ] || bail_out "tpmon not built: $TPMON"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tpmon-test.XXXXXX") || bail_out "mktemp failed"
# A private TMPDIR: what tpmon, its report and the task leave there is
# this test's alone, whatever runs beside it under make -j.
mkdir "$tmp/tmp" || bail_out "cannot make $tmp/tmp"
TMPDIR=$tmp/tmp
export TMPDIR
summary=$tmp/out.summary
# the summary cache (tp_fc_load): beside $tmp, where no test lists it
tp_fc_file=$tmp.fields
trap tp_cleanup 0
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$tmp" || bail_out "cannot enter $tmp"
