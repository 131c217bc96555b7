/* SPDX-License-Identifier: MIT */
/* test-ptree.c: the process table's bookkeeping: counts, thread vs
 * process, exec by a non-leader thread, and totals that never double count. */
#include <stdlib.h>
#include <unistd.h>
#include "kernel/proc.h"
#include "track/ptree.h"
#include "measure/sampler.h"
#include "tap.h"

static void test_counts(void)
{
	struct tp_ptree t;
	struct tp_proc *root, *child;

	ptree_init(&t);
	root = ptree_add_proc(&t, 100, 0);
	child = ptree_add_proc(&t, 101, 100);
	ptree_add_thread(&t, child, 102);
	is_int(t.nlive, 2, "two live processes");
	is_int(t.nthreads, 3, "three live threads");
	is_int((long long)t.total_processes, 2, "threads are not processes");
	child->exited.cpu_ns = 5;		/* thread 102 exited */
	ok(!ptree_thread_gone(&t, 102), "a non-leader thread ends no process");
	child->exited.cpu_ns += 7;		/* leader exited */
	child->sampled.cpu_ns = 10;		/* older, coarser sample */
	ok(ptree_thread_gone(&t, 101), "the leader ends its process");
	is_int(t.nlive, 1, "one live process left");
	is_int((long long)t.dead.cpu_ns, 12, "exit figures beat an older sample");
	root->sampled.cpu_ns = 30;
	root->exited.cpu_ns = 0;
	{
		struct tp_acct a;

		ptree_total_acct(&t, &a);
		is_int((long long)a.cpu_ns, 42, "total = dead + live, no double count");
	}
	ok(ptree_thread_gone(&t, 100), "root ends");
	is_int(t.nlive, 0, "empty tree");
	is_int(t.max_live, 2, "peak of live processes");
	ok(!ptree_thread_gone(&t, 555), "unknown tid is harmless");
	ptree_free(&t);
}

static void test_exec_moved(void)
{
	struct tp_ptree t;
	struct tp_proc *p;

	ptree_init(&t);
	p = ptree_add_proc(&t, 200, 0);
	ptree_add_thread(&t, p, 201);
	ptree_add_thread(&t, p, 202);
	ok(!ptree_thread_gone(&t, 202), "a bystander thread exits");
	ptree_exec_moved(&t, 200, 201);
	is_int(p->nthreads, 1, "after exec by 201 one thread remains");
	ok(ptree_thread(&t, 201) == NULL, "the old tid is gone");
	ok(ptree_thread(&t, 200) != NULL, "the exec'ing thread now has the leader's tid");
	is_int((long long)t.total_processes, 1, "exec creates no process");
	ok(ptree_thread_gone(&t, 200), "the process ends with its new leader");
	ptree_free(&t);
}

static void test_many(void)
{
	struct tp_ptree t;
	int i, ended = 0;

	ptree_init(&t);
	for (i = 1; i <= 20000; i++)
		ptree_add_proc(&t, i, i - 1);
	is_int(t.nlive, 20000, "20000 live processes in the table");
	for (i = 20000; i >= 1; i--)
		ended += ptree_thread_gone(&t, i);
	is_int(ended, 20000, "each ended once");
	is_int((long long)t.total_processes, 20000, "total counted once each");
	ptree_free(&t);
}

/* A memory pass sums the resident sizes of the live processes, skips
 * the gone ones, names the biggest, and can be cut and resumed. */
static void test_mem_pass(void)
{
	struct tp_ptree t;
	struct tp_sampler sm;
	struct proc_stat st;
	struct tp_until now_stop = { 0, 0, 0 };	/* already past */
	uint64_t page_kb = (uint64_t)proc_page_size() / 1024;
	pid_t pid;
	int i;

	ok(proc_init() == 0, "/proc opens");
	ptree_init(&t);
	sampler_init(&sm, &t);
	ptree_add_proc(&t, getpid(), 0);
	/* processes of no such pid: gone, counted as nothing */
	for (pid = 0x3fffff00, i = 0; i < 20; i++)
		ptree_add_proc(&t, pid + i, getpid());
	ok(!sampler_mem_pass(&sm, 1.0, &now_stop), "a pass out of time stops after a few");
	ok(sm.in_mem_pass, "and is to go on");
	ok(sampler_mem_pass(&sm, 2.0, NULL), "it ends at the next call");
	ok(!sm.in_mem_pass, "no pass in progress after it");
	ok(proc_read_stat(getpid(), &st) == 0, "own stat reads");
	/* stat's rss is the kernel's per-CPU estimate, statm's the exact
	 * sum: within 1 MB */
	ok(labs((long)sm.mem_acc.rss_kb - (long)(st.rss * page_kb)) <= 1024,
	   "RSS: this process's, the gone ones 0");
	is_int(sm.mem_acc.biggest, getpid(), "the biggest is this process");
	ok(sm.mem_acc.at == 2.0, "dated at the end of the pass");
	ok(sampler_mem_pass(&sm, 3.0, NULL) && sm.mem_acc.rss_kb > 0, "a new pass reads every process again");
	/* whoever opens, closes: the sampler's descriptors go with the
	 * records, through its watcher */
	ok(sm.cached_fds == 1 && ptree_proc(&t, getpid())->statm_fd >= 0,
	   "the sampler keeps this process's statm open");
	ptree_free(&t);
	is_int((int)sm.cached_fds, 0, "freeing the table closes it");
}

int main(void)
{
	test_counts();
	test_exec_moved();
	test_many();
	test_mem_pass();
	return done();
}
