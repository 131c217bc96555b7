# SPDX-License-Identifier: MIT
# cgroup-v1-common.sh: the setup of the native cgroup v1 / hybrid tests
# (cgroup-hybrid.test, cgroup-neighbours.test), sourced after init.sh: it
# skips where there are no v1 memory and pids hierarchies (pure v2), and
# makes tp-test-PID in each hierarchy used, as a child of the test's own
# cgroup there, with the shell moved in, so that tpmon runs inside and
# whatever it makes or sweeps is the test's own.  $hier: "MOUNT
# CONTROLLER-OR-unified" lines; $tests_cgroups: the test's cgroups, in
# the same order (also "MOUNT CONTROLLER DIR" lines in $tmp/hier-own);
# hy_left lists the tpmon-* cgroups below them; settings prints the
# settings of the cgroups around tpmon.
[ "$(id -u)" -eq 0 ] || skip_all "needs root (cgroup v1 is not delegated here)"
[ -z "$TPMON_WRAPPER" ] || skip_all "moves itself between cgroups: not under $TPMON_WRAPPER"
# "MOUNT CONTROLLER-OR-unified" lines of the hierarchies used
hier=$(sed -n 's|^[0-9]* [0-9]* [^ ]* / \([^ ]*\) .* - cgroup cgroup \(.*\)$|\1 \2|p' /proc/self/mountinfo |
	while read -r mnt opts; do
		for c in memory pids cpuacct freezer; do
			case ",$opts," in *",$c,"*) echo "$mnt $c" ;; esac
		done
	done)
echo "$hier" | grep -q ' memory$' && echo "$hier" | grep -q ' pids$' ||
	skip_all "no cgroup v1 memory and pids hierarchies here (a pure cgroup v2 host: see cgroup-*.test)"
unified=$(sed -n 's|^[0-9]* [0-9]* [^ ]* / \([^ ]*\) .* - cgroup2 .*|\1|p' /proc/self/mountinfo | head -n 1)
[ -n "$unified" ] && hier="$hier
$unified unified"

# own DIR: tpmon's cgroup-to-be in the hierarchy mounted at DIR
own()
{
	case $2 in
	unified) tp_rel=$(sed -n 's|^0::||p' /proc/self/cgroup) ;;
	*) tp_rel=$(sed -n "s|^[0-9]*:\([^:]*,\)\{0,1\}$2\(,[^:]*\)\{0,1\}:||p" /proc/self/cgroup) ;;
	esac
	echo "$1${tp_rel%/}"
}

# the test's own cgroups, children of the ones it is in; the shell moves in
tests_cgroups=
echo "$hier" >"$tmp/hier"
while read -r mnt ctl; do
	d=$(own "$mnt" "$ctl")/tp-test-$$
	mkdir "$d" || bail_out "cannot make $d"
	echo $$ >"$d/cgroup.procs" || bail_out "cannot enter $d"
	tests_cgroups="$tests_cgroups $d"
	echo "$mnt $ctl $d" >>"$tmp/hier-own"
done <"$tmp/hier"

hy_cleanup()
{
	tp_status=$?
	for d in $tests_cgroups; do
		# the shell back to the parent, the runs left killed and removed
		echo $$ >"${d%/*}/cgroup.procs" 2>/dev/null
		find "$d" -mindepth 1 -depth -type d -exec rmdir {} \; 2>/dev/null
		rmdir "$d" 2>/dev/null
	done
	(exit $tp_status)
	tp_cleanup
}
trap hy_cleanup EXIT

# the tpmon-* cgroups below the test's own, in every hierarchy
hy_left()
{
	for d in $tests_cgroups; do
		find "$d" -mindepth 1 -type d -name 'tpmon-*' 2>/dev/null
	done
}

# every file that holds a setting of the cgroups around tpmon (the
# test's own, and the ones above them), name and content
settings()
{
	for d in $tests_cgroups; do
		for f in "$d"/* "${d%/*}"/*; do
			case ${f##*/} in
			cgroup.procs | tasks | cgroup.threads | cgroup.events | cgroup.stat | *.stat | \
			*.current | *usage* | *.pressure | *stat* | *.peak | *failcnt* | *.events* | \
			memory.oom_control | cpuacct.* | blkio.* | memory.numa_stat | memory.kmem.slabinfo | \
			cgroup.event_control | memory.force_empty | memory.pressure_level | \
			cgroup.kill | *.local | freezer.self_freezing | freezer.parent_freezing) ;;
			*) [ -r "$f" ] && [ -f "$f" ] && printf '%s: %s\n' "$f" "$(cat "$f" 2>/dev/null)" ;;
			esac
		done
	done
}
settings >before.txt

