/* SPDX-License-Identifier: MIT */
/* sampler.c: reads live processes from /proc.  Per process and sample it
 * costs one pread() of a cached /proc/PID/schedstat descriptor when the
 * process did not run since the last sample, else one more of a cached
 * /proc/PID/stat; io and smaps_rollup are re-read only when the process
 * ran or changed size. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/clock.h"
#include "basic/figtable.h"
#include "basic/messages.h"
#include "measure/sampler.h"
#include "basic/xmalloc.h"

/* Descriptors kept open per process: stat (read at every sample it ran),
 * schedstat (the cheap test of whether it ran) and io (read at its end).
 * They share sm->fd_budget, stat first: schedstat may take up to two
 * thirds of it, io up to one third.  Beyond, files are opened and closed
 * at each read, so a tree larger than the budget costs more but loses
 * nothing (it used to lose the memory of every process it could not
 * open a descriptor for). */
enum cache_rank { CACHE_STAT = 3, CACHE_SCHED = 2, CACHE_STATM = 2, CACHE_IO = 1 };

static int cache_open(struct tp_sampler *sm, pid_t pid, const char *file, enum cache_rank rank)
{
	char path[32];
	int fd;

	if ((unsigned long)sm->cached_fds * 3 >= (unsigned long)sm->fd_budget * rank) {
		errno = EMFILE;
		return -1;
	}
	snprintf(path, sizeof(path), "%d/%s", (int)pid, file);
	fd = proc_open(path);
	if (fd >= 0)
		sm->cached_fds++;
	return fd;
}

static int read_stat_cached(struct tp_sampler *sm, struct tp_proc *p, struct proc_stat *st)
{
	char buf[1024];

	if (p->stat_fd < 0)
		p->stat_fd = cache_open(sm, p->pid, "stat", CACHE_STAT);
	if (p->stat_fd < 0)
		return proc_read_stat(p->pid, st);
	if (proc_pread(p->stat_fd, buf, sizeof(buf)) <= 0)
		return -1;
	return proc_stat_parse(buf, st);
}

static int pread_schedstat(int fd, struct proc_schedstat *ss)
{
	char buf[128];

	if (proc_pread(fd, buf, sizeof(buf)) <= 0)
		return -1;
	return proc_schedstat_parse(buf, ss);
}

static uint64_t stat_rss_kb(const struct proc_stat *st)
{
	return st->rss * (uint64_t)proc_page_size() / 1024;
}

static int read_proc_io(struct tp_proc *p, struct proc_io *io)
{
	char buf[512];

	if (p->io_fd < 0)
		return proc_read_io(p->pid, io);
	if (proc_pread(p->io_fd, buf, sizeof(buf)) <= 0)
		return -1;
	return proc_io_parse(buf, io);
}

/* I/O of @p's own threads, live and exited.  /proc/PID/io also holds the
 * I/O of every child the process has reaped, which is counted with the
 * child (a child writing 100 MB made 200), so it serves only a process
 * that never had a child nor a second thread; others are read thread by
 * thread. */
static void refresh_io(struct tp_proc *p)
{
	struct proc_io io = p->exited.io, one;
	pid_t self = p->pid, *tids = &self;
	size_t n = 1, i, got = 0;

	if (ptree_proc_is_leaf(p)) {
		if (read_proc_io(p, &one) == 0)
			p->sampled.io = one;
		return;
	}
	if (!p->single)
		n = proc_list_tasks(p->pid, &tids);
	for (i = 0; i < n; i++)
		if (proc_read_thread_io(p->pid, tids[i], &one) == 0) {
			proc_io_add(&io, &one);
			got++;
		}
	if (tids != &self)
		free(tids);
	if (got > 0)
		p->sampled.io = io;
}

static void refresh_rollup(struct tp_proc *p)
{
	struct proc_rollup r;

	/* no rollup: the process is exiting and its memory is gone (or is
	 * going); keeping the last figures would count freed pages */
	if (proc_read_rollup(p->pid, &r) < 0) {
		p->pss_kb = p->swap_kb = 0;
		return;
	}
	if (r.pss_kb >= 0)
		p->pss_kb = (uint64_t)r.pss_kb;
	if (r.swap_kb >= 0)
		p->swap_kb = (uint64_t)r.swap_kb;
}

/* Longest time a process that did not run keeps its last stat figures:
 * asleep, its RSS can still shrink (reclaim) or move to swap. */
#define STAT_REFRESH 5.0

#define SCHED_NONE (-2)		/* sched_fd: this kernel has no schedstat */

/* @p's leader thread's run stamp, from its cached schedstat: its time on
 * the CPU plus the times it was scheduled in.  Both only grow, so the
 * stamp is unchanged exactly when neither moved.  The time alone is not
 * enough: the kernel adds to it at ticks and when the thread leaves the
 * CPU, so a thread scheduled in a moment ago shows the old time while it
 * runs (a child faulting in shared pages kept its PSS share of before).
 * False when there is none (no schedstat in this kernel, scheduler
 * statistics off: "0 0 0", or no budget left). */
static bool leader_run_stamp(struct tp_sampler *sm, struct tp_proc *p, uint64_t *stamp)
{
	struct proc_schedstat ss;

	if (p->sched_fd == SCHED_NONE)
		return false;
	if (p->sched_fd < 0) {
		p->sched_fd = cache_open(sm, p->pid, "schedstat", CACHE_SCHED);
		if (p->sched_fd < 0) {
			if (errno != EMFILE && errno != ENFILE)
				p->sched_fd = SCHED_NONE;
			return false;
		}
	}
	if (pread_schedstat(p->sched_fd, &ss) < 0 || (ss.run_ns == 0 && ss.timeslices == 0))
		return false;
	*stamp = ss.run_ns + ss.timeslices;
	return true;
}

/* Has single-threaded @p been off the CPU since its last stat read?  Then
 * its stat holds nothing new, as nothing in it grows without running, and
 * schedstat's three numbers cost a quarter of stat's 52.  (A process with
 * several threads, or one that was on the CPU or waiting for it at that
 * read, always counts as having run: sample_proc() keeps no stamp.) */
static bool idle_since_stat(struct tp_sampler *sm, struct tp_proc *p)
{
	uint64_t run_stamp;

	return p->single && leader_run_stamp(sm, p, &run_stamp) && run_stamp == p->run_stamp;
}

/* Refresh one process from its stat; returns -1 when it could not be read
 * (gone), 1 when its memory layout changed since the last sample, else 0. */
static int sample_proc(struct tp_sampler *sm, struct tp_proc *p, double now)
{
	struct proc_stat st;
	uint64_t cpu_ns, key, run_stamp = 0;
	long ticks = proc_clock_ticks();
	/* schedstat before stat: a run between the two reads shows next time;
	 * only a single-threaded process can be told idle from it */
	bool have_run = p->single && leader_run_stamp(sm, p, &run_stamp);

	if (have_run && run_stamp == p->run_stamp && p->rollup_key && now - p->stat_at < STAT_REFRESH)
		return 0;	/* off the CPU since: nothing in stat has grown */
	if (read_stat_cached(sm, p, &st) < 0)
		return -1;
	p->stat_at = now;
	if (st.state == 'Z' || st.state == 'X' || (st.flags & PROC_PF_EXITING))
		sm->exiting++;
	p->single = st.num_threads == 1;
	p->stat_threads = st.num_threads > 0 ? (unsigned)st.num_threads : 1;
	if (p->life && st.num_threads > (long)p->life->threads_peak)
		p->life->threads_peak = (unsigned)st.num_threads;
	/* a thread running at the read goes on without a new timeslice,
	 * and its time may not move before the next tick */
	p->run_stamp = have_run && st.state != 'R' ? run_stamp : UINT64_MAX;
	if (!p->starttime)
		p->starttime = st.starttime;
	if (p->life) {
		memcpy(p->life->comm, st.comm, sizeof(p->life->comm) - 1);
		p->life->comm[sizeof(p->life->comm) - 1] = '\0';
	}
	cpu_ns = (st.utime + st.stime) * (1000000000ull / (uint64_t)ticks);
	/* a process that did not run did no I/O either */
	if (cpu_ns != p->sampled.cpu_ns || !p->rollup_key)
		refresh_io(p);
	p->sampled.cpu_ns = cpu_ns;
	p->rss_kb = stat_rss_kb(&st);
	p->vm_kb = st.vsize / 1024;
	if (p->rss_kb > p->hwm_kb)
		p->hwm_kb = p->rss_kb;
	key = (st.rss ^ (st.vsize << 1)) | 1;
	if (key == p->rollup_key)
		return 0;
	p->rollup_key = key;
	return 1;
}

/* The tree's memory layout: when it changes, pages may have become shared
 * or private in any process, so every PSS figure is re-read. */
static uint64_t layout_key(const struct tp_sampler *sm)
{
	const struct tp_proc *p;
	uint64_t k = sm->tree->nlive;

	for (p = sm->tree->live; p; p = p->next)
		k = k * 31 + p->rss_kb;
	return k;
}

/* The layout as it is now, from fresh stat reads that update nothing. */
static uint64_t layout_now(struct tp_sampler *sm)
{
	struct tp_proc *p;
	uint64_t k = sm->tree->nlive;
	struct proc_stat st;

	for (p = sm->tree->live; p; p = p->next) {
		uint64_t rss_kb = p->rss_kb;

		if (!idle_since_stat(sm, p) && read_stat_cached(sm, p, &st) == 0)
			rss_kb = stat_rss_kb(&st);
		k = k * 31 + rss_kb;
	}
	return k;
}

/* When to re-read PSS figures once the memory layout changed.  A tree of
 * up to FULL_ROLLUP_FREE processes re-reads them at every change, so a
 * consistent (stable) PSS sum comes as soon as the layout settles.  A
 * bigger tree waits for the layout to hold still for one sample, or for
 * FULL_ROLLUP_MS ms per live process since the last full read: while
 * 1000 processes are being born, each read of smaps_rollup (12-20 us) at
 * every sample would cost more than the rest of the monitoring together,
 * and a sum read while the layout moves is not trusted anyway. */
#define FULL_ROLLUP_FREE 64
#define FULL_ROLLUP_MS 1.0

static bool full_rollup_due(const struct tp_sampler *sm, bool settled, double now)
{
	double every = FULL_ROLLUP_MS * 1e-3 * sm->tree->nlive;

	if (!sm->pss_dirty)
		return false;
	return sm->tree->nlive <= FULL_ROLLUP_FREE || settled ||
	       now - sm->full_rollup_at >= (every > 0.25 ? every : 0.25);
}

/* Has the time given to this call run out?  Checked between processes,
 * after a few, so that every call makes progress. */
#define SAMPLE_MIN_STEP 8

static bool out_of_time(const struct tp_until *u, unsigned done)
{
	if (!u || done < SAMPLE_MIN_STEP)
		return false;
	return clock_mono() >= u->mono || clock_thread_cpu() >= u->cpu;
}

/* The stat pass: every live process not yet read in this pass.  False
 * when @stop_at came first. */
static bool stat_pass(struct tp_sampler *sm, double now, const struct tp_until *stop_at)
{
	struct tp_proc *p;
	unsigned done = 0;

	for (p = sm->tree->live; p; p = p->next) {
		if (p->sample_gen == sm->sample_gen)
			continue;
		if (out_of_time(stop_at, done)) {
			sm->in_stat_pass = true;
			return false;
		}
		if (sample_proc(sm, p, now) > 0)
			p->rollup_due = true;
		p->sample_gen = sm->sample_gen;
		done++;
	}
	return true;
}

/* Add one process's sizes to @s. */
static void add_sizes(struct tp_stat_sums *s, pid_t pid, uint64_t vm_kb, uint64_t rss_kb)
{
	s->rss_kb += rss_kb;
	s->vm_kb += vm_kb;
	if (rss_kb >= s->biggest_kb) {
		s->biggest_kb = rss_kb;
		s->biggest = pid;
	}
}

/* The sizes every live process had at its last stat read. */
static void stat_sizes(const struct tp_sampler *sm, struct tp_stat_sums *s, double now)
{
	const struct tp_proc *p;

	memset(s, 0, sizeof(*s));
	for (p = sm->tree->live; p; p = p->next)
		add_sizes(s, p->pid, p->vm_kb, p->rss_kb);
	s->at = now;
}

/* End of a stat pass: its sums, for the limits that need no PSS. */
static void end_stat_pass(struct tp_sampler *sm, double now)
{
	stat_sizes(sm, &sm->sums, now);
	sm->stat_passes++;
	sm->in_stat_pass = false;
	sm->sample_gen++;	/* the next stat pass reads every process again */
}

/* The PSS pass: a full one reads every process not read in this full
 * pass yet (it may take several calls when time runs out); in a small
 * tree, the processes whose own layout changed.  Returns whether any was
 * read, and in *@done_full whether a full pass ended. */
static bool rollup_pass(struct tp_sampler *sm, bool full, const struct tp_until *stop_at, bool *done_full)
{
	bool small = sm->tree->nlive <= FULL_ROLLUP_FREE, read_any = false;
	unsigned done = 0;
	struct tp_proc *p;

	*done_full = full;
	for (p = sm->tree->live; p; p = p->next) {
		bool want = full ? p->rollup_gen != sm->rollup_gen : small && p->rollup_due;

		if (!want)
			continue;
		if (out_of_time(stop_at, done)) {
			*done_full = false;
			break;
		}
		refresh_rollup(p);
		p->rollup_due = false;
		p->rollup_gen = sm->rollup_gen;
		read_any = true;
		done++;
	}
	return read_any;
}

/* --- memory passes ---------------------------------------------------- */

/* @p's size and resident size, in kB, from its statm. */
static int read_statm(struct tp_sampler *sm, struct tp_proc *p, uint64_t *vm_kb, uint64_t *rss_kb)
{
	char buf[128];
	uint64_t size, resident, page_kb = (uint64_t)proc_page_size() / 1024;

	if (p->statm_fd < 0)
		p->statm_fd = cache_open(sm, p->pid, "statm", CACHE_STATM);
	if (p->statm_fd >= 0) {
		if (proc_pread(p->statm_fd, buf, sizeof(buf)) <= 0)
			return -1;
	} else {
		char path[32];

		snprintf(path, sizeof(path), "%d/statm", (int)p->pid);
		if (proc_read(path, buf, sizeof(buf)) <= 0)
			return -1;
	}
	if (proc_statm_parse(buf, &size, &resident) < 0)
		return -1;
	*vm_kb = size * page_kb;
	*rss_kb = resident * page_kb;
	return 0;
}

bool sampler_mem_pass(struct tp_sampler *sm, double now, const struct tp_until *stop_at)
{
	struct tp_stat_sums *s = &sm->mem_acc;
	unsigned done = 0;
	struct tp_proc *p;

	if (!sm->in_mem_pass) {
		memset(s, 0, sizeof(*s));
		sm->in_mem_pass = true;
	}
	for (p = sm->tree->live; p; p = p->next) {
		uint64_t vm_kb, rss_kb;

		if (p->mem_gen == sm->mem_gen)
			continue;
		if (out_of_time(stop_at, done))
			return false;
		p->mem_gen = sm->mem_gen;
		done++;
		if (read_statm(sm, p, &vm_kb, &rss_kb) == 0)
			add_sizes(s, p->pid, vm_kb, rss_kb);	/* else gone, its memory too */
	}
	s->at = now;
	sm->in_mem_pass = false;
	sm->mem_gen++;
	return true;
}

/* Fill @s from every live process's latest figures; @stable: whether
 * its PSS sum counts (see sampler_sample()). */
static void fill_sample(struct tp_sampler *sm, struct tp_sample *s, bool stable)
{
	struct tp_stat_sums sz;
	struct tp_proc *p;
	uint64_t pss = 0, swap = 0;

	memset(s, 0, sizeof(*s));
	stat_sizes(sm, &sz, 0);
	for (p = sm->tree->live; p; p = p->next) {
		/* PSS never exceeds RSS; the two are read at different
		 * instants, so hold the sum to that */
		pss += p->pss_kb && p->pss_kb < p->rss_kb ? p->pss_kb : p->rss_kb;
		swap += p->swap_kb;
		s->stat_threads += p->stat_threads ? p->stat_threads : 1;
	}
	s->biggest_pid = sz.biggest;
	s->rss_mb = (double)sz.rss_kb / 1024.0;
	s->pss_mb = (double)pss / 1024.0;
	s->vm_mb = (double)sz.vm_kb / 1024.0;
	s->swap_mb = (double)swap / 1024.0;
	s->pss_stable = stable;
	ptree_total_acct(sm->tree, &s->acct);
	s->cpu_s = (double)s->acct.cpu_ns / 1e9;
	s->nprocs = sm->tree->nlive;
	s->nthreads = sm->tree->nthreads;
	s->total_processes = sm->tree->total_processes;
	s->exiting = sm->exiting;
	sm->exiting = 0;		/* the next pass counts afresh */
}

bool sampler_sample(struct tp_sampler *sm, double now, const struct tp_until *stop_at, struct tp_sample *s)
{
	bool done_full, recheck = sm->pass_rollups && stop_at && stop_at->recheck > 0 &&
				  (sm->in_stat_pass || now - sm->sums.at >= stop_at->recheck);

	if (!sm->pass_rollups || recheck) {
		if (!stat_pass(sm, now, stop_at))
			return false;	/* zombies seen so far stay in sm->exiting */
		end_stat_pass(sm, now);
	}
	if (recheck) {
		/* a sample in the middle of a long full PSS pass, which goes
		 * on at the next calls: its PSS sum mixes two passes */
		fill_sample(sm, s, false);
		return true;
	}
	if (!sm->pass_rollups) {
		bool settled;

		sm->pass_layout = layout_key(sm);
		settled = sm->pass_layout == sm->layout_key;
		if (!settled)
			sm->pss_dirty = true;	/* sharing may have changed anywhere */
		sm->layout_key = sm->pass_layout;
		sm->pass_full = full_rollup_due(sm, settled, now);
		sm->pass_read_any = false;
		sm->pass_rollups = true;
	}
	/* the PSS figures of one pass belong to one sample: a full pass cut
	 * short goes on at the next call */
	if (rollup_pass(sm, sm->pass_full, stop_at, &done_full))
		sm->pass_read_any = true;
	if (sm->pass_full && !done_full)
		return false;
	sm->pass_rollups = false;
	if (sm->pass_full) {
		sm->full_rollup_at = now;
		sm->pss_dirty = false;
		sm->rollup_gen++;
	}
	/* PSS read while pages were being shared mixes before and after
	 * (a parent read alone, its children read sharing): such a sum can
	 * exceed any real one, so it only counts when every figure is fresh
	 * and the layout held still while they were read */
	fill_sample(sm, s, !sm->pss_dirty && (!sm->pass_read_any || layout_now(sm) == sm->pass_layout));
	return true;
}

void sampler_started(struct tp_sampler *sm, struct tp_proc *p)
{
	if (p->io_fd < 0)
		p->io_fd = cache_open(sm, p->pid, "io", CACHE_IO);
}

void sampler_read_final(struct tp_proc *p, pid_t tid, bool leaf, struct tp_acct *a)
{
	struct proc_schedstat ss;

	memset(a, 0, sizeof(*a));
	if (leaf) {
		if (read_proc_io(p, &a->io) < 0)
			memset(&a->io, 0, sizeof(a->io));
		return;
	}
	/* the leader's schedstat is often open already: a zombie's /proc
	 * files stay readable through descriptors opened while it lived */
	if ((tid == p->pid && p->sched_fd >= 0 && pread_schedstat(p->sched_fd, &ss) == 0) ||
	    proc_read_thread_schedstat(p->pid, tid, &ss) == 0) {
		a->cpu_ns = ss.run_ns;
		a->ctxsw = ss.timeslices;
	}
	if (proc_read_thread_io(p->pid, tid, &a->io) < 0)
		memset(&a->io, 0, sizeof(a->io));
}

/* born during a full PSS pass: not in it (the sample counts its RSS
 * instead), or a tree that grows would keep the pass from ending */
static void proc_added(void *arg, struct tp_proc *p)
{
	struct tp_sampler *sm = arg;

	if (sm->pass_rollups && sm->pass_full)
		p->rollup_gen = sm->rollup_gen;
}

static void close_fd(struct tp_sampler *sm, int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		sm->cached_fds--;
	}
	*fd = -1;
}

/* The cached /proc descriptors die with the record. */
static void proc_freed(void *arg, struct tp_proc *p)
{
	struct tp_sampler *sm = arg;

	close_fd(sm, &p->stat_fd);
	close_fd(sm, &p->sched_fd);
	close_fd(sm, &p->io_fd);
	close_fd(sm, &p->statm_fd);
}

void sampler_init(struct tp_sampler *sm, struct tp_ptree *t)
{
	struct tp_ptree_watcher w = { .added = proc_added, .freed = proc_freed, .arg = sm };

	memset(sm, 0, sizeof(*sm));
	sm->tree = t;
	sm->fd_budget = 768;	/* under the usual 1024, until told the limit */
	sm->sample_gen = 1;	/* a new process has 0: not read in this pass */
	sm->rollup_gen = 1;
	sm->mem_gen = 1;
	ptree_watch(t, &w);
}

int sample_figure(const struct tp_sample *s, int fig, double *v)
{
	switch (fig) {
	case TP_RES_CPU_TIME: *v = s->cpu_s; return 1;
	case TP_RES_MAX_CONCURRENT_PROCESSES: *v = s->nprocs; return 1;
	case TP_RES_VIRTUAL_MEMORY: *v = s->vm_mb; return 1;
	case TP_RES_MEMORY: *v = s->rss_mb; return 1;
	case TP_RES_SWAP_MEMORY: *v = s->swap_mb; return 1;
	case TP_RES_BYTES_READ: *v = (double)s->acct.io.read_bytes / 1048576.0; return 1;
	case TP_RES_BYTES_WRITTEN: *v = (double)s->acct.io.write_bytes / 1048576.0; return 1;
	case TP_FIG_MEMORY_PSS: *v = s->pss_mb; return s->nprocs > 0;
	default: return -1;
	}
}
