/* SPDX-License-Identifier: MIT */
/* store.h: every task the report has read, in reading order, the
 * strings they share (each distinct one kept once), and the groups
 * (categories) they fall into. */
#ifndef TPMON_REPORT_STORE_H
#define TPMON_REPORT_STORE_H

#include <stddef.h>
#include "report/read/rtask.h"

/* The most tasks a report holds, from all its inputs: the readers stop
 * there (and say so). */
#define RP_TASKS_MAX 10000000

/* The store's strings: packed in blocks that live as long as the store,
 * no allocation of their own; those interned are found again through a
 * hash table of open addressing. */
struct rp_strings {
	char **blocks;		/* owned, each owned */
	size_t nblocks;
	char *cur;		/* the block strings are packed into */
	size_t used;		/* bytes of it used */
	const char **slot;	/* the interned strings; NULL: free */
	size_t nslot, count;	/* nslot: 0 or a power of 2 */
	const char *last;	/* the last source copied (rp_store_add()) */
};

struct rp_store {
	struct rp_task *tasks;
	size_t n, cap;
	/* each sealed task's category (NULL: none), beside the tasks: the
	 * grouping by category walks 8 bytes a task, not a task each */
	const char **cats;
	struct rp_strings str;	/* the tasks' strings, once sealed, and sources */
	size_t skipped;		/* inputs skipped with a warning */
	size_t kinds[RP_K__COUNT];	/* tasks read of each kind */
	size_t unended;		/* records of tasks not ended (running,
				 * pending, cached), left out */
};

/* RP_BY_JOB: no groups, the jobs table instead (analyse/jobs.h) */
enum rp_by { RP_BY_CATEGORY, RP_BY_COMMAND, RP_BY_NONE, RP_BY_JOB };

/* The tasks of one group, by index into the store, in reading order. */
struct rp_group {
	char *name;		/* owned */
	char *label;		/* owned or NULL: its one shown name (analyse/labels.h) */
	size_t *idx;		/* owned */
	size_t n;
};

void rp_store_init(struct rp_store *st);
void rp_store_free(struct rp_store *st);

/* A new task at the end of the store: every value unknown (NAN), no
 * strings, exit status unknown.  Valid until the next rp_store_add(),
 * which seals it: its strings become the store's (rp_store_seal()). */
struct rp_task *rp_store_add(struct rp_store *st, const char *source);

/* A copy of @from appended, its source @source, and sealed: the strings
 * it owned are the store's now (those of @from are freed: do not use
 * them).  Returns the store's copy. */
struct rp_task *rp_store_push(struct rp_store *st, const char *source,
			      const struct rp_task *from);

/* The last task's strings, owned until now, replaced by the store's
 * interned copies (freed, and the task marked pooled).  The readers call
 * it when they are done; a store that is read is sealed. */
void rp_store_seal(struct rp_store *st);

/* The store's one copy of @s (any length, any bytes but NUL): the same
 * pointer for equal strings, valid until rp_store_free(). */
const char *rp_store_intern(struct rp_store *st, const char *s);

/* Drop the last task added (a parse that failed half way). */
void rp_store_drop_last(struct rp_store *st);

/* Say that @t (of @st, added as a summary) came from a source of kind @k. */
void rp_store_set_kind(struct rp_store *st, struct rp_task *t, enum rp_kind k);

/* The groups of @st by @by, sorted by name, in a new array of *@n groups.
 * By command the key is the program: the basename of the command's first
 * word.  Free with rp_groups_free(). */
struct rp_group *rp_store_group(const struct rp_store *st, enum rp_by by,
				size_t *n);
void rp_groups_free(struct rp_group *g, size_t n);

#endif
