# SPDX-License-Identifier: MIT
# tests/slurm-lib.sh: a private Slurm cluster of one node on localhost for
# a scenario test, sourced after init.sh.  slurm_start writes a
# configuration under $tmp/slurm, starts munged (as the munge user, on a
# private socket and key), slurmctld and slurmd on private ports, and
# waits until the node is idle; slurm_stop (run by the exit trap, also on
# failure) cancels the jobs and stops the daemons.  The whole test skips,
# saying why, when Slurm or munge is missing or the test is not root.
# POSIX sh.
#
# No cgroup plugin is used (proctrack/linuxproc, task/none,
# jobacct_gather/none): the host's cgroups belong to the machine.
# Finished jobs are logged by jobcomp/filetxt in $SLURM_JOBCOMP; there is
# no slurmdbd, so no sacct.  KillWait is 5 s.  The node declares
# $SLURM_CPUS CPUs (default 8) and $SLURM_MEM MB (default 2000), whatever
# the machine has.  A test may set SLURM_ACCT_GATHER (jobacct_gather/linux:
# memory polled from /proc, no cgroup) and SLURM_EXTRA_CONF (more lines,
# e.g. JobAcctGatherParams=OverMemoryKill) and SLURM_SELECT_PARAMS
# (CR_Core_Memory: memory a consumable resource) before slurm_start;
# SLURM_PROCTRACK and SLURM_TASK_PLUGIN replace proctrack/linuxproc and
# task/none (the cgroup plugins, in cgroups of the test's own:
# tests/slurm-cgroup.test), and SLURMD_PREFIX runs slurmd through a
# command (unshare -m and the bind mounts they need); SLURM_EXIT_HOOK is
# a command the exit trap runs after slurm_stop.
#
#   . "$TESTS_SRCDIR/slurm-lib.sh"
#   slurm_start
#   id=$(sbatch --parsable -o out.%j ...)
#   slurm_wait_job "$id" 30      # until it has left the queue
#   slurm_job_field "$id" ExitCode
#
# Every daemon and job carries the test's TPMON_TEST_MARK, so init.sh's
# cleanup kills whatever slurm_stop could not stop; the jobs' own mark is
# $SLURM_MARK (assert_no_leftovers "$SLURM_MARK").  SLURM_CONF is
# exported: sbatch, srun, scontrol, squeue and scancel use the private
# cluster, and jobs inherit it.

SLURM_DIR=
SLURM_CPUS=${SLURM_CPUS:-8}
SLURM_MEM=${SLURM_MEM:-2000}
SLURM_NODE=tpmon1
slurm_pids=

# slurm_need: skip the test unless Slurm and munge can run here.
slurm_need()
{
	for slurm_cmd in munged slurmctld slurmd sbatch srun scontrol squeue scancel setpriv; do
		command -v "$slurm_cmd" >/dev/null 2>&1 ||
			skip_all "$slurm_cmd not found (Debian: slurm-wlm, munge; scripts/install-deps)"
	done
	[ "$(id -u)" -eq 0 ] || skip_all "a private Slurm needs root (slurmd runs jobs as their user)"
	id munge >/dev/null 2>&1 || skip_all "no munge user (Debian package munge)"
}

# slurm_free_port: a TCP port no socket uses, below the kernel's range of
# ephemeral ports (random in 10000-32767), so that no outgoing connection
# takes it before the daemon binds it.
slurm_free_port()
{
	while :; do
		slurm_p=$((10000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 22768))
		ss -Htan "sport = :$slurm_p" 2>/dev/null | grep -q . || {
			echo "$slurm_p"
			return
		}
	done
}

# slurm_conf: write $SLURM_DIR/slurm.conf.
slurm_conf()
{
	slurm_host=$(hostname -s)
	cat >"$SLURM_DIR/slurm.conf" <<EOF
# written by tests/slurm-lib.sh for one test
ClusterName=tpmontest
SlurmctldHost=$slurm_host(127.0.0.1)
SlurmctldPort=$(slurm_free_port)
SlurmdPort=$(slurm_free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SLURM_DIR/munge/socket
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool/%n
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$SLURM_DIR/plugstack.conf
ProctrackType=${SLURM_PROCTRACK:-proctrack/linuxproc}
TaskPlugin=${SLURM_TASK_PLUGIN:-task/none}
JobAcctGatherType=${SLURM_ACCT_GATHER:-jobacct_gather/none}
${SLURM_EXTRA_CONF:-}
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$SLURM_DIR/jobcomp.log
SelectType=select/cons_tres
SelectTypeParameters=${SLURM_SELECT_PARAMS:-CR_Core}
SlurmdParameters=config_overrides
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
KillWait=5
MinJobAge=600
InactiveLimit=0
NodeName=$SLURM_NODE NodeHostname=$slurm_host NodeAddr=127.0.0.1 CPUs=$SLURM_CPUS RealMemory=$SLURM_MEM State=UNKNOWN
PartitionName=test Nodes=$SLURM_NODE Default=YES MaxTime=INFINITE State=UP
EOF
	: >"$SLURM_DIR/plugstack.conf"
}

# slurm_munge: a key and a munged of our own, as the munge user (munged
# refuses a socket directory that others may write).
slurm_munge()
{
	slurm_m=$SLURM_DIR/munge
	mkdir -p "$slurm_m" &&
		dd if=/dev/urandom of="$slurm_m/key" bs=1024 count=1 2>/dev/null &&
		chown -R munge:munge "$slurm_m" && chmod 711 "$slurm_m" &&
		chmod 400 "$slurm_m/key" || bail_out "cannot set up $slurm_m"
	TPMON_TEST_MARK=$tp_mark_base.slurm. setpriv --reuid=munge --regid=munge \
		--clear-groups munged -F --socket="$slurm_m/socket" \
		--key-file="$slurm_m/key" --pid-file="$slurm_m/pid" \
		--log-file="$slurm_m/log" --seed-file="$slurm_m/seed" \
		</dev/null >"$SLURM_DIR/munged.out" 2>&1 &
	slurm_pids="$slurm_pids $!"
	for _ in $(seq 50); do
		[ -S "$slurm_m/socket" ] && return 0
		sleep 0.1
	done
	diag "$(cat "$SLURM_DIR/munged.out" "$slurm_m/log" 2>/dev/null)"
	bail_out "munged did not start"
}

# slurm_start: the cluster, ready for jobs (node idle).  Installs the
# exit trap that stops it.  A daemon that dies at the start (a port taken
# meanwhile) is started again on other ports, three times at most.
slurm_start()
{
	slurm_need
	# the munge user must reach its socket through $tmp
	chmod 711 "$tmp" || bail_out "chmod $tmp"
	SLURM_DIR=$tmp/slurm
	mkdir -p "$SLURM_DIR/state" "$SLURM_DIR/spool" || bail_out "mkdir $SLURM_DIR"
	SLURM_CONF=$SLURM_DIR/slurm.conf
	SLURM_JOBCOMP=$SLURM_DIR/jobcomp.log
	# every job's processes carry the mark (sbatch and srun pass the
	# environment on): assert_no_leftovers "$SLURM_MARK" checks them
	SLURM_MARK=$tp_mark_base.jobs.
	TPMON_TEST_MARK=$SLURM_MARK
	export SLURM_CONF TPMON_TEST_MARK
	trap 'slurm_rc=$?; slurm_stop; ${SLURM_EXIT_HOOK:-:}; (exit $slurm_rc); tp_cleanup' 0
	slurm_munge
	slurm_munged=$slurm_pids
	for slurm_try in 1 2 3; do
		slurm_conf
		slurm_daemons && return 0
		slurm_logs
		for slurm_pid in $slurm_daemon_pids; do
			kill -9 "$slurm_pid" 2>/dev/null
			wait "$slurm_pid" 2>/dev/null
		done
		slurm_pids=$slurm_munged
	done
	bail_out "Slurm did not start (three tries)"
}

# slurm_daemons: start slurmctld and slurmd on the configuration; 0 once
# the node is idle, 1 when a daemon died or 30 s went by.
slurm_daemons()
{
	rm -rf "$SLURM_DIR/state" && mkdir -p "$SLURM_DIR/state" || bail_out "mkdir state"
	TPMON_TEST_MARK=$tp_mark_base.slurm. slurmctld -D -i -f "$SLURM_CONF" \
		</dev/null >"$SLURM_DIR/slurmctld.out" 2>&1 &
	slurm_daemon_pids=$!
	# shellcheck disable=SC2086 # a command line
	TPMON_TEST_MARK=$tp_mark_base.slurm. ${SLURMD_PREFIX:-} slurmd -D -N "$SLURM_NODE" -f "$SLURM_CONF" \
		</dev/null >"$SLURM_DIR/slurmd.out" 2>&1 &
	slurm_daemon_pids="$slurm_daemon_pids $!"
	slurm_pids="$slurm_pids $slurm_daemon_pids"
	slurm_end=$(($(date +%s) + 30))
	while [ "$(date +%s)" -le "$slurm_end" ]; do
		for slurm_pid in $slurm_daemon_pids; do
			kill -0 "$slurm_pid" 2>/dev/null || return 1
		done
		[ "$(timeout 5 sinfo -h -n "$SLURM_NODE" -o %T 2>/dev/null)" = idle ] && return 0
		sleep 0.2
	done
	return 1
}

# slurm_logs: the daemons' logs into the test's log.
slurm_logs()
{
	for slurm_f in slurmctld.log slurmd.log slurmctld.out slurmd.out; do
		[ -s "$SLURM_DIR/$slurm_f" ] || continue
		diag "--- $slurm_f (last lines)"
		diag "$(tail -n 30 "$SLURM_DIR/$slurm_f")"
	done
}

# slurm_stop: cancel every job, stop the daemons (SIGTERM, then SIGKILL
# after 5 s), munged last.
slurm_stop()
{
	[ -n "$SLURM_DIR" ] || return 0
	if [ -n "$slurm_pids" ]; then
		timeout 5 scancel --full --quiet --partition=test 2>/dev/null
		for slurm_pid in $slurm_pids; do
			kill "$slurm_pid" 2>/dev/null
		done
		for _ in $(seq 50); do
			slurm_alive=
			for slurm_pid in $slurm_pids; do
				kill -0 "$slurm_pid" 2>/dev/null && slurm_alive=1
			done
			[ -z "$slurm_alive" ] && break
			sleep 0.1
		done
		for slurm_pid in $slurm_pids; do
			kill -9 "$slurm_pid" 2>/dev/null
		done
	fi
	slurm_pids=
	SLURM_DIR=
}

# slurm_wait_job ID SECONDS: wait until job ID (every task of an array) has
# left the queue; fails after SECONDS.
slurm_wait_job()
{
	slurm_end=$(($(date +%s) + $2))
	while [ "$(date +%s)" -le "$slurm_end" ]; do
		# squeue lists pending and running jobs only
		slurm_q=$(timeout 10 squeue -h -j "$1" 2>/dev/null) && [ -z "$slurm_q" ] &&
			return 0
		sleep 0.2
	done
	diag "job $1 still queued after $2 s: $(timeout 10 squeue -j "$1" 2>&1)"
	return 1
}

# slurm_wait_state ID STATE SECONDS: wait until job ID is in STATE
# (RUNNING, ...); fails after SECONDS.
slurm_wait_state()
{
	slurm_end=$(($(date +%s) + $3))
	while [ "$(date +%s)" -le "$slurm_end" ]; do
		[ "$(timeout 10 squeue -h -j "$1" -o %T 2>/dev/null)" = "$2" ] && return 0
		sleep 0.1
	done
	diag "job $1 not $2 after $3 s: $(timeout 10 squeue -j "$1" 2>&1)"
	return 1
}

# slurm_job_field ID NAME: a field of `scontrol show job ID` (JobState,
# ExitCode, ...), as Slurm records it.
slurm_job_field()
{
	timeout 10 scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# slurm_jobcomp_field ID NAME: a field of job ID's line in the jobcomp
# log (JobState, ExitCode, ...).
slurm_jobcomp_field()
{
	grep "^JobId=$1 " "$SLURM_JOBCOMP" 2>/dev/null | tail -n 1 | tr ' ' '\n' |
		sed -n "s/^$2=//p" | head -n 1
}

# slurm_wait_file FILE SECONDS: until FILE exists (a job's sign of life);
# fails after SECONDS.
slurm_wait_file()
{
	slurm_end=$(($(date +%s) + $2))
	until [ -e "$1" ]; do
		[ "$(date +%s)" -le "$slurm_end" ] || return 1
		sleep 0.1
	done
}
