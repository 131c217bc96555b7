# SPDX-License-Identifier: MIT
# tests/conformance-lib.sh: the conformance matrix (issue 27), sourced by
# tests/conformance.test (the host's modes) and tests/cgroup-conformance.test
# (the cgroup modes, in the VM) after init.sh.  The same workloads, whose
# ground truth they make true themselves, run in every mode, and each
# figure of each summary is judged:
#   exact    within the stated bounds [LO, HI] of the truth;
#   flagged  named in the summary's lower_bounds, and at most HI;
#   null     unknown.
# Anything else fails: a figure off its truth that the summary does not
# flag, a lower bound above the truth, a missing summary, a summary with
# no lower_bounds array.  Where a mode promises a figure exact (ptrace:
# all of them; see cf_strict), null and flagged fail too, so that a
# summary of nulls cannot pass.  POSIX sh.

CF_MB=1048576
# The sizes of the workloads: the host's, or smaller ones for the VM (its
# CPU is emulated: 200 /bin/true took 40 s there on a loaded host).
if [ -n "${CF_SMALL:-}" ]; then
	cf_procs=20 cf_kids=5 cf_mem=50 cf_writers=3 cf_wmb=1 cf_conns=50 cf_long=1 cf_disk=5
	# the end of the shell after its times, and tpmon's setup of the
	# task's first process, cost 30 ms and more under TCG
	cf_cpu_slack=$TP_EMULATED_CPU_SLACK
else
	cf_procs=200 cf_kids=20 cf_mem=100 cf_writers=10 cf_wmb=3 cf_conns=200 cf_long=5 cf_disk=20
	cf_cpu_slack=0.06
fi
# the network workload: cf_conns connections of 50,000 bytes and one of
# cf_long MiB, both ends in the task, so each byte is sent and received
# in the tree
cf_net_mb=$(awk -v b=$((cf_conns * 50000 + cf_long * CF_MB)) -v m=$CF_MB 'BEGIN { printf "%.4f", b / m }')
cf_net_lo=$(awk -v t="$cf_net_mb" 'BEGIN { print t * 0.98 }')
cf_net_hi=$(awk -v t="$cf_net_mb" 'BEGIN { print t * 1.02 }')

CF_WORKLOADS=${CF_WORKLOADS:-"procs cpu mem writers net disk gpu"}

# cf_line W: the shell line of workload W, run by sh -c in a fresh
# directory (its cwd, the directory whose disk use is measured).
cf_line()
{
	case $1 in
	procs)	# cf_procs + 2 processes: sh, seq and the /bin/true, at
		# most 2 at once
		echo "for i in \$(seq $cf_procs); do /bin/true; done" ;;
	cpu)	# cf_kids children burning 0.1 s of CPU each, at once; the
		# shell's times: its CPU time and its children's (all of the
		# tree, each reaped), in 1/100 s
		echo "for i in \$(seq $cf_kids); do '$HELPERS/hog-cpu' 0.1 & done; wait; times >cpu.times" ;;
	mem)	# a child holding cf_mem MiB for 0.5 s
		echo "'$HELPERS/hog-mem' $cf_mem 0.5; true" ;;
	writers)	# cf_writers children writing cf_wmb MiB each with fsync
		echo "for i in \$(seq $cf_writers); do dd if=/dev/zero of=w\$i bs=1M count=$cf_wmb conv=fsync status=none & done; wait" ;;
	net)	# short connections of 50,000 bytes and a long one at
		# 10 MB/s, sinks in the task too
		echo "P='$HELPERS/net-peer'; \$P sink p1 $cf_conns >/dev/null & \$P sink p2 1 >/dev/null &" \
			"\$P send p1 50000 --count $cf_conns & \$P send p2 $((cf_long * CF_MB)) --rate 10 & wait" ;;
	disk)	# cf_disk MiB in files, held 1.2 s
		echo "'$HELPERS/write-disk' $cf_disk --hold 1.2; true" ;;
	gpu)	# one GPU process of the stand-in NVML: 1000 MB, 30 %, 1 s
		echo "sh -c 'echo \$\$ > gpu.pid; exec sleep 1'; true" ;;
	*)	bail_out "no workload $1" ;;
	esac
}

# cf_truths W: FIGURE LO HI, a line each: the truth of workload W.
cf_truths()
{
	case $1 in
	procs)	echo "total_processes $((cf_procs + 2)) $((cf_procs + 2))"
		echo "max_concurrent_processes 2 2" ;;
	cpu)	# what the shell's times said (4 figures, each cut to 1/100 s):
		# the truth is at most 0.04 s more, and tpmon's own end a little
		sed 's/[ms]/ /g' "$cf_dir/cpu.times" 2>/dev/null |
			awk -v k="$cf_kids" -v slack="$cf_cpu_slack" '{ t += $1 * 60 + $2 + $3 * 60 + $4 }
				END { if (t < k * 0.1 - 0.04) t = -1	# (no times: fails)
				      print "cpu_time", t - 0.01, t + slack }'
		echo "total_processes $((cf_kids + 2)) $((cf_kids + 2))" ;;
	mem)	echo "memory $cf_mem $((cf_mem + 15))"
		echo "total_processes 2 2" ;;
	writers) w=$((cf_writers * cf_wmb))
		echo "bytes_written $w $w.5"
		echo "wchar $((w * CF_MB)) $((w * CF_MB + 4096))"
		echo "total_processes $((cf_writers + 2)) $((cf_writers + 2))" ;;
	net)	echo "bytes_sent $cf_net_lo $cf_net_hi"
		echo "bytes_received $cf_net_lo $cf_net_hi"
		echo "total_processes 5 5" ;;
	disk)	echo "disk $cf_disk $cf_disk.5"
		echo "total_processes 2 2" ;;
	gpu)	echo "gpus 1 1"
		echo "gpu_memory 1000 1000"
		echo "gpu_cores 0.3 0.3"
		echo "total_processes 2 2" ;;
	esac
}

# cf_strict MODE FIGURE: exit 0 when MODE promises FIGURE exact (and known).
#   ptrace, cgptrace  tpmon starts the task and traces it: every figure.
#   oldkernel*        the same, but the connect and accept calls cannot be
#                     looked at (no PTRACE_GET_SYSCALL_INFO, no pidfd): the
#                     network may be a lower bound.
#   cgroot            --tracking=cgroup as root: the proc connector's
#                     counts, cpu.stat, and (issue 27) the cgroup's sockets.
#   cgdeleg           --tracking=cgroup unprivileged: cpu.stat.
#   cghybrid          --tracking=cgroup as root on a cgroup v1 or hybrid
#                     host: the proc connector's counts, cpu.stat (or
#                     cpuacct), and the unified cgroup's sockets.
#   cgv1              the same on pure cgroup v1 (RHEL 8's layout: the
#                     unified hierarchy unmounted in a mount namespace):
#                     the network through the socket probes summed over
#                     the tree's processes, where they load (CF_PROBES).
#   cgroot, cghybrid, and, from taskstats' exit records, the bytes written
#   cgv1
#                     and wchar, unless the run's debug output says the
#                     kernel dropped events (CF_LOST, as rootpoll).
#   rootpoll          --tracking=poll as root, with the kernel's records
#                     (the proc connector, taskstats): the counts, the CPU
#                     time, the bytes written and wchar; with the socket
#                     probes (CF_PROBES set: BPF on 6.4 and later) the
#                     network too.  Not where the run's debug output says
#                     the kernel dropped events (CF_LOST set): then the
#                     figures are flagged lower bounds, as they must be.
#   rootattach        --pid as root with the socket probes: every figure.
#   poll, attach      nothing.
# Under TPMON_WRAPPER (valgrind) the network as in oldkernel.
cf_strict()
{
	# valgrind (TPMON_WRAPPER) does not know PTRACE_GET_SYSCALL_INFO: the
	# connect and accept calls cannot be looked at, as on an old kernel
	case ${TPMON_WRAPPER:+wrapped}/$2 in
	wrapped/bytes_sent|wrapped/bytes_received) return 1 ;;
	esac
	case $1/$2 in
	ptrace/*|cgptrace/*) return 0 ;;
	oldkernel*/bytes_sent|oldkernel*/bytes_received) return 1 ;;
	oldkernel*/*) return 0 ;;
	cgroot/total_processes|cgroot/max_concurrent_processes|cgroot/cpu_time) return 0 ;;
	cgroot/bytes_sent|cgroot/bytes_received) return 0 ;;
	cghybrid/total_processes|cghybrid/max_concurrent_processes|cghybrid/cpu_time) return 0 ;;
	cghybrid/bytes_sent|cghybrid/bytes_received) return 0 ;;
	cgv1/total_processes|cgv1/max_concurrent_processes|cgv1/cpu_time) return 0 ;;
	cgv1/bytes_sent|cgv1/bytes_received) [ -n "${CF_PROBES:-}" ] && return 0 ;;
	cgdeleg/cpu_time) return 0 ;;
	root*/*|cgroot/*|cghybrid/*|cgv1/*) [ -n "${CF_LOST:-}" ] && return 1 ;;
	esac
	case $1/$2 in
	cgroot/bytes_written|cgroot/wchar|cghybrid/bytes_written|cghybrid/wchar) return 0 ;;
	cgv1/bytes_written|cgv1/wchar) return 0 ;;
	rootattach/*) return 0 ;;
	rootpoll/total_processes|rootpoll/max_concurrent_processes|rootpoll/cpu_time) return 0 ;;
	rootpoll/bytes_written|rootpoll/wchar) return 0 ;;
	rootpoll/bytes_sent|rootpoll/bytes_received) [ -n "${CF_PROBES:-}" ] && return 0 ;;
	esac
	return 1
}

# cf_points W: the number of test points cf_judge_run makes for W.
cf_points()
{
	cf_truths "$1" | {
		tp_cf_p=2
		while read -r _; do
			tp_cf_p=$((tp_cf_p + 1))
		done
		echo "$tp_cf_p"
	}
}

# cf_plan MODES...: the number of test points of MODES over CF_WORKLOADS.
cf_plan()
{
	tp_cf_n=0
	for tp_cf_m in "$@"; do
		for tp_cf_w in $CF_WORKLOADS; do
			tp_cf_n=$((tp_cf_n + $(cf_points "$tp_cf_w")))
		done
	done
	echo "$tp_cf_n"
}

# cf_prepare MODE W: a fresh directory for the run ($cf_dir, made the
# current directory), the stand-in NVML's script for the GPU workload.
cf_prepare()
{
	cf_dir=$tmp/$1-$2
	cd "$tmp" && rm -rf "$cf_dir" && mkdir -m 777 "$cf_dir" && cd "$cf_dir" ||
		bail_out "cannot make $cf_dir"
	rm -f "$tmp/out-$1-$2.summary"
	summary=$tmp/out-$1-$2.summary
	TPMON_NVML_LIBRARY=
	TPMON_FAKE_NVML=
	if [ "$2" = gpu ]; then
		TPMON_NVML_LIBRARY=$HELPERS/nvml/libnvidia-ml.so.1
		TPMON_FAKE_NVML=$cf_dir/nvml.script
		echo "proc 0 $cf_dir/gpu.pid 1000 30" >"$TPMON_FAKE_NVML"
	fi
	export TPMON_NVML_LIBRARY TPMON_FAKE_NVML
}

# cf_run MODE W TPMON_ARGS...: run workload W under tpmon ARGS (-O is
# given), in its directory; the summary is $summary.
cf_run()
{
	tp_cf_mode=$1
	tp_cf_w=$2
	shift 2
	cf_prepare "$tp_cf_mode" "$tp_cf_w"
	run_tpmon_raw -O "$tmp/out-$tp_cf_mode-$tp_cf_w" "$@" --sh "$(cf_line "$tp_cf_w")"
	diag "$tp_cf_mode/$tp_cf_w: tpmon ran $elapsed ms"
	cd "$tmp" || bail_out "cd $tmp"
}

# cf_blockless: exit 0 when the current run's directory is on a
# filesystem with no block device (tmpfs, as /tmp in the VM; 9p): the
# storage I/O there is 0, whatever was written.
cf_blockless()
{
	case $(stat -f -c %T "$cf_dir" 2>/dev/null) in
	tmpfs|ramfs|v9fs|9p|virtiofs|fuse*) return 0 ;;
	esac
	return 1
}

# cf_verdicts MODE W: from lines "FIGURE LO HI STRICT SKIP VALUE FLAGGED"
# on stdin, a line "CODE|DESCRIPTION|DIAGNOSTIC" for each (one awk for
# them all: the VM's emulated CPU makes each process cost).
cf_verdicts()
{
	awk -v m="$1" -v w="$2" '
	function num(x) { return x ~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ }
	{
		f = $1; lo = $2; hi = $3; strict = $4; skip = $5; v = $6; fl = ($7 == "true")
		what = m "/" w ": " f " (truth [" lo ", " hi "])"
		if (skip == 1) {
			print "0|# SKIP " what ": no storage I/O on this filesystem|"
		} else if (v == "missing") {
			print "1|" what "|no summary"
		} else if (v == "null") {
			if (strict) print "1|" what " is known|null where " m " promises it exact"
			else print "0|" what " is null: unknown|"
		} else if (!num(v)) {
			print "1|" what " is a number or null|got: " v
		} else if (v + 0 >= lo + 0 && v + 0 <= hi + 0) {
			print "0|" what " is exact: " v (fl ? " (flagged)" : "") "|"
		} else if (strict) {
			print "1|" what " is exact|got " v (fl ? " (flagged as a lower bound)" : "") ", where " m " promises it exact"
		} else if (fl && v + 0 >= 0 && v + 0 <= hi + 0) {
			print "0|" what " is a flagged lower bound: " v "|"
		} else if (fl) {
			print "1|" what ", flagged as a lower bound, is at most the truth|got " v ", above the truth"
		} else {
			print "1|" what " is exact or flagged|got " v ", off its truth, and not in lower_bounds"
		}
	}'
}

# cf_judge_run MODE W: the points of one run: the summary, its
# lower_bounds, and each figure of W's truth.
cf_judge_run()
{
	cf_truths "$2" | while read -r tp_cf_f tp_cf_lo tp_cf_hi; do
		tp_cf_s=0 tp_cf_k=0
		cf_strict "$1" "$tp_cf_f" && tp_cf_s=1
		[ "$tp_cf_f" = bytes_written ] && cf_blockless && tp_cf_k=1
		echo "$tp_cf_f $tp_cf_lo $tp_cf_hi $tp_cf_s $tp_cf_k"
	done >"$tmp/truths"
	# one jq: the exit type, the type of lower_bounds, then each truth
	# line with the figure's value and whether lower_bounds names it
	if ! "$JQ" -r --rawfile t "$tmp/truths" '. as $s
		| "\(.exit_type)", "\(.lower_bounds | type)",
		  ($t | split("\n")[] | select(length > 0) | split(" ") as $r
		   | ($s[$r[0]] | if type == "array" then .[0] else . end) as $v
		   | "\($r | join(" ")) \($v | tojson) \($s.lower_bounds | type == "array" and any(.[]; . == $r[0]))")' \
		"$summary" >"$tmp/judged" 2>/dev/null || [ ! -s "$tmp/judged" ]; then
		{ echo missing; echo missing; sed 's/$/ missing false/' "$tmp/truths"; } >"$tmp/judged"
	fi
	{ read -r tp_cf_type; read -r tp_cf_lb; } <"$tmp/judged"
	if [ "$tp_cf_type" = missing ]; then
		ok 1 "$1/$2: a summary" || diag "no summary (tpmon exit $rc): $(head -c 2000 "$tmp/stderr")"
	else
		is "$rc/$tp_cf_type" "0/normal" "$1/$2: a summary, exit 0, exit_type normal" ||
			diag "$(head -c 2000 "$tmp/stderr")"
	fi
	is "$tp_cf_lb" array "$1/$2: the summary's lower_bounds is an array"
	sed 1,2d "$tmp/judged" | cf_verdicts "$1" "$2" >"$tmp/verdicts"
	while IFS='|' read -r tp_cf_code tp_cf_desc tp_cf_diag; do
		ok "$tp_cf_code" "$tp_cf_desc" || diag "$tp_cf_diag"
	done <"$tmp/verdicts"
}

# cf_mode MODE TPMON_ARGS...: every workload in MODE, judged.
cf_mode()
{
	tp_cf_m=$1
	shift
	for tp_cf_w in $CF_WORKLOADS; do
		cf_run "$tp_cf_m" "$tp_cf_w" "$@"
		cf_judge_run "$tp_cf_m" "$tp_cf_w"
	done
}

# cf_root_judge MODE W: judge a run of W whose debug output is
# $tmp/debug-MODE-W, with lower bounds allowed (CF_LOST) where it says the
# kernel dropped events or records.
cf_root_judge()
{
	CF_LOST=
	if grep -q 'exit records: lost\|proc connector: events lost' "$tmp/debug-$1-$2" 2>/dev/null; then
		CF_LOST=yes
		diag "$1/$2: the kernel dropped events: $(grep -m1 'lost' "$tmp/debug-$1-$2")"
	fi
	cf_judge_run "$1" "$2"
	CF_LOST=
}

# cf_mode_root MODE TPMON_ARGS...: as cf_mode, for a mode that reads the
# kernel's records as root: each run writes its debug output, and is
# judged by cf_root_judge.
cf_mode_root()
{
	tp_cf_m=$1
	shift
	for tp_cf_w in $CF_WORKLOADS; do
		cf_run "$tp_cf_m" "$tp_cf_w" "$@" -d all -o "$tmp/debug-$tp_cf_m-$tp_cf_w"
		cf_root_judge "$tp_cf_m" "$tp_cf_w"
	done
}

# cf_old_kernel_limits MODE TPMON_ARGS...: under the old-kernel simulation
# (TPMON_WRAPPER set by the caller), limits still hold: a memory limit and
# a wall-time limit stop the whole task within seconds, nothing left.
# 8 test points.
cf_old_kernel_limits()
{
	tp_cf_m=$1
	shift
	cf_prepare "$tp_cf_m" memlimit
	run_tpmon_raw -O "$tmp/out-$tp_cf_m-memlimit" "$@" -L 'memory: 100' -- "$HELPERS/hog-mem" 200 20
	is "$rc/$(jqs .exit_type)" 124/limits "$tp_cf_m: memory limit 100 MB, 200 MiB: exit 124, limits" ||
		diag "$(head -c 2000 "$tmp/stderr")"
	num_cmp "$(jqs '.limits_exceeded.memory[0]')" '==' 100 "$tp_cf_m: limits_exceeded names memory"
	num_cmp "$elapsed" '<' "$(scaled 10000)" "$tp_cf_m: stopped in ${elapsed} ms, well before its 20 s"
	assert_no_leftovers
	cf_prepare "$tp_cf_m" walllimit
	run_tpmon_raw -O "$tmp/out-$tp_cf_m-walllimit" "$@" -L 'wall_time: 1' \
		--sh "'$HELPERS/hog-mem' 1 30 & sleep 30 & wait"
	is "$rc/$(jqs .exit_type)" 124/limits "$tp_cf_m: wall_time 1 s: exit 124, limits" ||
		diag "$(head -c 2000 "$tmp/stderr")"
	num_cmp "$(jqs '.limits_exceeded.wall_time[0]')" '==' 1 "$tp_cf_m: limits_exceeded names wall_time"
	num_cmp "$elapsed" '<' "$(scaled 10000)" "$tp_cf_m: stopped in ${elapsed} ms, well before its 30 s"
	assert_no_leftovers
	cd "$tmp" || bail_out "cd $tmp"
}
