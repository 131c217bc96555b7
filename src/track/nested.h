/* SPDX-License-Identifier: MIT */
/* nested.h: a tpmon inside a tpmon (see doc/INTERNALS.md, "Nested tpmon").
 * The outer, which traces, hands its task a datagram socket (its number in
 * TPMON_NEST_FD) and names another one in the abstract namespace
 * (TPMON_NEST=@name, for a task that closed the descriptor); an inner tpmon that cannot trace registers its child
 * there, and at its end asks for the exact totals of that child's
 * subtree and its peak of live processes, which the outer keeps as it
 * sees the processes created and reaped. */
#ifndef TPMON_NESTED_H
#define TPMON_NESTED_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "track/ptree.h"

struct tp_nested;

/* A subtree an inner tpmon registered (the child of @owner and its
 * descendants, those of registrations nested in it included), with the
 * totals of its ended processes and the count of its live ones. */
#define TP_NEST_MAX 64
struct tp_nest {
	pid_t owner, child;
	unsigned parent;		/* the enclosing registration's tag, 0: none */
	uint64_t procs;			/* processes ended */
	struct tp_acct acct;		/* their final figures */
	unsigned live;			/* processes alive now */
	unsigned peak;			/* most of them alive at once */
	double peak_at;			/* when that peak was first reached (now) */
};

/* The outer's registrations, kept as the table's processes come and go
 * (each process's p->nest_tag is 1 + its registration, 0: none). */
struct tp_nests {
	struct tp_ptree *tree;		/* borrowed */
	struct tp_nest nest[TP_NEST_MAX];
	unsigned nnest;
};

/* Start keeping registrations of @t's subtrees (ptree_watch()): a new
 * process joins its parent's registration and each enclosing one; an
 * ended one leaves them, its final figures added to their totals. */
void nests_init(struct tp_nests *ns, struct tp_ptree *t);
/* REGISTER: @child, a child of @owner in the table not registered yet,
 * and its subtree get a new registration, nested in its current one.
 * Returns its tag, or 0 when refused. */
unsigned nests_register(struct tp_nests *ns, pid_t owner, pid_t child);

/* The subtree's figures, as the outer counted them. */
struct tp_nest_totals {
	uint64_t procs;		/* processes ended */
	struct tp_acct acct;	/* their figures; from an outer of protocol 1
				 * only cpu_ns, io.read_bytes, io.write_bytes */
	bool whole;		/* protocol 2: acct whole, peak known */
	uint64_t peak;		/* most processes of the subtree alive at once */
	double peak_ago;	/* s between that peak and the answer */
};

/* Outer: make the channel.  NULL if it cannot be made (nested tpmons
 * then poll, as before). */
struct tp_nested *nested_open(void);
/* Outer: the environment a traced task gets (ours with TPMON_NEST_FD
 * naming the task's end and TPMON_NEST the named socket), and that end, which it inherits; NULL and -1
 * for none.  An untraced task gets neither. */
char **nested_env(const struct tp_nested *n);
int nested_task_fd(const struct tp_nested *n);
/* Outer: the task started (@traced) or not; the task's end is closed
 * here, and with no tracing the channel is dropped (returns NULL).  A
 * channel kept keeps the registrations of the processes of @t. */
struct tp_nested *nested_started(struct tp_nested *n, int traced, struct tp_ptree *t);
/* Outer: answer the requests waiting on the channel (a bounded number
 * per call; returns 1 when more may be waiting); @now is t->now's clock
 * read now, for the age of a peak. */
int nested_serve(struct tp_nested *n, double now);
void nested_close(struct tp_nested *n);

/* Inner: the channel of an enclosing tpmon, or -1: a copy of the
 * descriptor TPMON_NEST_FD names if it is still a UNIX datagram socket,
 * else a socket connected to the name in TPMON_NEST.  The caller closes
 * it. */
int nested_outer(void);
/* Inner: register @child with the outer's channel @chan, and wait for
 * its answer.  0, or -1 (the outer refused or did not answer: the caller
 * polls as before). */
int nested_register(int chan, pid_t child);
/* Inner: the totals of @child's subtree.  0, or -1 if no answer came.
 * Both ask in the newest protocol and again in protocol 1 when the outer
 * answers that it speaks only that one. */
int nested_totals(int chan, pid_t child, struct tp_nest_totals *out);

#endif
