/* SPDX-License-Identifier: MIT */
/* test-quality.c: which figures are lower bounds in each mode
 * (quality_lower_bounds()), and that figures_fill() hands the run's
 * knowledge to it: exact figures are never flagged, the ones a mode may
 * undercount always are. */
#include <string.h>
#include "measure/figures.h"
#include "measure/quality.h"
#include "tap.h"

/* The names of the flagged figures, comma-separated, into @buf. */
static const char *flagged(const bool *lower, char *buf, size_t len)
{
	int f;

	buf[0] = '\0';
	for (f = 0; f < TP_FIG__COUNT; f++)
		if (lower[f]) {
			if (buf[0])
				strncat(buf, ",", len - strlen(buf) - 1);
			strncat(buf, quality_fig_name((enum tp_fig)f), len - strlen(buf) - 1);
		}
	return buf;
}

static const char *rules(const struct tp_quality_in *in, char *buf, size_t len)
{
	bool lower[TP_FIG__COUNT];

	quality_lower_bounds(in, lower);
	return flagged(lower, buf, len);
}

static void names(void)
{
	int f;
	bool distinct = true;

	is_str(quality_fig_name((enum tp_fig)TP_RES_TOTAL_PROCESSES), "total_processes", "a resource's name");
	is_str(quality_fig_name(TP_FIG_MAX_CONCURRENT_THREADS), "max_concurrent_threads",
	       "a figure outside the resources");
	for (f = 1; f < TP_FIG__COUNT; f++)
		if (!quality_fig_name((enum tp_fig)f) ||
		    !strcmp(quality_fig_name((enum tp_fig)f), quality_fig_name((enum tp_fig)(f - 1))))
			distinct = false;
	ok(distinct, "every figure has a name");
}

static void modes(void)
{
	struct tp_quality_in in;
	char buf[1024];

	memset(&in, 0, sizeof(in));
	in.tracked = TP_TRACK_PTRACE;
	in.net_exact = true;
	is_str(rules(&in, buf, sizeof(buf)), "", "ptrace, every socket seen: all exact");
	in.net_exact = false;
	is_str(rules(&in, buf, sizeof(buf)), "bytes_received,bytes_sent,bandwidth",
	       "ptrace, a socket missed (no pidfd_getfd): the network only");
	in.disk_partial = true;
	is_str(rules(&in, buf, sizeof(buf)), "disk,total_files,bytes_received,bytes_sent,bandwidth",
	       "a disk walk that could not read everything");
	in.disk_partial = false;
	in.net_exact = true;
	in.dmem_read = true;
	is_str(rules(&in, buf, sizeof(buf)), "gpu_memory_cgroup",
	       "dmem.current read: its peak, only at samples, whatever the mode");
	in.dmem_read = false;
	in.gpu_sampled = true;
	is_str(rules(&in, buf, sizeof(buf)), "gpus,gpu_memory,gpu_cores,gpu_cores_avg,gpu_time",
	       "GPU figures from DRM fdinfo: only samples see a client");

	memset(&in, 0, sizeof(in));
	in.tracked = TP_TRACK_ATTACH;
	is_str(rules(&in, buf, sizeof(buf)), "bytes_received,bytes_sent,bandwidth",
	       "--pid: traced from the attach, no connect stops: the network");
	in.counts_partial = true;
	is_str(rules(&in, buf, sizeof(buf)),
	       "bytes_received,bytes_sent,bandwidth,gpus,gpu_memory,max_concurrent_processes,"
	       "total_processes,gpu_cores,gpu_cores_avg,gpu_time",
	       "--pid on a tree that outran the scans: the counts too");

	memset(&in, 0, sizeof(in));
	in.tracked = TP_TRACK_POLL;
	is_str(rules(&in, buf, sizeof(buf)),
	       "cpu_time,memory,virtual_memory,swap_memory,bytes_read,bytes_written,"
	       "bytes_received,bytes_sent,bandwidth,gpus,gpu_memory,cores,"
	       "max_concurrent_processes,total_processes,cores_avg,memory_pss,gpu_cores,"
	       "gpu_cores_avg,gpu_time,rchar,wchar,syscr,syscw,read_bytes,write_bytes,"
	       "max_concurrent_threads", "poll: everything but wall_time, disk");
	in.cgroup_cpu = in.cgroup_io = true;
	is_str(rules(&in, buf, sizeof(buf)),
	       "memory,virtual_memory,swap_memory,bytes_written,bytes_received,bytes_sent,"
	       "bandwidth,gpus,gpu_memory,cores,max_concurrent_processes,total_processes,"
	       "memory_pss,gpu_cores,gpu_cores_avg,gpu_time,rchar,wchar,syscr,syscw,write_bytes,"
	       "max_concurrent_threads",
	       "poll in a cgroup: cpu.stat and io.stat make CPU and reads exact, not writes");
	in.cgroup_cpu = in.cgroup_io = false;
	in.outer_whole = true;
	is_str(rules(&in, buf, sizeof(buf)),
	       "memory,virtual_memory,swap_memory,bytes_received,bytes_sent,bandwidth,gpus,"
	       "gpu_memory,cores,memory_pss,gpu_cores,gpu_cores_avg,gpu_time,"
	       "max_concurrent_threads",
	       "poll inside a tracing tpmon: its totals are exact, the peaks are sampled");
	in.outer_whole = false;
	in.exit_records = true;
	is_str(rules(&in, buf, sizeof(buf)),
	       "memory,virtual_memory,swap_memory,bytes_received,bytes_sent,bandwidth,cores,"
	       "memory_pss,syscr,syscw,max_concurrent_threads",
	       "poll as root with the kernel's records: counts, CPU, I/O and GPU exact");

	memset(&in, 0, sizeof(in));
	in.tracked = TP_TRACK_CGROUP;
	in.cgroup_cpu = true;
	is_str(rules(&in, buf, sizeof(buf)),
	       "memory,virtual_memory,swap_memory,bytes_read,bytes_written,bytes_received,"
	       "bytes_sent,bandwidth,cores,memory_pss,rchar,wchar,syscr,syscw,read_bytes,"
	       "write_bytes,max_concurrent_threads",
	       "cgroup as root (connector): counts and CPU exact, no io.stat");
	in.exit_records = true;
	is_str(rules(&in, buf, sizeof(buf)),
	       "memory,virtual_memory,swap_memory,bytes_received,bytes_sent,bandwidth,cores,"
	       "memory_pss,syscr,syscw,max_concurrent_threads",
	       "cgroup as root with every exit record: the reads, writes and chars exact too");
	in.exit_records = false;
	in.counts_partial = true;
	in.cgroup_io = true;
	is_str(rules(&in, buf, sizeof(buf)),
	       "memory,virtual_memory,swap_memory,bytes_written,bytes_received,bytes_sent,"
	       "bandwidth,gpus,gpu_memory,cores,max_concurrent_processes,total_processes,"
	       "memory_pss,gpu_cores,gpu_cores_avg,gpu_time,rchar,wchar,syscr,syscw,write_bytes,"
	       "max_concurrent_threads",
	       "cgroup unprivileged with io.stat: the counts too, not CPU or reads");
}

static void fill_base(struct tp_fill *in)
{
	memset(in, 0, sizeof(*in));
	in->total_processes = 4;
	in->max_live = 2;
	in->max_threads = 3;
	in->net_known = true;
}

/* figures_fill() passes the mode, the cgroup's answers and net's verdict. */
static void through_fill(void)
{
	struct tp_figures f;
	struct tp_summary rep;
	struct tp_cg_figures cg;
	struct tp_fill in;
	char buf[1024];

	figures_init(&f, &rep, 2, false);
	fill_base(&in);
	in.tracking = TP_TRACK_PTRACE;
	in.net_exact = true;
	figures_fill(&f, &in, 1, true);
	is_str(flagged(rep.lower, buf, sizeof(buf)), "", "fill: ptrace, exact network");
	ok(rep.threads_known && rep.max_threads == 3, "fill: the table's thread peak");
	figures_free(&f);

	figures_init(&f, &rep, 2, false);
	fill_base(&in);
	in.tracking = TP_TRACK_ATTACH;
	figures_fill(&f, &in, 1, true);
	is_str(flagged(rep.lower, buf, sizeof(buf)), "bytes_received,bytes_sent,bandwidth",
	       "fill: --pid");
	figures_free(&f);

	figures_init(&f, &rep, 2, false);
	fill_base(&in);
	memset(&cg, 0, sizeof(cg));
	cg.known = TP_CGF_CPU | TP_CGF_IO;
	in.cgroup = &cg;
	in.cgroup_io = true;
	in.tracking = TP_TRACK_CGROUP;
	in.processes_partial = true;
	figures_fill(&f, &in, 1, true);
	ok(!rep.lower[TP_RES_CPU_TIME] && !rep.lower[TP_RES_BYTES_READ] &&
	   rep.lower[TP_RES_BYTES_WRITTEN] && rep.lower[TP_RES_TOTAL_PROCESSES] &&
	   rep.lower[TP_RES_MEMORY],
	   "fill: unprivileged cgroup: cpu.stat and io.stat's reads exact, writes, counts and memory not");
	figures_free(&f);

	figures_init(&f, &rep, 2, false);
	fill_base(&in);
	in.cgroup = &cg;
	cg.known = TP_CGF_CPU;		/* no io controller */
	in.cgroup_io = true;
	figures_fill(&f, &in, 1, true);
	ok(!rep.lower[TP_RES_CPU_TIME] && rep.lower[TP_RES_BYTES_READ] &&
	   rep.lower[TP_RES_TOTAL_PROCESSES],
	   "fill: poll in a cgroup without io.stat: reads stay a lower bound");
	figures_free(&f);

	/* cgroup as root with every exit record: run.c passes no io.stat
	 * (cgroup_io false), so its writeback bytes do not replace the
	 * records' */
	figures_init(&f, &rep, 2, false);
	fill_base(&in);
	in.acct.io.write_bytes = 3 << 20;
	in.acct.io.wchar = 3 << 20;
	cg.known = TP_CGF_CPU | TP_CGF_IO;
	cg.wbytes = 5 << 20;
	in.cgroup = &cg;
	in.tracking = TP_TRACK_CGROUP;
	in.exit_records = true;
	figures_fill(&f, &in, 1, true);
	ok(!rep.lower[TP_RES_BYTES_WRITTEN] && !rep.lower[TP_RES_BYTES_READ] &&
	   !rep.lower[TP_FIG_WCHAR] && !rep.lower[TP_RES_TOTAL_PROCESSES] &&
	   rep.value[TP_RES_BYTES_WRITTEN] == 3.0,
	   "fill: cgroup as root with every exit record: the records' 3 MiB written, exact");
	in.exit_records = false;
	figures_fill(&f, &in, 1, true);
	ok(rep.lower[TP_RES_BYTES_WRITTEN] && rep.lower[TP_FIG_WCHAR],
	   "fill: cgroup as root, a record lost: the writes are lower bounds");
	figures_free(&f);
}

/* Poll mode: the samples' thread counts (from stat) beat the table's. */
static void threads_sampled(void)
{
	struct tp_figures f;
	struct tp_summary rep;
	struct tp_sample s;
	struct tp_fill in;

	figures_init(&f, &rep, 2, false);
	memset(&s, 0, sizeof(s));
	s.t = 0.5;
	s.nprocs = 1;
	s.stat_threads = 40;
	figures_sample(&f, &s, 1, 1, true, false, 0);
	s.t = 1;
	s.stat_threads = 2;
	figures_sample(&f, &s, 1, 1, true, false, 0);
	fill_base(&in);
	in.max_threads = 1;
	figures_fill(&f, &in, 1.5, true);
	ok(rep.threads_known && rep.max_threads == 40 && rep.lower[TP_FIG_MAX_CONCURRENT_THREADS],
	   "poll: the largest sampled count (40), a lower bound");
	figures_free(&f);

	figures_init(&f, &rep, 2, false);
	figures_sample(&f, &s, 1, 1, true, false, 0);
	fill_base(&in);
	in.tracking = TP_TRACK_PTRACE;
	in.max_threads = 7;
	figures_fill(&f, &in, 1.5, true);
	ok(rep.max_threads == 7 && !rep.lower[TP_FIG_MAX_CONCURRENT_THREADS],
	   "ptrace: the table's count, exact");
	figures_free(&f);
}

int main(void)
{
	plan(26);
	names();
	modes();
	through_fill();
	threads_sampled();
	return done();
}
