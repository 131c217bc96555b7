# SPDX-License-Identifier: MIT
# tests/engines-lib.sh: what the engine tests (tests/engines-*.test) share,
# sourced after init.sh.  They drive real cctools engines on localhost
# with tpmon as their resource monitor and check what the engine
# concludes.  POSIX sh.
#
# To check something new through an engine: add a task to eng_spec (or
# write a spec of your own; tests/engines/manager.py lists the task fields,
# snapshot_file included), run it with eng_manager, and assert with
# eng_check DIR TAG 'JQ_EXPR' 'description' on what the manager concluded.
#
# Which cctools: the one built from source in TPMON_CCTOOLS_PREFIX (set by
# configure --with-cctools[=DIR], /tmp/cctools-build/install when no DIR
# is given, or given in the environment: a directory with bin/ and
# lib/python3*/site-packages), and Debian's coop-computing-tools in
# /usr/bin (cctools 8.0, no Python bindings).

# eng_current: put the built cctools first on PATH and its Python modules
# on PYTHONPATH; skip the whole test when there is none.
eng_current()
{
	[ -n "${TPMON_CCTOOLS_PREFIX:-}" ] && [ -x "$TPMON_CCTOOLS_PREFIX/bin/work_queue_worker" ] ||
		skip_all "no cctools build (configure --with-cctools=DIR or TPMON_CCTOOLS_PREFIX; CI builds it with ../shared/tools/build-cctools)"
	PATH=$TPMON_CCTOOLS_PREFIX/bin:$PATH
	for eng_py in "$TPMON_CCTOOLS_PREFIX"/lib/python3*/site-packages; do
		[ -d "$eng_py" ] && PYTHONPATH=$eng_py${PYTHONPATH:+:$PYTHONPATH}
	done
	export PATH PYTHONPATH
}

# eng_common: skips that every engine test shares.
eng_common()
{
	# the engines start the monitor themselves: no place for a wrapper
	[ -z "$TPMON_WRAPPER" ] || skip_all "not run under TPMON_WRAPPER"
	ENG_PY=/usr/bin/python3
	[ -x "$ENG_PY" ] || ENG_PY=python3
}

# eng_need_module MODULE: skip unless Python can import MODULE.
eng_need_module()
{
	"$ENG_PY" -c "import $1" 2>/dev/null ||
		skip_all "Python cannot import $1 (cctools built without Python bindings?)"
}

# eng_monitors: $tmp/bin/resource_monitor, a symlink to tpmon, so that each
# engine can be given tpmon by its own path and under resource_monitor's name.
eng_monitors()
{
	mkdir -p "$tmp/bin" && ln -sf "$TPMON" "$tmp/bin/resource_monitor" ||
		bail_out "cannot make $tmp/bin/resource_monitor"
}

# eng_manager ENGINE SPEC DIR MONITOR: run tests/engines/manager.py (Work
# Queue "wq" or TaskVine "vine") on the task list SPEC with MONITOR as the
# resource monitor, in DIR; the results go to DIR/results.json.  Marked
# for the cleanup of init.sh.
eng_manager()
{
	mkdir -p "$3"
	TPMON_TEST_MARK=$tp_mark_base.$1.$(basename "$3"). \
	CCTOOLS_RESOURCE_MONITOR=$4 timeout -k 5 150 \
		"$ENG_PY" "$TESTS_SRCDIR/engines/manager.py" "$1" "$2" \
		"$3/results.json" "$3" >"$3/manager.out" 2>&1
}

# eng_task DIR TAG JQ_EXPR: JQ_EXPR on the result of task TAG (fields
# result, exit_code, output, measured, allocated, limits_exceeded, seconds).
eng_task()
{
	"$JQ" -e --arg t "$2" ".[\$t] | $3" "$1/results.json" >/dev/null 2>&1
}

# eng_check DIR TAG JQ_EXPR DESC: a test point on eng_task; on failure the
# task's result is shown.
eng_check()
{
	eng_task "$1" "$2" "$3"
	ok $? "$4" || {
		diag "task $2: $("$JQ" -c --arg t "$2" '.[$t] | del(.output)' "$1/results.json" 2>&1)"
		diag "output: $("$JQ" -c --arg t "$2" '.[$t].output' "$1/results.json" 2>&1 | head -c 600)"
		[ -s "$1/manager.out" ] && diag "$(tail -n 5 "$1/manager.out")"
	}
}

# eng_no_notices LOG DESC: cctools' summary parser said nothing about
# unknown fields (it prints "There is not a resource named 'X'").
eng_no_notices()
{
	eng_n=$(cat $1 2>/dev/null | grep -c "There is not a resource named")
	is "$eng_n" 0 "$2"
}

# eng_spec FILE: the task list of the manager tests.  The worker has 4
# cores, 400 MB and 4000 MB of disk, so a 1-core task is given (and the
# monitor is passed) cores 1, memory 100, disk 1000.
eng_spec()
{
	"$JQ" -n --arg h "$HELPERS" '{
	  worker: {cores: 4, memory: 400, disk: 4000},
	  modes: {auto: "max"},
	  tasks: [
	    {tag: "end", cmd: "sleep 12", cores: 1, end_in: 4},
	    {tag: "hello", cmd: "echo hello; echo err >&2", cores: 1},
	    {tag: "mem", cmd: ($h + "/hog-mem 300 10"), cores: 1},
	    {tag: "wall", cmd: "sleep 10", cores: 1, wall_time: 3},
	    {tag: "cores", cmd: ($h + "/hog-cpu 6 2 --wall"), cores: 1},
	    {tag: "measure", cores: 1,
	     cmd: ($h + "/write-disk 30 --hold 3 & " + $h + "/hog-mem 60 3; wait")},
	    {tag: "auto1", cmd: "echo hello", category: "auto"},
	    {tag: "auto2", cmd: "echo hello", category: "auto", after: "auto1"},
	    {tag: "auto3", cmd: "echo hello", category: "auto", after: "auto2"}
	  ]}' >"$1"
}

# eng_suite ENGINE DIR NAME OK EXHAUSTED TIMEOUT DISK END: the 10 checks of one
# manager run (ENGINE wq or vine, monitor called NAME in messages) whose
# results are in DIR; OK, EXHAUSTED and TIMEOUT are the engine's names of
# those results; DISK the least disk measured for the task that writes
# 30 MB (TaskVine has the monitor leave disk out and measures the sandbox
# itself, after the task removed its files); END the name of the result
# when the manager retried the task after the end time (as with
# resource_monitor, the first result is resource exhaustion).
eng_suite()
{
	e=$1 d=$2 n="$1, $3"
	eng_check "$d" hello ".result == \"$4\" and .exit_code == 0 and .output == \"hello\\nerr\\n\"" \
		"$n: echo: $4, and the task's output byte for byte"
	eng_check "$d" mem ".result == \"$5\" and .limits_exceeded == {\"memory\": 100}" \
		"$n: 300 MB over memory 100: $5, memory blamed"
	# (the worker enforces the wall time too, and may kill the monitor
	# before its summary is written: the result is what counts)
	eng_check "$d" wall ".result == \"$6\"" "$n: over its wall time: $6"
	eng_check "$d" end "(.result == \"$5\" or .result == \"$8\") and .limits_exceeded.end > 0
		and .measured.wall_time < 11" \
		"$n: past its end time: stopped before its 12 s, end blamed (as resource_monitor)"
	eng_check "$d" cores ".result == \"$4\" and .exit_code == 0" \
		"$n: 2 busy threads for 6 s under cores 1: $4 (resource_monitor's judgement)"
	# the worker measures the sandbox, which holds its copy of the monitor
	# (2.5 MB; 9.5 MB built with ASan): 30 MB and a few besides it (40
	# measured for the ASan build, tpmon and resource_monitor alike)
	mon_mb=$(( $(stat -L -c %s "$TPMON") / 1048576 + 1 ))
	eng_check "$d" measure ".result == \"$4\" and .measured.memory >= 60 and .measured.memory < 90
		and .measured.disk >= $7 and .measured.disk < 37 + $mon_mb" \
		"$n: measured memory (60 MB held) and disk (30 MB written, and the monitor's $mon_mb) as the manager reports them"
	"$JQ" -e '[to_entries[] | select(.key | test("^(hello|auto)") | not) | .value.output
		| select(. != "" and . != null)] == []' "$d/results.json" >/dev/null 2>&1
	ok $? "$n: nothing of tpmon's in any task's output" ||
		diag "$("$JQ" -c '[to_entries[] | {(.key): .value.output}]' "$d/results.json" 2>&1 | head -c 600)"
	# (the same copy of the monitor: a few MB besides it)
	eng_check "$d" auto1 ".result == \"$4\" and .output == \"hello\\n\" and .measured.disk < 3 + $mon_mb" \
		"$n: echo measured a few MB of disk at most besides the monitor's $mon_mb (not its allocation)"
	# TaskVine counts a null disk as the task's whole allocation: in "max"
	# mode the first task gets the whole worker, and a null would keep
	# every later one there.  (Work Queue passes no
	# --without-disk-footprint: nothing to check.)
	if [ "$e" = vine ]; then
		eng_check "$d" auto3 ".allocated.cores < 4 and .allocated.disk < 4000" \
			"$n: later \"max\" allocations of echo are not the whole worker"
	else
		ok 0 "$n: later \"max\" allocations # SKIP Work Queue measures disk itself"
	fi
	if [ "$e" = wq ]; then
		eng_no_notices "$d/manager.debug" "$n: no parser notice in the manager's debug log"
	else
		eng_no_notices "$d/run-info/*/vine-logs/debug" "$n: no parser notice in the manager's debug log"
	fi
}
