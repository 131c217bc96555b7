/* SPDX-License-Identifier: MIT */
/* figures.c: the run's figures (see figures.h): peaks, current values,
 * totals, snapshots and the rules that make the report of them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "basic/compat.h"
#include "basic/messages.h"
#include "measure/figures.h"
#include "basic/xmalloc.h"

void figures_init(struct tp_figures *f, struct tp_summary *rep, double ref_cores,
		  bool cctools_cores)
{
	memset(f, 0, sizeof(*f));
	memset(rep, 0, sizeof(*rep));
	f->rep = rep;
	f->cctools_cores = cctools_cores;
	rep->stopped_at = -1;
	utilization_init(&f->usage, ref_cores);
}

void figures_free(struct tp_figures *f)
{
	utilization_free(&f->usage);
}

/* The current snapshot's peak of @r (--snapshot-events). */
static void snap_peak(struct tp_figures *f, enum tp_res r, double v)
{
	if (!f->snap_known[r] || v > f->snap_value[r])
		f->snap_value[r] = v;
	f->snap_known[r] = true;
}

void figures_peak(struct tp_figures *f, enum tp_res r, double v, double t)
{
	struct tp_summary *rep = f->rep;

	/* (the tree's max_live is a peak since the start: a snapshot's
	 * count of processes comes from figures_born() and the samples) */
	if (r != TP_RES_MAX_CONCURRENT_PROCESSES)
		snap_peak(f, r, v);
	f->cur[r] = v;
	f->cur_known[r] = true;
	if (!rep->known[r] || v > rep->value[r]) {
		rep->value[r] = v;
		rep->peak_time[r] = t;
	}
	rep->known[r] = true;
}

void figures_born(struct tp_figures *f, unsigned nlive, unsigned long total)
{
	f->cur[TP_RES_MAX_CONCURRENT_PROCESSES] = nlive;
	snap_peak(f, TP_RES_MAX_CONCURRENT_PROCESSES, nlive);
	f->cur[TP_RES_TOTAL_PROCESSES] = (double)total;
	f->cur_known[TP_RES_MAX_CONCURRENT_PROCESSES] = true;
	f->cur_known[TP_RES_TOTAL_PROCESSES] = true;
}

void figures_note_hwm(struct tp_figures *f, uint64_t hwm_kb, double t)
{
	struct tp_summary *rep = f->rep;
	double mb = (double)hwm_kb / 1024.0;

	if (!rep->known[TP_RES_MEMORY] || mb > rep->value[TP_RES_MEMORY]) {
		rep->value[TP_RES_MEMORY] = mb;
		rep->peak_time[TP_RES_MEMORY] = t;
		rep->known[TP_RES_MEMORY] = true;
	}
}

static void update_cores(struct tp_figures *f, double t, double cpu)
{
	double cores;

	ratewin_add(&f->cpuwin, t, cpu);
	if (ratewin_rate(&f->cpuwin, TP_CORES_PEAK_WINDOW, &cores))
		figures_peak(f, TP_RES_CORES, cores, t);
	if (f->cctools_cores) {
		/* resource_monitor's judgement, which the engines expect */
		f->cur[TP_RES_CORES] = ratewin_cctools_cores(&f->cpuwin_slow, t, cpu);
		f->cur_known[TP_RES_CORES] = true;
		return;
	}
	/* the limit is judged on a longer window, so a burst is no violation */
	if (ratewin_rate(&f->cpuwin, TP_CORES_LIMIT_WINDOW, &cores)) {
		f->cur[TP_RES_CORES] = cores;
		f->cur_known[TP_RES_CORES] = true;
	} else {
		f->cur_known[TP_RES_CORES] = false;
	}
}

bool figures_now(const struct tp_figures *f, int k, double *v)
{
	const struct tp_summary *rep = f->rep;
	bool res = k >= 0 && k < TP_RES__COUNT;

	*v = res ? f->cur[k] : 0;
	switch (k) {
	case TP_RES_CORES:		/* as resource_monitor's lines: from the first */
		return true;
	case TP_RES_BANDWIDTH:		/* a rate once its window is full */
		return rep->known[k] && f->cur_known[k];
	case TP_FIG_MACHINE_LOAD:
		*v = rep->machine_load;
		return rep->load_known;
	case TP_FIG_GPU_CORES:
		*v = rep->gpu_cores_now;
		return rep->known[TP_RES_GPUS];
	default:
		return res && rep->known[k];
	}
}

void figures_sample(struct tp_figures *f, const struct tp_sample *s, unsigned max_live,
		    unsigned long total, bool fit_memory, bool load_known, double load)
{
	struct tp_summary *rep = f->rep;
	double t = s->t;
	double cpu = s->cpu_s > f->reaped_cpu ? s->cpu_s : f->reaped_cpu;

	figures_peak(f, TP_RES_WALL_TIME, t, t);
	figures_peak(f, TP_RES_CPU_TIME, cpu, t);
	figures_peak(f, TP_RES_MEMORY, s->rss_mb, t);
	figures_peak(f, TP_RES_VIRTUAL_MEMORY, s->vm_mb, t);
	figures_peak(f, TP_RES_SWAP_MEMORY, s->swap_mb, t);
	figures_peak(f, TP_RES_BYTES_READ, (double)s->acct.io.read_bytes / 1048576.0, t);
	figures_peak(f, TP_RES_BYTES_WRITTEN, (double)s->acct.io.write_bytes / 1048576.0, t);
	figures_peak(f, TP_RES_MAX_CONCURRENT_PROCESSES, (double)max_live, t);
	figures_peak(f, TP_RES_TOTAL_PROCESSES, (double)total, t);
	f->cur[TP_RES_MAX_CONCURRENT_PROCESSES] = (double)s->nprocs;
	if (s->stat_threads > f->threads_sampled)
		f->threads_sampled = s->stat_threads;
	snap_peak(f, TP_RES_MAX_CONCURRENT_PROCESSES, (double)s->nprocs);
	debug_msg("sample t=%.3f procs=%u rss=%.1f pss=%.1f stable=%d", s->t, s->nprocs,
		  s->rss_mb, s->pss_mb, (int)s->pss_stable);
	if (s->nprocs > 0 && s->pss_stable) {
		rep->pss_known = true;
		if (s->pss_mb > rep->memory_pss)
			rep->memory_pss = s->pss_mb;
	} else if (s->nprocs > 0 && s->pss_mb > f->pss_unstable) {
		f->pss_unstable = s->pss_mb;	/* used only if nothing better comes */
	}
	rep->acct = s->acct;
	/* the fit is of the task's memory, not of its teardown */
	utilization_add(&f->usage, t, cpu, s->rss_mb, s->exiting == 0 && s->nprocs > 0 && fit_memory);
	update_cores(f, t, cpu);
	if (load_known && (!rep->load_known || load > rep->machine_load)) {
		rep->machine_load = load;
		rep->load_known = true;
	}
}

/* The tree's TCP traffic so far; bandwidth is the rate over the newest
 * span of at least TP_CORES_PEAK_WINDOW s, and for the limit
 * TP_CORES_LIMIT_WINDOW s, as for cores. */
void figures_net(struct tp_figures *f, uint64_t sent, uint64_t recv, double t)
{
	double mbps = 0;

	figures_peak(f, TP_RES_BYTES_SENT, (double)sent / 1048576.0, t);
	figures_peak(f, TP_RES_BYTES_RECEIVED, (double)recv / 1048576.0, t);
	ratewin_add(&f->netwin, t, (double)(sent + recv) * 8 / 1e6);
	if (ratewin_rate(&f->netwin, TP_CORES_PEAK_WINDOW, &mbps))
		figures_peak(f, TP_RES_BANDWIDTH, mbps, t);
	f->cur_known[TP_RES_BANDWIDTH] = ratewin_rate(&f->netwin, TP_CORES_LIMIT_WINDOW, &mbps);
	f->cur[TP_RES_BANDWIDTH] = mbps;
	if (!f->rep->known[TP_RES_BANDWIDTH]) {
		f->rep->known[TP_RES_BANDWIDTH] = true;	/* 0 until a window is full */
		f->rep->peak_time[TP_RES_BANDWIDTH] = -1;
	}
}

/* The tree's GPUs: distinct devices used, GPU memory now (the limit) and
 * at its peak, SM utilization. */
void figures_gpu(struct tp_figures *f, const struct tp_gpu_figures *g, double t)
{
	figures_peak(f, TP_RES_GPUS, (double)g->devices_used, t);
	figures_peak(f, TP_RES_GPU_MEMORY, g->memory_mb, t);
	f->rep->gpu_cores_now = g->cores;
}

void figures_disk(struct tp_figures *f, double mb, long files, bool partial, double t)
{
	figures_peak(f, TP_RES_DISK, mb, t);
	figures_peak(f, TP_RES_TOTAL_FILES, (double)files, t);
	if (partial)
		f->rep->disk_partial = true;	/* a peak may be a lower bound */
}

static void fill_gpu(struct tp_figures *f, const struct tp_gpu_figures *g, double t)
{
	struct tp_summary *rep = f->rep;

	rep->gpu_known = true;
	rep->known[TP_RES_GPUS] = rep->known[TP_RES_GPU_MEMORY] = true;
	if (g->devices_used > rep->value[TP_RES_GPUS]) {
		rep->value[TP_RES_GPUS] = g->devices_used;
		rep->peak_time[TP_RES_GPUS] = t;
	}
	/* a process's own peak, from its accounting record, bounds the
	 * tree's even when no sample caught it */
	if (g->peak_memory_mb > rep->value[TP_RES_GPU_MEMORY]) {
		rep->value[TP_RES_GPU_MEMORY] = g->peak_memory_mb;
		rep->peak_time[TP_RES_GPU_MEMORY] = t;
	}
	f->cur[TP_RES_GPU_MEMORY] = g->memory_mb;	/* for the series' last line */
	rep->gpu_cores_now = g->cores;
	rep->gpu_util_known = g->util_known;
	rep->gpu_cores = g->peak_cores;
	rep->gpu_time = g->gpu_seconds;
	rep->gpu_cores_avg = t > 0 ? g->gpu_seconds / t : 0;
	/* a task shorter than a sample: its average is its peak */
	if (rep->gpu_cores_avg > rep->gpu_cores)
		rep->gpu_cores = rep->gpu_cores_avg;
}

/* The enclosing tpmon saw every process of our task come and go: its
 * peak of them alive at once is exact, and when it was first reached;
 * ours is sampled (a sample may have caught the same peak later). */
static void note_outer_peak(struct tp_summary *rep, const struct tp_nest_totals *nt,
			    double answered, double t)
{
	double at = answered - nt->peak_ago, v = (double)nt->peak;
	double *own = &rep->value[TP_RES_MAX_CONCURRENT_PROCESSES];
	double *own_at = &rep->peak_time[TP_RES_MAX_CONCURRENT_PROCESSES];

	at = at < 0 ? 0 : at > t ? t : at;
	if (v > *own || (v == *own && at < *own_at)) {
		*own = v;
		*own_at = at;
	}
}

static void fill_net(struct tp_figures *f, uint64_t sent, uint64_t recv, double t)
{
	struct tp_summary *rep = f->rep;
	double avg;

	rep->value[TP_RES_BYTES_SENT] = (double)sent / 1048576.0;
	rep->value[TP_RES_BYTES_RECEIVED] = (double)recv / 1048576.0;
	rep->known[TP_RES_BYTES_SENT] = rep->known[TP_RES_BYTES_RECEIVED] = true;
	rep->peak_time[TP_RES_BYTES_SENT] = rep->peak_time[TP_RES_BYTES_RECEIVED] = t;
	/* a task shorter than the window: its average is its peak */
	avg = t > 0 ? (double)(sent + recv) * 8 / 1e6 / t : 0;
	if (!rep->known[TP_RES_BANDWIDTH] ||
	    (rep->peak_time[TP_RES_BANDWIDTH] < 0 && avg >= rep->value[TP_RES_BANDWIDTH])) {
		rep->value[TP_RES_BANDWIDTH] = avg;
		rep->known[TP_RES_BANDWIDTH] = true;
		rep->peak_time[TP_RES_BANDWIDTH] = t;
	}
	/* for the series' last line */
	f->cur[TP_RES_BYTES_SENT] = rep->value[TP_RES_BYTES_SENT];
	f->cur[TP_RES_BYTES_RECEIVED] = rep->value[TP_RES_BYTES_RECEIVED];
}

/* The kernel's figures of the task's cgroup into the report: the CPU
 * time of every process that ever ran in it (daemons and processes that
 * escaped the tracker included) when it is more than @cpu; with @io
 * (--tracking=cgroup), the bytes of io.stat too.  Returns the CPU time. */
static double take_cgroup(struct tp_summary *rep, const struct tp_cg_figures *cg, bool io,
			  struct tp_acct *a, double cpu)
{
	rep->cgf = *cg;
	if (cg->known & TP_CGF_CPU)
		debug_msg("cgroup: cpu %.6f s in cpu.stat, %.6f s tracked",
			  (double)cg->usage_usec / 1e6, cpu);
	if ((cg->known & TP_CGF_CPU) && (double)cg->usage_usec / 1e6 > cpu)
		cpu = (double)cg->usage_usec / 1e6;
	if (io && (cg->known & TP_CGF_IO)) {
		if (cg->rbytes > a->io.read_bytes)
			a->io.read_bytes = cg->rbytes;
		if (cg->wbytes > a->io.write_bytes)
			a->io.write_bytes = cg->wbytes;
	}
	return cpu;
}

/* --tracking=cgroup: the proc connector may announce a fork before the
 * exit of a child its parent already reaped (the kernel sends the exit
 * event after waking the parent: do_exit() calls exit_notify() before
 * proc_exit_connector()), so the peak of the events can count one process
 * too many.  pids.peak (6.1) counts every task the cgroup ever held at
 * once, threads and unreaped zombies included: never fewer than the live
 * processes, so the smaller of the two is still at least the truth. */
static void cap_by_pids_peak(struct tp_summary *rep, const struct tp_fill *in)
{
	const struct tp_cg_figures *cg = in->cgroup;

	if (in->tracking != TP_TRACK_CGROUP || !cg || !(cg->known & TP_CGF_PIDS_PEAK) || !cg->pids_peak)
		return;
	if (rep->known[TP_RES_MAX_CONCURRENT_PROCESSES] &&
	    rep->value[TP_RES_MAX_CONCURRENT_PROCESSES] > (double)cg->pids_peak) {
		debug_msg("cgroup: max_concurrent_processes %.0f from events, pids.peak %llu",
			  rep->value[TP_RES_MAX_CONCURRENT_PROCESSES],
			  (unsigned long long)cg->pids_peak);
		rep->value[TP_RES_MAX_CONCURRENT_PROCESSES] = (double)cg->pids_peak;
	}
}

/* Which figures are lower bounds (quality.c), from what the run knows. */
static void fill_quality(struct tp_summary *rep, const struct tp_fill *in, bool outer_whole)
{
	struct tp_quality_in q;
	const struct tp_cg_figures *cg = in->cgroup;

	q.tracked = in->tracking;
	q.counts_partial = in->processes_partial;
	q.outer_whole = outer_whole;
	/* a process that left the cgroup is in none of its files */
	q.cgroup_left = in->cgroup_left;
	q.cgroup_cpu = cg && (cg->known & TP_CGF_CPU) && !in->cgroup_left;
	q.cgroup_io = cg && in->cgroup_io && (cg->known & TP_CGF_IO) && !in->cgroup_left;
	q.net_exact = in->net_exact;
	q.exit_records = in->exit_records;
	q.disk_partial = rep->disk_partial;
	q.input_partial = rep->input.partial;
	q.gpu_sampled = drm_unreadable(in->drm) > 0 || drm_devices(in->drm, NULL, 0) > 0;
	q.dmem_read = in->dmem && dmem_known(in->dmem);
	quality_lower_bounds(&q, rep->lower);
}

/* The peak of live threads: the table's, which holds every thread when
 * the tracker sees them born (ptrace); else the samples' too. */
static void fill_threads(struct tp_figures *f, const struct tp_fill *in)
{
	struct tp_summary *rep = f->rep;
	unsigned v = in->max_threads;

	if (in->tracking != TP_TRACK_PTRACE && in->tracking != TP_TRACK_ATTACH &&
	    f->threads_sampled > v)
		v = f->threads_sampled;
	rep->max_threads = v;
	rep->threads_known = v > 0;
}

/* At the end, the enclosing tpmon that traced the task (nested.h) has
 * its exact totals: they replace @a's (all of them when it counted the
 * whole subtree), and *@total.  Before the end they miss the live
 * processes (its peak does not: note_outer_peak()).  Returns the CPU
 * time, s. */
static double take_outer(struct tp_summary *rep, const struct tp_nest_totals *nt,
			 struct tp_acct *a, unsigned long *total)
{
	if (nt->whole) {
		*a = nt->acct;
		rep->ctxsw_known = true;
	} else {
		a->cpu_ns = nt->acct.cpu_ns;
		a->io.read_bytes = nt->acct.io.read_bytes;
		a->io.write_bytes = nt->acct.io.write_bytes;
	}
	*total = (unsigned long)nt->procs;
	return (double)nt->acct.cpu_ns / 1e9;
}

/* The totals, @a, @cpu s and @total processes, which grow to the end:
 * their peak is now, @t. */
static void fill_totals(struct tp_summary *rep, const struct tp_acct *a, double cpu,
			unsigned long total, double t)
{
	static const enum tp_res cumulative[] = { TP_RES_CPU_TIME, TP_RES_BYTES_READ,
		TP_RES_BYTES_WRITTEN, TP_RES_TOTAL_PROCESSES };
	size_t i;

	rep->acct = *a;
	rep->value[TP_RES_CPU_TIME] = cpu;
	rep->value[TP_RES_BYTES_READ] = (double)a->io.read_bytes / 1048576.0;
	rep->value[TP_RES_BYTES_WRITTEN] = (double)a->io.write_bytes / 1048576.0;
	rep->value[TP_RES_TOTAL_PROCESSES] = (double)total;
	for (i = 0; i < ARRAY_SIZE(cumulative); i++) {
		rep->known[cumulative[i]] = true;
		rep->peak_time[cumulative[i]] = t;
	}
}

void figures_fill(struct tp_figures *f, const struct tp_fill *in, double t, bool final)
{
	struct tp_summary *rep = f->rep;
	const struct tp_nest_totals *nt = in->outer;
	struct tp_acct a = in->acct;
	unsigned long total = in->total_processes;
	double cpu = (double)a.cpu_ns / 1e9;

	rep->end = rep->start + t;
	figures_peak(f, TP_RES_WALL_TIME, t, t);
	if (f->reaped_cpu > cpu)
		cpu = f->reaped_cpu;
	if (nt && final)
		cpu = take_outer(rep, nt, &a, &total);
	if (in->cgroup)
		cpu = take_cgroup(rep, in->cgroup, in->cgroup_io, &a, cpu);
	fill_totals(rep, &a, cpu, total, t);
	if (!rep->known[TP_RES_MAX_CONCURRENT_PROCESSES] ||
	    rep->value[TP_RES_MAX_CONCURRENT_PROCESSES] < (double)in->max_live) {
		rep->value[TP_RES_MAX_CONCURRENT_PROCESSES] = (double)in->max_live;
		rep->known[TP_RES_MAX_CONCURRENT_PROCESSES] = true;
		rep->peak_time[TP_RES_MAX_CONCURRENT_PROCESSES] = t;
	}
	cap_by_pids_peak(rep, in);
	if (nt && nt->whole)
		note_outer_peak(rep, nt, in->outer_answered, t);
	if (in->nlive > 0)
		figures_note_hwm(f, in->live_hwm_kb, t);
	if (!rep->load_known && in->load_known) {
		rep->machine_load = in->load;
		rep->load_known = true;
	}
	if (!rep->pss_known && f->pss_unstable > 0) {
		rep->memory_pss = f->pss_unstable;
		rep->pss_known = true;
	}
	if (rep->memory_pss > rep->value[TP_RES_MEMORY])
		rep->memory_pss = rep->value[TP_RES_MEMORY];
	rep->cores_avg = t > 0 ? cpu / t : 0;
	/* the peak is the largest rate over a span of at least the window,
	 * and the whole run is such a span (or, shorter than the window, its
	 * only one): never under the mean.  The windows see the CPU time the
	 * samples saw (10 ms ticks of live processes, and the reaped ones),
	 * the mean the run's whole CPU time (the accounting's or the
	 * cgroup's), also what went before the first sample and after the
	 * last: a REPL busy only at its start had a mean of 0.01, a peak of 0 */
	if (!rep->known[TP_RES_CORES] || rep->cores_avg > rep->value[TP_RES_CORES]) {
		rep->value[TP_RES_CORES] = rep->cores_avg;
		rep->known[TP_RES_CORES] = true;
		rep->peak_time[TP_RES_CORES] = t;
	}
	if (in->net_known)
		fill_net(f, in->net_sent, in->net_recv, t);
	if (in->gpu)
		fill_gpu(f, in->gpu, t);
	rep->gpu_nvml = in->gpu_nvml;
	rep->ngpu_dev = drm_devices(in->drm, rep->gpu_dev, TP_DRM_DEVICES);
	rep->gpu_unreadable = drm_unreadable(in->drm);
	rep->dmem_known = in->dmem && dmem_known(in->dmem);
	rep->dmem_peak_mb = in->dmem ? in->dmem->peak_mb : 0;
	rep->machine_cpus = in->machine_cpus;
	utilization_figures(&f->usage, t, cpu, &rep->usage);
	rep->tracking = in->tracking;
	rep->tracking_name = in->tracking_name;
	rep->tracking_reason = in->tracking_reason;
	rep->processes_partial = in->processes_partial;
	fill_threads(f, in);
	fill_quality(rep, in, nt && final && nt->whole);
}

void figures_exit(struct tp_figures *f, bool known, int root_status)
{
	struct tp_summary *rep = f->rep;

	if (!known) {
		rep->exit_unknown = true;	/* --pid, left running */
	} else if (WIFSIGNALED(root_status)) {
		rep->signal = WTERMSIG(root_status);
		rep->exit_status = 128 + rep->signal;
		if (rep->exit_type == TP_EXIT_TYPE_NORMAL)
			rep->exit_type = TP_EXIT_TYPE_SIGNAL;
	} else {
		rep->exit_status = WEXITSTATUS(root_status);
	}
}

const struct tp_snapshot *figures_snapshot(struct tp_figures *f, double t, char *label)
{
	static const enum tp_res totals[] = { TP_RES_CPU_TIME, TP_RES_BYTES_READ,
		TP_RES_BYTES_WRITTEN, TP_RES_BYTES_RECEIVED, TP_RES_BYTES_SENT,
		TP_RES_TOTAL_PROCESSES };
	struct tp_summary *rep = f->rep;
	struct tp_snapshot *s;
	size_t i;

	rep->snapshots = xreallocarray(rep->snapshots, rep->nsnapshots + 1, sizeof(*s));
	s = &rep->snapshots[rep->nsnapshots];
	memset(s, 0, sizeof(*s));
	s->name = label;
	s->start = rep->start + f->snap_start;
	s->end = rep->start + t;
	memcpy(s->value, f->snap_value, sizeof(s->value));
	memcpy(s->known, f->snap_known, sizeof(s->known));
	for (i = 0; i < ARRAY_SIZE(totals); i++) {
		s->value[totals[i]] = rep->value[totals[i]];
		s->known[totals[i]] = rep->known[totals[i]];
	}
	s->value[TP_RES_WALL_TIME] = t - f->snap_start;
	s->known[TP_RES_WALL_TIME] = true;
	rep->nsnapshots++;
	debug_msg("snapshot %zu: %s", rep->nsnapshots, label);
	memset(f->snap_known, 0, sizeof(f->snap_known));
	f->snap_start = t;
	return s;
}

void figures_summary_free(struct tp_summary *r)
{
	size_t i;

	for (i = 0; i < r->nsnapshots; i++)
		free(r->snapshots[i].name);
	free(r->snapshots);
	r->snapshots = NULL;
	r->nsnapshots = 0;
	free(r->cgroup);
	r->cgroup = NULL;
}

/* The cgroup's own figures: its memory peak and PSI totals. */
static bool kernel_value(const struct tp_summary *r, enum tp_fig f, double *v)
{
	const struct tp_cg_figures *cg = &r->cgf;
	int psi = (int)f - TP_FIG_CPU_PRESSURE_SOME;

	if (!r->cgroup)
		return false;
	if (f == TP_FIG_MEMORY_CGROUP) {
		*v = (double)cg->mem_peak / 1048576.0;
		return cg->known & TP_CGF_MEM_PEAK;
	}
	if (f == TP_FIG_GPU_MEMORY_CGROUP) {
		*v = r->dmem_peak_mb;
		return r->dmem_known;
	}
	if (psi < 0 || psi >= TP_PSI__COUNT || !(cg->psi_known & (1u << psi)))
		return false;
	*v = (double)cg->psi[psi];
	return true;
}

bool figures_value(const struct tp_summary *r, enum tp_fig f, double *v)
{
	const struct proc_io *io = &r->acct.io;

	*v = NAN;
	if ((int)f < TP_RES__COUNT) {
		*v = r->value[f];
		return r->known[f];
	}
	switch (f) {
	case TP_FIG_MAX_CONCURRENT_THREADS: *v = r->max_threads; return r->threads_known;
	case TP_FIG_CORES_AVG: *v = r->cores_avg; return isfinite(*v);
	case TP_FIG_MEMORY_PSS: *v = r->memory_pss; return r->pss_known;
	case TP_FIG_GPU_CORES: *v = r->gpu_cores; return r->gpu_util_known;
	case TP_FIG_GPU_CORES_AVG: *v = r->gpu_cores_avg; return r->gpu_util_known;
	case TP_FIG_GPU_TIME: *v = r->gpu_time; return r->gpu_util_known;
	/* counted from schedstat at exit stops: unknown when polling,
	 * unless an enclosing tpmon counted them */
	case TP_FIG_CONTEXT_SWITCHES:
		*v = (double)r->acct.ctxsw;
		return r->tracking == TP_TRACK_PTRACE || r->tracking == TP_TRACK_ATTACH || r->ctxsw_known;
	case TP_FIG_MACHINE_CPUS: *v = (double)r->machine_cpus; return true;
	case TP_FIG_MACHINE_LOAD: *v = r->machine_load; return r->load_known;
	case TP_FIG_LEFTOVER_PROCESSES: *v = r->leftover; return true;
	case TP_FIG_RCHAR: *v = (double)io->rchar; return true;
	case TP_FIG_WCHAR: *v = (double)io->wchar; return true;
	case TP_FIG_SYSCR: *v = (double)io->syscr; return true;
	case TP_FIG_SYSCW: *v = (double)io->syscw; return true;
	case TP_FIG_READ_BYTES: *v = (double)io->read_bytes; return true;
	case TP_FIG_WRITE_BYTES: *v = (double)io->write_bytes; return true;
	case TP_FIG_INPUT_SIZE: *v = (double)r->input.bytes / 1048576.0; return r->input.known;
	case TP_FIG_INPUT_FILES: *v = (double)r->input.files; return r->input.known;
	default: return kernel_value(r, f, v);
	}
}
