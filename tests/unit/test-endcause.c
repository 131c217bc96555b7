/* SPDX-License-Identifier: MIT */
/* test-endcause.c: why a task ended (endcause_decide()), the notes and
 * the retry (endnotes.c) on hand-made summaries, each rule at both sides
 * of its threshold; and the parsers under them (mountinfo lines, the
 * oom_kill counters, PSI totals). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include "cgroup/memcgs.h"
#include "kernel/mounts.h"
#include "cgroup/pressure.h"
#include "measure/endcause.h"
#include "measure/endnotes.h"
#include "tap.h"

static struct tp_end decide(const struct tp_end_in *in)
{
	struct tp_end e;

	endcause_decide(in, &e);
	return e;
}

/* tpmon's memory limit of 100 MB, held by the kernel in the run's own
 * cgroup: its kill there is that limit, however the race with tpmon's
 * check went (issue 42); an enclosing cgroup with a lower limit is
 * oom_kill.  @in: a memory limit broke; @oom: the machine's counter. */
static void own_limit(struct tp_end_in *in, struct tp_oom_found *oom)
{
	static const char held[] = "stopped at its memory limit of 100 MB, which the kernel "
				   "holds in the run's own cgroup (its OOM killer)";
	struct tp_end e;

	in->signal = SIGKILL;
	in->cg_limit_mb = 100;
	in->oom = oom;
	e = decide(in);
	ok(e.cause == TP_END_LIMIT && e.signal == SIGKILL,
	   "SIGKILL at the run's limit, the machine's counter rose: limit, not oom_kill");
	is_str(e.detail, held, "the limit held by the kernel: which, and its value");
	is_double(e.oom_limit_mb, 100, 1e-9, "the limit held by the kernel: in MB");
	oom->machine = false;
	oom->limit = (100u << 20) - (256u << 10);
	snprintf(oom->cgroup, sizeof(oom->cgroup), "v2:/tpmon-1-a/task");
	e = decide(in);
	ok(e.cause == TP_END_LIMIT && !strcmp(e.detail, held),
	   "the run's own v2 cgroup found, its limit less the headroom: limit");
	oom->limit = 50u << 20;
	snprintf(oom->cgroup, sizeof(oom->cgroup), "v1 memory:/slurm/job_1");
	e = decide(in);
	ok(e.cause == TP_END_OOM_KILL, "an enclosing cgroup at 50 MB, under the run's 100: oom_kill");
	in->cg_limit_mb = 0;
	oom->machine = true;
	e = decide(in);
	ok(e.cause == TP_END_OOM_KILL, "no limit held in the run's cgroup: the machine's oom_kill");
	in->limit_name = "wall_time";
	in->cg_limit_mb = 100;
	e = decide(in);
	ok(e.cause == TP_END_OOM_KILL, "another limit broke: an OOM kill is no memory limit");
}

static void causes(void)
{
	struct tp_end_in in;
	struct tp_oom_found oom;
	struct tp_sender s;
	struct tp_end e;

	memset(&in, 0, sizeof(in));
	memset(&oom, 0, sizeof(oom));
	memset(&s, 0, sizeof(s));
	e = decide(&in);
	ok(e.cause == TP_END_UNKNOWN && !endcause_name(e.cause), "not ended: no cause");
	in.ended = true;
	in.exit_status = 2;
	e = decide(&in);
	is_str(endcause_name(e.cause), "exited", "status 2: exited");
	is_str(e.detail, "exited with status 2", "status 2: the detail");

	in.exit_status = 0;
	in.signal = SIGTERM;
	s.known = true;
	s.signo = SIGTERM;
	s.pid = 42;
	s.uid = 1000;
	in.sender = &s;
	e = decide(&in);
	ok(e.cause == TP_END_SIGNAL && e.signal == SIGTERM && e.sender.known && e.sender.pid == 42,
	   "SIGTERM from pid 42: signal, with its sender");
	is_str(e.detail, "killed by signal 15 (Terminated) sent by process 42 (uid 1000)",
	       "SIGTERM: the detail names the sender");
	s.signo = SIGINT;
	e = decide(&in);
	ok(!e.sender.known, "a sender of another signal is not this one's");

	in.signal = SIGKILL;
	in.sender = NULL;
	in.oom = &oom;
	snprintf(oom.unreadable, sizeof(oom.unreadable), "v2:/job_1");
	e = decide(&in);
	is_str(e.detail, "killed by signal 9 (Killed); the OOM could not be checked: "
	       "cannot read cgroup v2:/job_1", "SIGKILL, a cgroup unreadable: signal, saying so");
	ok(e.cause == TP_END_SIGNAL, "SIGKILL, a cgroup unreadable: cause signal");

	oom.found = true;
	oom.limit_known = true;
	oom.limit = 50u << 20;
	snprintf(oom.cgroup, sizeof(oom.cgroup), "v1 memory:/slurm/job_1");
	in.limit = true;	/* the OOM kill comes first */
	e = decide(&in);
	ok(e.cause == TP_END_OOM_KILL && e.signal == SIGKILL && !e.sender.known,
	   "an OOM counter rose: oom_kill, no sender");
	is_str(e.detail, "killed by the OOM killer of cgroup v1 memory:/slurm/job_1, "
	       "whose memory limit is 50 MB", "oom_kill: the cgroup and its limit");
	is_double(e.oom_limit_mb, 50, 1e-9, "oom_kill: the limit in MB");
	oom.machine = true;
	e = decide(&in);
	is_str(e.detail, "killed by the kernel's OOM killer: the machine ran out of memory",
	       "the machine's OOM killer");

	in.oom = NULL;
	in.limit_name = "memory";
	e = decide(&in);
	ok(e.cause == TP_END_LIMIT, "a limit, no OOM: limit");
	is_str(e.detail, "tpmon stopped it: memory over its limit", "limit: which");
	own_limit(&in, &oom);

	memset(&in, 0, sizeof(in));
	in.ended = true;
	in.exit_status = 1;
	in.full = true;
	in.full_point = "/scratch";
	e = decide(&in);
	is_str(endcause_name(e.cause), "no_space", "failed on a full file system: no_space");
	is_str(e.detail, "exited with status 1; the file system at /scratch has no space left",
	       "no_space: the mount point");
	in.exit_status = 0;
	e = decide(&in);
	ok(e.cause == TP_END_EXITED, "succeeded on a full file system: exited");

	memset(&in, 0, sizeof(in));
	in.not_found = true;
	in.exec_errno = ENOENT;
	e = decide(&in);
	is_str(endcause_name(e.cause), "not_found", "never ran: not_found");
	is_str(e.detail, "the command could not be run: No such file or directory",
	       "not_found: why");
	in.exec_errno = EACCES;
	e = decide(&in);
	is_str(endcause_name(e.cause), "cannot_execute", "found, not executable: cannot_execute");
	is_str(e.detail, "the command could not be run: Permission denied",
	       "cannot_execute: why");
}

/* The codes of @r's notes under @d, space-separated, into @buf. */
static const char *codes(const struct tp_summary *r, const struct tp_limits *d, char *buf,
			 size_t len)
{
	struct tp_note v[TP_NOTES_MAX];
	size_t i, n = endnotes_compute(r, d, v);

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strncat(buf, " ", len - strlen(buf) - 1);
		strncat(buf, v[i].code, len - strlen(buf) - 1);
	}
	return buf;
}

/* A signal whose sender is null: a note says why, where a reason is
 * known; none when the sender is known. */
static void sender_notes(void)
{
	struct tp_summary r;
	struct tp_limits d;
	struct tp_note v[TP_NOTES_MAX];
	struct tp_sender s;
	struct tp_end_in in;
	char buf[64];

	memset(&r, 0, sizeof(r));
	memset(&d, 0, sizeof(d));
	memset(&in, 0, sizeof(in));
	memset(&s, 0, sizeof(s));
	s.signo = SIGKILL;
	s.why = "ptrace saw no stop";
	in.ended = true;
	in.signal = SIGKILL;
	in.sender = &s;
	endcause_decide(&in, &r.ending);
	ok(endnotes_compute(&r, &d, v) == 1 && !strcmp(v[0].code, "sender_unknown"),
	   "SIGKILL, sender null with a reason: sender_unknown");
	is_str(v[0].text, "signal 9: no sender named: ptrace saw no stop",
	       "sender_unknown: the signal and why");
	s.why = NULL;
	endcause_decide(&in, &r.ending);
	is_str(codes(&r, &d, buf, sizeof(buf)), "", "no reason known: no note");
	s.known = true;
	s.pid = 42;
	endcause_decide(&in, &r.ending);
	is_str(codes(&r, &d, buf, sizeof(buf)), "", "a sender named: no note");
	s.known = false;
	s.why = "ptrace saw no stop";
	s.signo = SIGTERM;
	endcause_decide(&in, &r.ending);
	is_str(codes(&r, &d, buf, sizeof(buf)), "", "the reason of another signal: no note");
}

/* One core declared: "1 core", not "1 cores". */
static void one_core_note(void)
{
	struct tp_summary r;
	struct tp_limits d;
	struct tp_note v[TP_NOTES_MAX];

	memset(&r, 0, sizeof(r));
	memset(&d, 0, sizeof(d));
	d.set[TP_RES_CORES] = true;
	d.value[TP_RES_CORES] = 1;
	r.cores_avg = 0.2;
	ok(endnotes_compute(&r, &d, v) == 1, "0.2 of 1 core: one note");
	is_str(v[0].text, "1 core declared, 0.20 used on average (20%)", "1 core, singular");
}

/* gpu_idle: 4 GPUs declared, 1 used; gpu_memory_unused under half the
 * declared GPU memory; unknown figures (no source) earn neither. */
static void gpu_notes(void)
{
	struct tp_summary r;
	struct tp_limits d;
	struct tp_note v[TP_NOTES_MAX];
	char buf[256];

	memset(&r, 0, sizeof(r));
	memset(&d, 0, sizeof(d));
	d.set[TP_RES_GPUS] = d.set[TP_RES_GPU_MEMORY] = true;
	d.value[TP_RES_GPUS] = 4;
	d.value[TP_RES_GPU_MEMORY] = 16000;
	is_str(codes(&r, &d, buf, sizeof(buf)), "", "GPU figures unknown: no GPU note");
	r.known[TP_RES_GPUS] = r.known[TP_RES_GPU_MEMORY] = true;
	r.value[TP_RES_GPUS] = 1;
	r.value[TP_RES_GPU_MEMORY] = 7999;
	ok(endnotes_compute(&r, &d, v) == 2, "1 of 4 GPUs, 7999 of 16000 MB: two notes");
	is_str(v[0].code, "gpu_idle", "gpu_idle");
	is_str(v[0].text, "4 GPUs declared, 1 used", "gpu_idle: declared and used");
	is_str(v[1].text, "16000 MB of GPU memory declared, 7999 MB peak (50%)",
	       "gpu_memory_unused: declared and peak");
	r.value[TP_RES_GPUS] = 4;
	r.value[TP_RES_GPU_MEMORY] = 8000;
	is_str(codes(&r, &d, buf, sizeof(buf)), "", "4 of 4 GPUs, half the memory: no note");
	d.value[TP_RES_GPUS] = 1;
	r.value[TP_RES_GPUS] = 0;
	is_str(codes(&r, &d, buf, sizeof(buf)), "gpu_idle", "1 GPU declared, none used: gpu_idle");
}

static void notes(void)
{
	struct tp_summary r;
	struct tp_limits d;
	char buf[256];

	memset(&r, 0, sizeof(r));
	memset(&d, 0, sizeof(d));
	r.known[TP_RES_MEMORY] = r.known[TP_RES_WALL_TIME] = r.known[TP_RES_CORES] = true;
	r.value[TP_RES_MEMORY] = 999;
	r.value[TP_RES_WALL_TIME] = 10;
	r.value[TP_RES_CORES] = 1;
	r.cores_avg = 1.9;
	is_str(codes(&r, &d, buf, sizeof(buf)), "", "nothing declared, nothing contended: no notes");
	d.set[TP_RES_CORES] = d.set[TP_RES_MEMORY] = d.set[TP_RES_WALL_TIME] = true;
	d.value[TP_RES_CORES] = 4;
	d.value[TP_RES_MEMORY] = 2000;
	d.value[TP_RES_WALL_TIME] = 100;
	is_str(codes(&r, &d, buf, sizeof(buf)), "cores_idle memory_unused single_threaded",
	       "1.9 of 4 cores, 999 of 2000 MB, 10 of 100 s, peak 1 core");
	r.cores_avg = 2;
	r.value[TP_RES_MEMORY] = 1000;
	r.value[TP_RES_WALL_TIME] = 9.9;
	r.value[TP_RES_CORES] = 1.5;
	is_str(codes(&r, &d, buf, sizeof(buf)), "wall_time_unused",
	       "exactly half the cores and memory, peak 1.5 cores: no note; 9.9 of 100 s: one");

	r.pressure.throttle_known = r.pressure.memory_known = r.pressure.io_known = true;
	r.pressure.nr_periods = 100;
	r.pressure.nr_throttled = 9;
	r.pressure.memory_some_us = 980000;
	r.pressure.io_some_us = 1000000;
	is_str(codes(&r, &d, buf, sizeof(buf)), "wall_time_unused io_pressure",
	       "9%% throttled, memory stalls 9.9%% of 9.9 s, I/O stalls 10.1%%");
	r.pressure.nr_throttled = 10;
	is_str(codes(&r, &d, buf, sizeof(buf)), "wall_time_unused cpu_throttled io_pressure",
	       "10%% of periods throttled: cpu_throttled");
	sender_notes();
	one_core_note();
	gpu_notes();
}

static void retry(void)
{
	struct tp_summary r;
	struct tp_limits d;
	struct tp_retry t;

	memset(&r, 0, sizeof(r));
	memset(&d, 0, sizeof(d));
	r.known[TP_RES_MEMORY] = true;
	r.value[TP_RES_MEMORY] = 40;
	r.ending.cause = TP_END_SIGNAL;
	ok(!endnotes_retry(&r, &d, &t), "a signal: no retry");
	r.ending.cause = TP_END_OOM_KILL;
	r.ending.oom_limit_mb = 50;
	ok(endnotes_retry(&r, &d, &t) && t.resource == TP_RES_MEMORY, "oom_kill: memory");
	is_double(t.value, 128, 0, "oom_kill under 50 MB, 40 seen: 75 rounded to 128");
	r.value[TP_RES_MEMORY] = 700;
	endnotes_retry(&r, &d, &t);
	is_double(t.value, 1280, 0, "700 MB seen: 1050, in 256 MB steps above 1 GB: 1280");
	r.ending.cause = TP_END_LIMIT;
	r.ending.oom_limit_mb = 0;
	ok(!endnotes_retry(&r, &d, &t), "a limit other than memory or wall time: no retry");
	r.exceeded.set[TP_RES_WALL_TIME] = true;
	d.set[TP_RES_WALL_TIME] = true;
	d.value[TP_RES_WALL_TIME] = 100;
	ok(endnotes_retry(&r, &d, &t) && t.resource == TP_RES_WALL_TIME, "wall-time limit: wall time");
	is_double(t.value, 180, 0, "100 s: 150 s in whole minutes, 180");
}

static void parsers(void)
{
	char line[] = "36 35 98:0 /mnt1 /mnt\\040two rw,noatime master:1 shared:2 - ext3 /dev/root rw,errors=continue";
	struct tp_mount m;
	uint64_t v = 0;

	ok(mounts_parse_line(line, &m) == 0, "a mountinfo line with optional fields");
	ok(m.major == 98 && m.minor == 0, "its device");
	is_str(m.point, "/mnt two", "its mount point, \\040 undone");
	is_str(m.fstype, "ext3", "its type, after the optional fields");
	is_str(m.super, "rw,errors=continue", "its super options");
	{
		char bad[] = "36 35 98:0 / /mnt rw";

		ok(mounts_parse_line(bad, &m) < 0, "a line without its \"-\" is refused");
	}
	ok(memcgs_parse_count("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n", &v) == 0 && v == 3,
	   "v1 memory.oom_control: oom_kill 3");
	ok(memcgs_parse_count("low 0\nhigh 0\nmax 5\noom 2\noom_kill 1\noom_group_kill 0\n", &v) == 0 &&
	   v == 1, "v2 memory.events: oom_kill 1, not oom_group_kill");
	ok(memcgs_parse_count("oom_kill_disable 0\nunder_oom 0\n", &v) < 0,
	   "an old kernel's oom_control without the counter");
	ok(pressure_parse_some("some avg10=0.00 avg60=0.00 avg300=0.00 total=123456\n"
			       "full avg10=0.00 avg60=0.00 avg300=0.00 total=99\n", &v) == 0 && v == 123456,
	   "PSI: the some line's total");
	ok(pressure_parse_some("full avg10=0.00 avg60=0.00 avg300=0.00 total=99\n", &v) < 0,
	   "PSI without a some line");
}

int main(void)
{
	plan(65);
	causes();
	notes();
	retry();
	parsers();
	return done();
}
