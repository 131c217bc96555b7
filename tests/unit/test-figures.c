/* SPDX-License-Identifier: MIT */
/* test-figures.c: the rules that make the report (figures_fill()), the
 * task's exit (figures_exit()) and the snapshots (figures_snapshot()),
 * on hand-made inputs whose answers are known exactly. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "measure/figures.h"
#include "tap.h"

#define MiB 1048576.0

static void start(struct tp_figures *f, struct tp_summary *rep)
{
	figures_init(f, rep, 2, false);
}

static void fill_in(struct tp_fill *in)
{
	memset(in, 0, sizeof(*in));
	in->acct.cpu_ns = 3000000000ull;		/* 3 s */
	in->acct.io.read_bytes = (uint64_t)(5 * MiB);
	in->acct.io.write_bytes = (uint64_t)(7 * MiB);
	in->acct.ctxsw = 11;
	in->total_processes = 4;
	in->max_live = 3;
	in->machine_cpus = 8;
	in->tracking = TP_TRACK_PTRACE;
}

static void totals(void)
{
	struct tp_figures f;
	struct tp_summary rep;
	struct tp_fill in;

	start(&f, &rep);
	rep.start = 1000;
	fill_in(&in);
	figures_fill(&f, &in, 10, true);
	is_double(rep.end, 1010, 0, "end is start + t");
	is_double(rep.value[TP_RES_WALL_TIME], 10, 0, "wall_time is t");
	is_double(rep.value[TP_RES_CPU_TIME], 3, 1e-12, "cpu_time from the tree's ns");
	is_double(rep.value[TP_RES_BYTES_READ], 5, 1e-12, "bytes_read in MiB");
	is_double(rep.value[TP_RES_BYTES_WRITTEN], 7, 1e-12, "bytes_written in MiB");
	is_double(rep.value[TP_RES_TOTAL_PROCESSES], 4, 0, "total_processes");
	ok(rep.known[TP_RES_CPU_TIME] && rep.peak_time[TP_RES_CPU_TIME] == 10 &&
	   rep.peak_time[TP_RES_TOTAL_PROCESSES] == 10, "totals are known, their peak is now");
	ok(rep.known[TP_RES_MAX_CONCURRENT_PROCESSES] &&
	   rep.value[TP_RES_MAX_CONCURRENT_PROCESSES] == 3 &&
	   rep.peak_time[TP_RES_MAX_CONCURRENT_PROCESSES] == 10,
	   "no sample: the table's peak of live processes, at t");
	is_double(rep.cores_avg, 0.3, 1e-12, "cores_avg is cpu / t");
	ok(rep.known[TP_RES_CORES] && rep.value[TP_RES_CORES] == rep.cores_avg,
	   "no cores peak from the samples: the average stands for it");
	ok(!rep.known[TP_RES_MEMORY], "no live process, no sample: memory stays unknown");
	ok(!rep.known[TP_RES_BYTES_SENT] && !rep.gpu_known,
	   "network and GPUs unknown when not measured");
	ok(rep.machine_cpus == 8 && rep.tracking == TP_TRACK_PTRACE && !rep.load_known,
	   "machine cpus and tracking as given; load unknown");
	ok(rep.acct.ctxsw == 11 && !rep.ctxsw_known, "our own context switches");
	figures_free(&f);
}

static void poll_cpu_and_short_task(void)
{
	struct tp_figures f;
	struct tp_summary rep;
	struct tp_fill in;

	start(&f, &rep);
	fill_in(&in);
	f.reaped_cpu = 4;	/* wait() said more than the table holds */
	figures_peak(&f, TP_RES_CORES, 1.5, 0.2);
	figures_fill(&f, &in, 0.5, true);
	is_double(rep.value[TP_RES_CPU_TIME], 4, 0, "poll: the reaped CPU time wins");
	is_double(rep.cores_avg, 8, 1e-12, "cores_avg from it");
	ok(rep.value[TP_RES_CORES] == 8 && rep.peak_time[TP_RES_CORES] == 0.5,
	   "a task shorter than the window: an average above the peak replaces it");
	figures_free(&f);

	start(&f, &rep);
	fill_in(&in);
	figures_peak(&f, TP_RES_CORES, 1.5, 0.2);
	figures_fill(&f, &in, 10, true);
	ok(rep.value[TP_RES_CORES] == 1.5 && rep.peak_time[TP_RES_CORES] == 0.2,
	   "a longer task keeps its sampled cores peak");
	figures_free(&f);
}

static void memory(void)
{
	struct tp_figures f;
	struct tp_summary rep;
	struct tp_fill in;

	start(&f, &rep);
	fill_in(&in);
	figures_peak(&f, TP_RES_MEMORY, 10, 1);
	in.nlive = 2;
	in.live_hwm_kb = 20 * 1024;
	f.pss_unstable = 30;
	figures_fill(&f, &in, 5, false);
	ok(rep.value[TP_RES_MEMORY] == 20 && rep.peak_time[TP_RES_MEMORY] == 5,
	   "a live process's peak RSS above the sampled peak: it bounds the peak");
	ok(rep.pss_known && rep.memory_pss == 20,
	   "PSS read while it changed stands in, no larger than memory");
	figures_note_hwm(&f, 15 * 1024, 6);
	is_double(rep.value[TP_RES_MEMORY], 20, 0, "a smaller peak RSS changes nothing");
	figures_free(&f);
}

static void outer(void)
{
	struct tp_figures f;
	struct tp_summary rep;
	struct tp_fill in;
	struct tp_nest_totals nt;

	memset(&nt, 0, sizeof(nt));
	nt.whole = true;
	nt.procs = 9;
	nt.acct.cpu_ns = 6000000000ull;
	nt.acct.ctxsw = 99;
	nt.acct.io.read_bytes = (uint64_t)(2 * MiB);
	nt.peak = 5;
	nt.peak_ago = 3;

	start(&f, &rep);
	fill_in(&in);
	in.outer = &nt;
	in.outer_answered = 10;
	figures_fill(&f, &in, 10, false);
	is_double(rep.value[TP_RES_CPU_TIME], 3, 1e-12, "checkpoint: our totals, not the outer's");
	ok(rep.value[TP_RES_MAX_CONCURRENT_PROCESSES] == 5 &&
	   rep.peak_time[TP_RES_MAX_CONCURRENT_PROCESSES] == 7,
	   "the outer's exact peak, at answered - peak_ago");
	figures_free(&f);

	start(&f, &rep);
	fill_in(&in);
	in.outer = &nt;
	in.outer_answered = 10;
	figures_fill(&f, &in, 10, true);
	ok(rep.value[TP_RES_CPU_TIME] == 6 && rep.value[TP_RES_TOTAL_PROCESSES] == 9 &&
	   rep.value[TP_RES_BYTES_READ] == 2, "final: the outer's totals replace ours");
	ok(rep.ctxsw_known && rep.acct.ctxsw == 99, "protocol 2: context switches are exact");
	figures_free(&f);

	nt.whole = false;
	nt.peak_ago = 50;	/* before the start: clamped */
	start(&f, &rep);
	fill_in(&in);
	in.outer = &nt;
	in.outer_answered = 10;
	figures_fill(&f, &in, 10, true);
	ok(rep.value[TP_RES_CPU_TIME] == 6 && rep.acct.ctxsw == 11 && !rep.ctxsw_known,
	   "protocol 1: only cpu and bytes come from the outer");
	ok(rep.value[TP_RES_MAX_CONCURRENT_PROCESSES] == 3, "protocol 1: no outer peak");
	figures_free(&f);

	nt.whole = true;
	start(&f, &rep);
	fill_in(&in);
	in.outer = &nt;
	in.outer_answered = 10;
	figures_fill(&f, &in, 10, true);
	ok(rep.peak_time[TP_RES_MAX_CONCURRENT_PROCESSES] == 0,
	   "an outer peak before the start is placed at 0");
	figures_free(&f);
}

static void net_gpu(void)
{
	struct tp_figures f;
	struct tp_summary rep;
	struct tp_fill in;
	struct tp_gpu_figures g;

	start(&f, &rep);
	fill_in(&in);
	figures_net(&f, 1000000, 0, 0.5);	/* one point: no window yet */
	ok(rep.known[TP_RES_BANDWIDTH] && rep.peak_time[TP_RES_BANDWIDTH] == -1 &&
	   !f.cur_known[TP_RES_BANDWIDTH], "bandwidth 0 until a window is full");
	in.net_known = true;
	in.net_sent = 1000000;
	in.net_recv = 1000000;
	memset(&g, 0, sizeof(g));
	g.devices_used = 2;
	g.memory_mb = 100;
	g.peak_memory_mb = 300;
	g.peak_cores = 0.1;
	g.gpu_seconds = 4;
	g.util_known = true;
	in.gpu = &g;
	figures_fill(&f, &in, 2, true);
	is_double(rep.value[TP_RES_BYTES_SENT], 1e6 / MiB, 1e-12, "bytes_sent in MiB");
	is_double(rep.value[TP_RES_BANDWIDTH], 8, 1e-12,
		  "no full window: bandwidth is the average, 16 Mbit over 2 s");
	ok(rep.gpu_known && rep.value[TP_RES_GPUS] == 2 && rep.value[TP_RES_GPU_MEMORY] == 300,
	   "GPUs: devices used, and the accounting's peak memory");
	is_double(rep.gpu_cores_avg, 2, 1e-12, "gpu_cores_avg is GPU-seconds over t");
	is_double(rep.gpu_cores, 2, 1e-12, "an average above the peak replaces it");
	is_double(f.cur[TP_RES_GPU_MEMORY], 100, 0, "GPU memory now, for the series");
	figures_free(&f);
}

static void cgroup(void)
{
	struct tp_figures f;
	struct tp_summary rep;
	struct tp_fill in;
	struct tp_cg_figures cg;

	memset(&cg, 0, sizeof(cg));
	cg.known = TP_CGF_CPU | TP_CGF_IO;
	cg.usage_usec = 5000000;	/* 5 s: more than the tree's 3 */
	cg.rbytes = (uint64_t)(9 * MiB);
	start(&f, &rep);
	fill_in(&in);
	in.cgroup = &cg;
	figures_fill(&f, &in, 10, true);
	ok(rep.value[TP_RES_CPU_TIME] == 5 && rep.value[TP_RES_BYTES_READ] == 5,
	   "cgroup: its larger cpu.stat time counts, its io.stat bytes not without --tracking=cgroup");
	figures_free(&f);
	start(&f, &rep);
	fill_in(&in);
	in.cgroup = &cg;
	in.cgroup_io = true;
	in.tracking = TP_TRACK_CGROUP;
	figures_fill(&f, &in, 10, true);
	ok(rep.value[TP_RES_BYTES_READ] == 9 && rep.tracking == TP_TRACK_CGROUP && rep.cgf.usage_usec == 5000000,
	   "--tracking=cgroup: io.stat's larger bytes count; the figures are kept");
	figures_free(&f);
	/* events ordered fork-before-exit made a peak of 3; pids.peak 2 */
	cg.known |= TP_CGF_PIDS_PEAK;
	cg.pids_peak = 2;
	start(&f, &rep);
	fill_in(&in);
	in.cgroup = &cg;
	in.tracking = TP_TRACK_CGROUP;
	figures_fill(&f, &in, 10, true);
	ok(rep.value[TP_RES_MAX_CONCURRENT_PROCESSES] == 2,
	   "--tracking=cgroup: the events' peak (3) above pids.peak (2) is pids.peak");
	figures_free(&f);
	start(&f, &rep);
	fill_in(&in);
	in.cgroup = &cg;
	figures_fill(&f, &in, 10, true);
	ok(rep.value[TP_RES_MAX_CONCURRENT_PROCESSES] == 3,
	   "ptrace in a cgroup: pids.peak does not cap the tracer's peak (a process may leave the cgroup)");
	figures_free(&f);
}

static void exits(void)
{
	struct tp_figures f;
	struct tp_summary rep;

	start(&f, &rep);
	figures_exit(&f, true, 3 << 8);
	ok(rep.exit_status == 3 && rep.exit_type == TP_EXIT_TYPE_NORMAL, "exit 3: status 3, normal");
	figures_free(&f);
	start(&f, &rep);
	figures_exit(&f, true, SIGKILL);
	ok(rep.signal == SIGKILL && rep.exit_status == 128 + SIGKILL &&
	   rep.exit_type == TP_EXIT_TYPE_SIGNAL, "killed: 128 + signal, exit type signal");
	figures_free(&f);
	start(&f, &rep);
	rep.exit_type = TP_EXIT_TYPE_LIMITS;
	figures_exit(&f, true, SIGTERM);
	ok(rep.exit_type == TP_EXIT_TYPE_LIMITS, "killed for a limit: exit type stays limits");
	figures_free(&f);
	start(&f, &rep);
	figures_exit(&f, false, 0);
	ok(rep.exit_unknown, "--pid left running: exit unknown");
	figures_free(&f);
}

static void snapshots(void)
{
	struct tp_figures f;
	struct tp_summary rep;
	const struct tp_snapshot *s;
	char *label = strdup("a(1)");

	start(&f, &rep);
	rep.start = 100;
	figures_peak(&f, TP_RES_MEMORY, 50, 1);
	figures_peak(&f, TP_RES_CPU_TIME, 2, 1);
	s = figures_snapshot(&f, 4, label);
	ok(rep.nsnapshots == 1 && s == &rep.snapshots[0], "one snapshot recorded");
	ok(s->start == 100 && s->end == 104 && s->value[TP_RES_WALL_TIME] == 4,
	   "it covers the start to t");
	ok(s->value[TP_RES_MEMORY] == 50 && s->known[TP_RES_MEMORY], "its memory peak");
	figures_peak(&f, TP_RES_MEMORY, 20, 5);
	figures_peak(&f, TP_RES_CPU_TIME, 3, 5);
	s = figures_snapshot(&f, 6, strdup("b(1)"));
	ok(s->start == 104 && s->value[TP_RES_MEMORY] == 20,
	   "the next one's memory is its own peak (20), not the run's (50)");
	ok(s->value[TP_RES_CPU_TIME] == 3, "cpu_time is the total so far");
	figures_summary_free(&rep);
	ok(rep.nsnapshots == 0 && !rep.snapshots, "figures_summary_free() empties the report");
	figures_free(&f);
}

int main(void)
{
	plan(49);
	totals();
	poll_cpu_and_short_task();
	memory();
	outer();
	net_gpu();
	cgroup();
	exits();
	snapshots();
	return done();
}
