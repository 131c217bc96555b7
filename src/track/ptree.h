/* SPDX-License-Identifier: MIT */
/* ptree.h: the table of traced processes and threads.  Pure bookkeeping:
 * no syscalls here.  A process lives from its creation to the reaping of
 * its last thread; when it ends its final figures are folded into the
 * tree's totals, so nothing of a dead process is ever lost or counted twice. */
#ifndef TPMON_PTREE_H
#define TPMON_PTREE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "kernel/proc.h"

struct tp_proc;

struct tp_thread {
	pid_t tid;
	struct tp_proc *proc;
	bool started;		/* its attach stop has been seen */
	bool exit_seen;		/* its final figures were accounted */
	bool adopted;		/* seen before its parent's fork event */
	struct tp_thread *hnext;
};

/* Figures of one process that add up across the tree. */
struct tp_acct {
	uint64_t cpu_ns;
	uint64_t ctxsw;
	struct proc_io io;
};

/* A process's story, for the process records and the trace: kept only
 * when one of them is written (a task of 10,000 processes does without). */
struct tp_life {
	unsigned long serial;	/* 1, 2, ... in order of creation */
	unsigned long parent_serial;	/* serial of its creator, 0 for the root */
	double born, died;	/* s from the task's start (t->now then) */
	char *exe;		/* owned, or NULL: executable after its last exec */
	char *cmdline;		/* owned, or NULL: arguments joined by ' ', bounded */
	unsigned threads_seen;	/* threads it ever had, its first included */
	unsigned threads_peak;	/* most threads seen at once in its stat */
	int status;		/* wait status of its leader, when status_known */
	char comm[16];		/* the kernel's TASK_COMM_LEN: a user process's
				 * name is at most 15 bytes */
	bool status_known;
	bool named;		/* exe and cmdline were read from its /proc */
};

struct tp_proc {
	/* Fields are ordered by size, to leave no padding: a task of 10,000
	 * live processes has 10,000 of these (bench/hostile-core). */
	uint64_t starttime;	/* clock ticks after boot, 0 until sampled */
	uint64_t run_stamp;	/* leader's run stamp (CPU ns + timeslices) at
				 * the last stat read; UINT64_MAX: none, or it
				 * was running then (sampler.c) */
	double stat_at;		/* when stat was last read, s */
	struct tp_acct *base;	/* --pid, owned: its figures when tpmon came,
				 * not counted (ptree_proc_acct() subtracts
				 * them); NULL for a process tpmon saw born */
	struct tp_acct exited;	/* sum of final figures of exited threads */
	struct tp_acct sampled;	/* whole-process figures at the last sample */
	uint64_t rss_kb, vm_kb, pss_kb, swap_kb;	/* at the last sample */
	uint64_t rollup_key;	/* rss and vsize when rollup was last read */
	uint64_t hwm_kb;	/* peak RSS known for this process */
	uint64_t *sock_ino;	/* net, owned: inodes of its sockets at the
				 * last fd scan, exactly nsock of them */
	uint64_t net_key;	/* net: its CPU time at the last fd scan, +1 */
	struct tp_life *life;	/* owned: its story, NULL unless t->keep_lives */

	struct tp_proc *hnext;
	struct tp_proc *prev, *next;	/* list of live processes */

	pid_t pid;		/* thread-group id */
	pid_t ppid;		/* parent within the tree, 0 for the root */
	int nthreads;		/* threads known and not yet reaped */
	int stat_fd;		/* cached /proc/PID/stat, -1 if not open */
	int sched_fd;		/* cached /proc/PID/schedstat, -1 if not open */
	int io_fd;		/* cached /proc/PID/io, -1 if not open */
	int statm_fd;		/* cached /proc/PID/statm, -1 if not open */
	unsigned mem_gen;	/* the memory pass that last read it */
	unsigned nest_tag;	/* nested.c: 1 + its subtree's registration, 0: none */
	unsigned sample_gen;	/* the sampler's pass that last read its stat */
	unsigned rollup_gen;	/* the full PSS pass that last read it */
	unsigned nsock;		/* net: how many */
	unsigned stat_threads;	/* threads in its stat at the last read, 0 until then */
	bool single;		/* one thread at the last stat read */
	bool had_threads;	/* more than one thread was ever seen */
	bool had_children;	/* it created a process of the tree */
	bool attached;		/* --pid: it was running before tpmon came */
	bool rollup_due;	/* its own layout changed: re-read its PSS */
	bool net_flag;		/* net: may hold a TCP connection (it connected or
				 * accepted one, or had sockets at its last scan,
				 * or its parent had): its descriptors are scanned */
};

/* The tree's resident and virtual size, from one pass over its processes. */
struct tp_stat_sums {
	uint64_t rss_kb, vm_kb;		/* sums over the live processes */
	uint64_t biggest_kb;		/* the largest RSS */
	pid_t biggest;			/* the process with the largest RSS */
	double at;			/* s from the start, at the end of the pass */
};

#define TP_PTREE_WATCHERS 4

struct tp_ptree {
	struct tp_proc **pbuckets;
	struct tp_thread **tbuckets;
	struct tp_proc *live;		/* head of the live list */
	unsigned nlive;			/* live processes */
	unsigned nthreads;		/* live threads */
	unsigned max_threads;		/* peak of nthreads */
	unsigned long total_processes;	/* processes ever seen */
	bool keep_lives;		/* give each process a struct tp_life */
	unsigned max_live;		/* peak of nlive */
	struct tp_acct dead;		/* sum over ended processes */
	double now;			/* s from the start, kept by the monitor:
					 * the time of births and deaths */
	/* called as each process ends, before its record is freed, with its
	 * final figures; NULL for none */
	void (*on_end)(void *arg, const struct tp_proc *p, const struct tp_acct *a);
	void *on_end_arg;
	/* modules that keep state of their own in the records (the
	 * sampler's descriptors, net's sockets, nested.c's registrations):
	 * told of each process added, of each process's end with its final
	 * figures (after on_end), and of each record about to be freed, so
	 * that they free what they put in it */
	struct tp_ptree_watcher {
		void (*added)(void *arg, struct tp_proc *p);	/* or NULL */
		void (*ended)(void *arg, const struct tp_proc *p, const struct tp_acct *a);
		void (*freed)(void *arg, struct tp_proc *p);	/* or NULL */
		void *arg;
	} watchers[TP_PTREE_WATCHERS];
	unsigned nwatchers;
};

void ptree_init(struct tp_ptree *t);
/* Tell @w->added of each process added from now on, @w->ended of each
 * process's end, @w->freed of each record about to be freed (any may be
 * NULL).  At most TP_PTREE_WATCHERS. */
void ptree_watch(struct tp_ptree *t, const struct tp_ptree_watcher *w);
/* Frees every record and closes its cached descriptors. */
void ptree_free(struct tp_ptree *t);

struct tp_proc *ptree_proc(const struct tp_ptree *t, pid_t pid);
struct tp_thread *ptree_thread(const struct tp_ptree *t, pid_t tid);

/* A new process @pid (with its first thread) whose parent is @ppid. */
struct tp_proc *ptree_add_proc(struct tp_ptree *t, pid_t pid, pid_t ppid);
/* A new thread @tid of @p. */
struct tp_thread *ptree_add_thread(struct tp_ptree *t, struct tp_proc *p, pid_t tid);

/* Thread @tid was reaped: drop it; when it was the last one, the process
 * ends (its figures are folded into the totals) and true is returned. */
bool ptree_thread_gone(struct tp_ptree *t, pid_t tid);

/* End every process still in the table (calling on_end for each), for a
 * run that stops while records remain. */
void ptree_end_all(struct tp_ptree *t);

/* A non-leader thread @old_tid of process @pid called execve: it now has
 * tid @pid; the old leader is gone without a death report. */
void ptree_exec_moved(struct tp_ptree *t, pid_t pid, pid_t old_tid);

/* Has @p never had a second thread nor a child?  Then its process-wide
 * figures (/proc/PID/io, the rusage of its reaping) are its own: the
 * kernel adds a reaped child's figures to its parent's. */
static inline bool ptree_proc_is_leaf(const struct tp_proc *p)
{
	return !p->had_threads && !p->had_children;
}
/* Add @a to @sum, field by field. */
void ptree_acct_add(struct tp_acct *sum, const struct tp_acct *a);
/* Totals over the whole tree so far, dead and alive. */
void ptree_total_acct(const struct tp_ptree *t, struct tp_acct *out);

#endif
