/* SPDX-License-Identifier: MIT */
/* sdbus.h: a transient systemd scope with Delegate=yes for tpmon itself,
 * asked of the user's systemd over D-Bus (sd-bus of libsystemd, loaded
 * with dlopen, so a static tpmon runs without it), as BenchExec does:
 * StartTransientUnit("tpmon-<rand>.scope", "fail", [PIDs: [getpid()],
 * Delegate: true]), then the JobRemoved signal of the job it returns.
 * tpmon is then alone in a cgroup it owns; the scope goes away with its
 * last process. */
#ifndef TPMON_SDBUS_H
#define TPMON_SDBUS_H

#include <stddef.h>

/* May a scope be asked for here?  Not as root, not in a batch job
 * (SLURM_JOB_ID, PBS_JOBID or _CONDOR_JOB_AD set, or a cgroup of @cgtext,
 * the /proc/self/cgroup text, under a Slurm, HTCondor or PBS job: the
 * scope would escape the job's cgroup), not without a user bus
 * ($DBUS_SESSION_BUS_ADDRESS, or $XDG_RUNTIME_DIR/bus).  0, or -1 with
 * the reason in @why. */
int sdbus_wanted(const char *cgtext, char *why, size_t whysize);

/* Is @cgtext (/proc/self/cgroup text) that of a process in a batch
 * job's cgroup?  Pure. */
int sdbus_in_batch_cgroup(const char *cgtext);

/* Ask for the scope and wait for it, @timeout_ms in all.  0 once tpmon
 * is in it, or -1 with the reason in @why (no libsystemd, no bus, an
 * error reply, the job failed, no answer in time).  Never hangs longer. */
int sdbus_scope(int timeout_ms, char *why, size_t whysize);

#endif
