/* SPDX-License-Identifier: MIT */
/* store.h: every task the report has read, in reading order, and the
 * groups (categories) they fall into. */
#ifndef TPMON_REPORT_STORE_H
#define TPMON_REPORT_STORE_H

#include <stddef.h>
#include "report/read/rtask.h"

/* The most tasks a report holds, from all its inputs: the readers stop
 * there (and say so). */
#define RP_TASKS_MAX 10000000

struct rp_store {
	struct rp_task *tasks;
	size_t n, cap;
	char **sources;		/* owned paths that tasks' source borrow */
	size_t nsrc, srccap;
	size_t skipped;		/* inputs skipped with a warning */
	size_t kinds[RP_K__COUNT];	/* tasks read of each kind */
	size_t unended;		/* records of tasks not ended (running,
				 * pending, cached), left out */
};

enum rp_by { RP_BY_CATEGORY, RP_BY_COMMAND, RP_BY_NONE };

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
 * strings, exit status unknown.  Valid until the next rp_store_add(). */
struct rp_task *rp_store_add(struct rp_store *st, const char *source);

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
