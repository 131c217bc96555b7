/* SPDX-License-Identifier: MIT */
/* ptree.c: hash tables of processes (by tgid) and threads (by tid) plus a
 * list of live processes for sampling. */
#include <stdlib.h>
#include <string.h>
#include "track/ptree.h"
#include "basic/xmalloc.h"

#define NBUCKETS 4096u

static unsigned bucket(pid_t id)
{
	return (unsigned)id % NBUCKETS;
}

void ptree_init(struct tp_ptree *t)
{
	memset(t, 0, sizeof(*t));
	t->pbuckets = xcalloc(NBUCKETS, sizeof(*t->pbuckets));
	t->tbuckets = xcalloc(NBUCKETS, sizeof(*t->tbuckets));
}

void ptree_watch(struct tp_ptree *t, const struct tp_ptree_watcher *w)
{
	if (t->nwatchers == TP_PTREE_WATCHERS)
		abort();	/* a programming error: raise the bound */
	t->watchers[t->nwatchers++] = *w;
}

/* What the watchers put in @p goes with its record. */
static void tell_freed(struct tp_ptree *t, struct tp_proc *p)
{
	unsigned i;

	for (i = 0; i < t->nwatchers; i++)
		if (t->watchers[i].freed)
			t->watchers[i].freed(t->watchers[i].arg, p);
}

/* The story of a process born now, the next in order (the tree's count
 * does not include it yet). */
static struct tp_life *new_life(const struct tp_ptree *t, const struct tp_proc *parent)
{
	struct tp_life *l = xcalloc(1, sizeof(*l));

	l->serial = t->total_processes + 1;
	if (parent && parent->life)
		l->parent_serial = parent->life->serial;
	else if (t->total_processes > 0)
		l->parent_serial = 1;	/* creator unknown: under the root */
	l->born = t->now;
	l->died = -1;
	return l;
}

static void free_life(struct tp_life *l)
{
	if (!l)
		return;
	free(l->exe);
	free(l->cmdline);
	free(l);
}

void ptree_free(struct tp_ptree *t)
{
	unsigned i;

	for (i = 0; i < NBUCKETS; i++) {
		while (t->tbuckets[i]) {
			struct tp_thread *th = t->tbuckets[i];

			t->tbuckets[i] = th->hnext;
			free(th);
		}
		while (t->pbuckets[i]) {
			struct tp_proc *p = t->pbuckets[i];

			t->pbuckets[i] = p->hnext;
			tell_freed(t, p);
			free_life(p->life);
			free(p->base);
			free(p);
		}
	}
	free(t->pbuckets);
	free(t->tbuckets);
	t->pbuckets = NULL;
	t->tbuckets = NULL;
	t->live = NULL;
}

struct tp_proc *ptree_proc(const struct tp_ptree *t, pid_t pid)
{
	struct tp_proc *p;

	for (p = t->pbuckets[bucket(pid)]; p; p = p->hnext)
		if (p->pid == pid)
			return p;
	return NULL;
}

struct tp_thread *ptree_thread(const struct tp_ptree *t, pid_t tid)
{
	struct tp_thread *th;

	for (th = t->tbuckets[bucket(tid)]; th; th = th->hnext)
		if (th->tid == tid)
			return th;
	return NULL;
}

struct tp_thread *ptree_add_thread(struct tp_ptree *t, struct tp_proc *p, pid_t tid)
{
	struct tp_thread *th = xcalloc(1, sizeof(*th));

	th->tid = tid;
	th->proc = p;
	th->hnext = t->tbuckets[bucket(tid)];
	t->tbuckets[bucket(tid)] = th;
	if (p->nthreads > 0)
		p->had_threads = true;
	p->nthreads++;
	if (p->life)
		p->life->threads_seen++;
	t->nthreads++;
	if (t->nthreads > t->max_threads)
		t->max_threads = t->nthreads;
	return th;
}

struct tp_proc *ptree_add_proc(struct tp_ptree *t, pid_t pid, pid_t ppid)
{
	struct tp_proc *p = xcalloc(1, sizeof(*p));
	struct tp_proc *parent = ppid > 0 ? ptree_proc(t, ppid) : NULL;
	unsigned i;

	p->pid = pid;
	p->ppid = ppid;
	p->stat_fd = -1;
	p->sched_fd = -1;
	p->statm_fd = -1;
	p->io_fd = -1;
	/* sockets are inherited; the main process may have got some */
	p->net_flag = parent ? parent->net_flag : true;
	if (parent)
		parent->had_children = true;
	if (t->keep_lives)
		p->life = new_life(t, parent);
	p->hnext = t->pbuckets[bucket(pid)];
	t->pbuckets[bucket(pid)] = p;
	p->next = t->live;
	if (t->live)
		t->live->prev = p;
	t->live = p;
	t->nlive++;
	t->total_processes++;
	if (t->nlive > t->max_live)
		t->max_live = t->nlive;
	ptree_add_thread(t, p, pid);
	for (i = 0; i < t->nwatchers; i++)
		if (t->watchers[i].added)
			t->watchers[i].added(t->watchers[i].arg, p);
	return p;
}

static void unlink_thread(struct tp_ptree *t, struct tp_thread *th)
{
	struct tp_thread **pp = &t->tbuckets[bucket(th->tid)];

	while (*pp != th)
		pp = &(*pp)->hnext;
	*pp = th->hnext;
	th->proc->nthreads--;
	t->nthreads--;
	free(th);
}

void ptree_acct_add(struct tp_acct *sum, const struct tp_acct *a)
{
	sum->cpu_ns += a->cpu_ns;
	sum->ctxsw += a->ctxsw;
	proc_io_add(&sum->io, &a->io);
}

#define SUB_SAT(out, a, f) ((out)->f = (out)->f > (a)->f ? (out)->f - (a)->f : 0)

/* @out -= @base, field by field, never below 0. */
static void acct_sub(struct tp_acct *out, const struct tp_acct *base)
{
	SUB_SAT(out, base, cpu_ns);
	SUB_SAT(out, base, ctxsw);
	SUB_SAT(out, base, io.rchar);
	SUB_SAT(out, base, io.wchar);
	SUB_SAT(out, base, io.syscr);
	SUB_SAT(out, base, io.syscw);
	SUB_SAT(out, base, io.read_bytes);
	SUB_SAT(out, base, io.write_bytes);
	SUB_SAT(out, base, io.cancelled_write_bytes);
}

#define TAKE_MAX(out, a, b, f) ((out)->f = (a)->f > (b)->f ? (a)->f : (b)->f)

/* The figures of a live process: the larger of its sampled whole-process
 * counters and the sum of its exited threads. */
static void ptree_proc_acct(const struct tp_proc *p, struct tp_acct *out)
{
	const struct tp_acct *a = &p->exited, *b = &p->sampled;

	TAKE_MAX(out, a, b, cpu_ns);
	TAKE_MAX(out, a, b, ctxsw);
	TAKE_MAX(out, a, b, io.rchar);
	TAKE_MAX(out, a, b, io.wchar);
	TAKE_MAX(out, a, b, io.syscr);
	TAKE_MAX(out, a, b, io.syscw);
	TAKE_MAX(out, a, b, io.read_bytes);
	TAKE_MAX(out, a, b, io.write_bytes);
	TAKE_MAX(out, a, b, io.cancelled_write_bytes);
	if (p->base)
		acct_sub(out, p->base);
}

void ptree_total_acct(const struct tp_ptree *t, struct tp_acct *out)
{
	const struct tp_proc *p;
	struct tp_acct a;

	*out = t->dead;
	for (p = t->live; p; p = p->next) {
		ptree_proc_acct(p, &a);
		ptree_acct_add(out, &a);
	}
}

static void end_proc(struct tp_ptree *t, struct tp_proc *p)
{
	struct tp_proc **pp = &t->pbuckets[bucket(p->pid)];
	struct tp_acct a;
	unsigned i;

	tell_freed(t, p);
	ptree_proc_acct(p, &a);
	ptree_acct_add(&t->dead, &a);
	if (p->life)
		p->life->died = t->now;
	if (t->on_end)
		t->on_end(t->on_end_arg, p, &a);
	for (i = 0; i < t->nwatchers; i++)
		if (t->watchers[i].ended)
			t->watchers[i].ended(t->watchers[i].arg, p, &a);
	while (*pp != p)
		pp = &(*pp)->hnext;
	*pp = p->hnext;
	if (p->prev)
		p->prev->next = p->next;
	else
		t->live = p->next;
	if (p->next)
		p->next->prev = p->prev;
	t->nlive--;
	free_life(p->life);
	free(p->base);
	free(p);
}

/* Drop every thread record of @p. */
static void drop_threads(struct tp_ptree *t, struct tp_proc *p)
{
	while (p->nthreads > 0) {
		unsigned i;
		struct tp_thread *o = NULL;

		for (i = 0; i < NBUCKETS && !o; i++)
			for (o = t->tbuckets[i]; o && o->proc != p; o = o->hnext)
				;
		if (!o)
			break;
		unlink_thread(t, o);
	}
}

bool ptree_thread_gone(struct tp_ptree *t, pid_t tid)
{
	struct tp_thread *th = ptree_thread(t, tid);
	struct tp_proc *p;

	if (!th)
		return false;
	p = th->proc;
	unlink_thread(t, th);
	/* The leader is reported last (the kernel delays it), so the
	 * process ends with its leader or when no thread is left. */
	if (tid == p->pid || p->nthreads == 0) {
		drop_threads(t, p);
		end_proc(t, p);
		return true;
	}
	return false;
}

void ptree_end_all(struct tp_ptree *t)
{
	while (t->live) {
		struct tp_proc *p = t->live;

		drop_threads(t, p);
		end_proc(t, p);
	}
}

void ptree_exec_moved(struct tp_ptree *t, pid_t pid, pid_t old_tid)
{
	struct tp_thread *old = ptree_thread(t, old_tid);
	struct tp_thread *leader = ptree_thread(t, pid);

	if (old && old_tid != pid)
		unlink_thread(t, old);
	if (leader) {
		leader->exit_seen = false;
		leader->started = true;
	}
}
