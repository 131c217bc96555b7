/* SPDX-License-Identifier: MIT */
/* sampler.h: one snapshot of the whole tree from /proc. */
#ifndef TPMON_SAMPLER_H
#define TPMON_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include "track/ptree.h"

struct tp_sample {
	double t;			/* s since the task started */
	double rss_mb, pss_mb, vm_mb, swap_mb;	/* sums over live processes */
	bool pss_stable;		/* no process changed size while PSS was read */
	double cpu_s;			/* whole tree so far, dead included */
	struct tp_acct acct;		/* whole tree so far, dead included */
	unsigned nprocs, nthreads;
	unsigned stat_threads;		/* the live processes' threads, from
					 * their stat at their last read */
	unsigned long total_processes;
	pid_t biggest_pid;		/* process with the largest RSS */
	unsigned exiting;		/* processes seen exiting (memory being freed) */
	/* filled by the monitor, not the sampler */
	bool net_known, gpu_known;	/* sock_diag, NVML answered */
	uint64_t net_sent, net_recv;	/* bytes so far, TCP */
	double gpu_memory_mb, gpu_cores;	/* now */
};

/* The sampler's state: its passes over the table, and the /proc
 * descriptors it keeps open in the records (p->stat_fd and the others),
 * which it closes as each record is freed. */
struct tp_sampler {
	struct tp_ptree *tree;		/* borrowed */
	uint64_t layout_key;		/* memory layout at the last sample */
	bool pss_dirty;			/* layout changed since all PSS were read */
	double full_rollup_at;		/* when all PSS were last read */
	unsigned sample_gen;		/* the stat pass in progress (from 1) */
	unsigned rollup_gen;		/* the full PSS pass in progress (from 1) */
	bool in_stat_pass;		/* a stat pass is cut short, to go on */
	bool in_mem_pass;		/* a memory pass is cut short, to go on */
	unsigned mem_gen;		/* the memory pass in progress (from 1) */
	struct tp_stat_sums mem_acc;	/* its sums so far */
	bool pass_rollups;		/* stat pass done, PSS reads going on */
	bool pass_full;			/* they are a full PSS pass */
	bool pass_read_any;		/* some PSS was read in this pass */
	uint64_t pass_layout;		/* the layout its stat pass found */
	struct tp_stat_sums sums;	/* of the last complete stat pass */
	unsigned stat_passes;		/* complete stat passes */
	unsigned cached_fds;		/* /proc descriptors kept open */
	unsigned fd_budget;		/* how many may be kept open */
	unsigned exiting;		/* zombies seen in this sample */
};

/* Start sampling the processes of @t (which it watches, ptree_watch()). */
void sampler_init(struct tp_sampler *sm, struct tp_ptree *t);

/* When a piece of work must stop: the first of two instants. */
struct tp_until {
	double mono;			/* CLOCK_MONOTONIC, s */
	double cpu;			/* the calling thread's CPU time, s */
	double recheck;			/* see sampler_sample(); 0: never */
};

/* Read every live process of the table and fill @s (@now: s since the start).
 * Refreshes each process's cached figures (cpu, io, rss, vm, pss, swap,
 * peak RSS).  The work stops at @stop_at (NULL: never), after a few
 * processes at least: then it returns false and @s is not filled, and the
 * next call goes on with the processes not read yet in this pass (those
 * born meanwhile included).  PSS figures left unread for lack of time
 * are read at the next sample; the sum is not stable until they are.
 *
 * Each stat pass (every process's stat: RSS, size, CPU) ends with its
 * sums in sm->sums and sm->stat_passes counted, before the PSS pass that
 * completes the sample.  A full PSS pass of a big tree can take many
 * calls (1000 smaps_rollup reads cost 20 ms of CPU, seconds of waiting
 * for a tpmon short of CPU): once @stop_at->recheck s have passed since
 * the last stat pass, a sample comes out of a new stat pass with the
 * latest PSS figures (not stable), and the PSS pass goes on at the next
 * calls (sm->pass_rollups), so that samples and the limits do not wait
 * for it. */
bool sampler_sample(struct tp_sampler *sm, double now, const struct tp_until *stop_at,
		    struct tp_sample *s);

/* Figure @fig (basic/figtable.h) as sample @s read it at its moment, in
 * its summary unit, into *@v: 1, or 0 where the sample holds it but it is
 * not known (PSS with no process left), or -1 where the sample does not
 * hold it (the figures have it: figures_now()).  The time series' lines
 * come from here, so that a new sampled figure is its table row and this
 * reader. */
int sample_figure(const struct tp_sample *s, int fig, double *v);

/* A memory pass: the resident and virtual size of every live process,
 * from /proc/PID/statm (1.2 us a process, where a stat pass reads
 * schedstat, stat and io: 7.4 us), summed into sm->mem_acc.  For the
 * memory limits of a big tree while a slow sample goes on.  Stops at
 * @stop_at like sampler_sample(); true when the pass is complete. */
bool sampler_mem_pass(struct tp_sampler *sm, double now, const struct tp_until *stop_at);

/* Process @p has just started (its attach stop was resumed): open the
 * file read when it ends, now that nothing waits on tpmon, so that its
 * end costs one pread() instead of an open on the path of its parent's
 * wait.  Best effort, within the tree's descriptor budget. */
void sampler_started(struct tp_sampler *sm, struct tp_proc *p);

/* The final figures of thread @tid of @p, which has exited and is still a
 * zombie: CPU time to the ns, context switches and I/O.  With @leaf (the
 * leader of a process that never had a second thread nor a child) only
 * the I/O, from the process-wide file, which is then its own and cheaper
 * to open: the caller takes the CPU time from the reaping's rusage.
 * Fields that cannot be read are 0. */
void sampler_read_final(struct tp_proc *p, pid_t tid, bool leaf, struct tp_acct *a);

#endif
