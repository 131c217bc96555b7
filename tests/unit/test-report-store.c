/* SPDX-License-Identifier: MIT */
/* test-report-store.c: the store's strings (read/store.c): one copy of
 * each distinct string, the same pointer for equal ones, hostile strings
 * (control bytes, 1 MB long) kept exactly; a task's strings become the
 * store's when the next task is added, and the groups of such tasks
 * (by category, from the categories kept beside the tasks). */
#include <stdlib.h>
#include <string.h>
#include "report/read/store.h"
#include "report/read/rtask.h"
#include "basic/xmalloc.h"
#include "tap.h"

static void interning(void)
{
	struct rp_store st;
	const char *hostile = "\x1b[31mred\r\n\x7f\x01;rm -rf /";
	char *big = malloc((1 << 20) + 1), buf[32];
	const char *a, *b, *c, *bigi, *first[5000];
	size_t i;
	bool same = true, apart = true;

	memset(big, 'x', 1 << 20);
	big[1 << 20] = '\0';
	big[12345] = '\x1b';
	rp_store_init(&st);
	a = rp_store_intern(&st, "align");
	strcpy(buf, "align");
	b = rp_store_intern(&st, buf);
	c = rp_store_intern(&st, "sort");
	ok(a == b, "the same string, the same copy");
	ok(a != buf && a != c, "a copy of its own, another for another string");
	is_str(a, "align", "kept as it was");
	a = rp_store_intern(&st, hostile);
	is_str(a, hostile, "control bytes and an escape sequence kept exactly");
	ok(rp_store_intern(&st, "\x1b[31mred\r\n\x7f\x01;rm -rf /") == a,
	   "... and found again");
	bigi = rp_store_intern(&st, big);
	ok(strlen(bigi) == 1 << 20 && memcmp(bigi, big, 1 << 20) == 0,
	   "a 1 MB string kept exactly");
	ok(rp_store_intern(&st, big) == bigi, "... and found again");
	/* enough strings to grow the table several times */
	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "host%zu", i);
		first[i] = rp_store_intern(&st, buf);
	}
	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "host%zu", i);
		same = same && rp_store_intern(&st, buf) == first[i] && strcmp(first[i], buf) == 0;
		apart = apart && (i == 0 || first[i] != first[i - 1]);
	}
	ok(same && apart, "5000 strings: each found again as itself, each its own copy");
	ok(rp_store_intern(&st, "") != NULL && *rp_store_intern(&st, "") == '\0',
	   "the empty string");
	rp_store_free(&st);
	free(big);
}

static void sealing(void)
{
	struct rp_store st;
	struct rp_task *t;
	struct rp_group *g;
	size_t ng, i;
	bool shared = true;

	rp_store_init(&st);
	for (i = 0; i < 300; i++) {
		t = rp_store_add(&st, i < 150 ? "dir/a.log" : "dir/b.log");
		t->category = xstrdup(i % 3 ? "align" : "sort");
		t->host = i % 2 ? xstrdup("node\x1b") : NULL;
		t->command = xstrdup("prog --input x");
	}
	ok(!st.tasks[299].pooled, "the last task's strings are its own until sealed");
	rp_store_seal(&st);
	for (i = 0; i < 300; i++) {
		shared = shared && st.tasks[i].pooled &&
			 st.tasks[i].category == rp_store_intern(&st, i % 3 ? "align" : "sort") &&
			 (i % 2 ? st.tasks[i].host == rp_store_intern(&st, "node\x1b") :
			  st.tasks[i].host == NULL);
	}
	ok(shared, "sealed: equal strings are one copy of the store's, NULL stays NULL");
	ok(st.tasks[0].source == st.tasks[149].source && st.tasks[150].source != st.tasks[0].source,
	   "a source given again is kept once");
	is_str(st.tasks[299].source, "dir/b.log", "... as it was");
	g = rp_store_group(&st, RP_BY_CATEGORY, &ng);
	ok(ng == 2 && strcmp(g[0].name, "align") == 0 && g[0].n == 200 &&
	   strcmp(g[1].name, "sort") == 0 && g[1].n == 100 && g[1].idx[0] == 0 &&
	   g[1].idx[99] == 297, "grouped: align 200, sort 100, in reading order");
	rp_groups_free(g, ng);
	rp_store_drop_last(&st);
	t = rp_store_add(&st, "dir/c.log");
	t->category = xstrdup("late");
	rp_store_drop_last(&st);
	is_int((long long)st.n, 299, "tasks dropped: sealed or not, freed once (ASan, valgrind)");
	rp_store_free(&st);
}

/* The grouping by category reads the categories kept beside the tasks
 * as they are sealed: tasks pushed with the store's strings already (the
 * cache's), one with no category (default), one dropped after it was
 * sealed, and a last one not sealed yet, whose category is its own. */
static void categories_beside(void)
{
	struct rp_store st;
	struct rp_task from, *t;
	struct rp_group *g;
	size_t ng, i;

	rp_store_init(&st);
	for (i = 0; i < 5; i++) {
		t = rp_store_add(&st, "a.summary");
		t->category = xstrdup("plain");
	}
	rp_store_seal(&st);
	for (i = 0; i < 4; i++) {
		rp_task_init(&from);
		from.category = (char *)rp_store_intern(&st, "cached");
		from.pooled = true;	/* (the cache's task: the store's strings) */
		rp_store_push(&st, "b.summary", &from);
	}
	rp_store_add(&st, "c.summary");	/* no category */
	t = rp_store_add(&st, "d.summary");
	t->category = xstrdup("dropped");
	rp_store_seal(&st);
	rp_store_drop_last(&st);
	t = rp_store_add(&st, "e.summary");
	t->category = xstrdup("last");	/* (not sealed) */
	g = rp_store_group(&st, RP_BY_CATEGORY, &ng);
	ok(ng == 4 && strcmp(g[0].name, "cached") == 0 && g[0].n == 4 &&
	   strcmp(g[1].name, "default") == 0 && g[1].n == 1 && g[1].idx[0] == 9 &&
	   strcmp(g[2].name, "last") == 0 && g[2].n == 1 && g[2].idx[0] == 10 &&
	   strcmp(g[3].name, "plain") == 0 && g[3].n == 5,
	   "by category: cached 4, default 1, last 1 (not sealed), plain 5; the dropped one gone");
	rp_groups_free(g, ng);
	rp_store_free(&st);
}

int main(void)
{
	plan(16);
	interning();
	sealing();
	categories_beside();
	return done();
}
