/* SPDX-License-Identifier: MIT */
/* store.c: the report's tasks in reading order and their grouping. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/read/store.h"
#include "basic/xmalloc.h"

void rp_store_init(struct rp_store *st)
{
	memset(st, 0, sizeof(*st));
}

void rp_store_free(struct rp_store *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		rp_task_clear(&st->tasks[i]);
	for (i = 0; i < st->nsrc; i++)
		free(st->sources[i]);
	free(st->tasks);
	free(st->sources);
	memset(st, 0, sizeof(*st));
}

/* A copy of @path kept by the store for tasks to borrow. */
static const char *store_source(struct rp_store *st, const char *path)
{
	if (st->nsrc > 0 && strcmp(st->sources[st->nsrc - 1], path) == 0)
		return st->sources[st->nsrc - 1];
	if (st->nsrc == st->srccap) {
		st->srccap = st->srccap ? 2 * st->srccap : 64;
		st->sources = xreallocarray(st->sources, st->srccap, sizeof(char *));
	}
	st->sources[st->nsrc] = xstrdup(path);
	return st->sources[st->nsrc++];
}

struct rp_task *rp_store_add(struct rp_store *st, const char *source)
{
	struct rp_task *t;

	if (st->n == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 256;
		st->tasks = xreallocarray(st->tasks, st->cap, sizeof(*t));
	}
	t = &st->tasks[st->n++];
	rp_task_init(t);
	st->kinds[RP_K_SUMMARY]++;
	t->source = store_source(st, source);
	return t;
}

void rp_store_drop_last(struct rp_store *st)
{
	if (st->n > 0) {
		st->kinds[st->tasks[st->n - 1].kind]--;
		rp_task_clear(&st->tasks[--st->n]);
	}
}

void rp_store_set_kind(struct rp_store *st, struct rp_task *t, enum rp_kind k)
{
	st->kinds[t->kind]--;
	t->kind = k;
	st->kinds[k]++;
}

/* The group key of @t, in @buf when it has to be cut out of the command. */
static const char *group_key(const struct rp_task *t, enum rp_by by,
			     char *buf, size_t len)
{
	const char *cmd, *end, *base;
	size_t n;

	if (by == RP_BY_NONE)
		return "all";
	if (by == RP_BY_CATEGORY)
		return t->category ? t->category : "default";
	cmd = t->command ? t->command : "";
	cmd += strspn(cmd, " \t");
	end = cmd + strcspn(cmd, " \t");
	for (base = end; base > cmd && base[-1] != '/'; base--)
		;
	n = (size_t)(end - base);
	if (n == 0)
		return "(unknown)";
	if (n >= len)
		n = len - 1;
	memcpy(buf, base, n);
	buf[n] = '\0';
	return buf;
}

struct keyed {
	char *key;
	size_t idx;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

struct rp_group *rp_store_group(const struct rp_store *st, enum rp_by by,
				size_t *n)
{
	struct keyed *k = xreallocarray(NULL, st->n ? st->n : 1, sizeof(*k));
	struct rp_group *g = xreallocarray(NULL, st->n ? st->n : 1, sizeof(*g));
	char buf[256];
	size_t i, ng = 0;

	for (i = 0; i < st->n; i++) {
		k[i].key = xstrdup(group_key(&st->tasks[i], by, buf, sizeof(buf)));
		k[i].idx = i;
	}
	qsort(k, st->n, sizeof(*k), cmp_keyed);
	for (i = 0; i < st->n; i++) {
		if (ng == 0 || strcmp(k[i].key, g[ng - 1].name) != 0) {
			size_t run = 1;

			while (i + run < st->n && strcmp(k[i + run].key, k[i].key) == 0)
				run++;
			g[ng].name = xstrdup(k[i].key);
			g[ng].label = NULL;
			g[ng].idx = xreallocarray(NULL, run, sizeof(size_t));
			g[ng].n = 0;
			ng++;
		}
		g[ng - 1].idx[g[ng - 1].n++] = k[i].idx;
	}
	for (i = 0; i < st->n; i++)
		free(k[i].key);
	free(k);
	*n = ng;
	return g;
}

void rp_groups_free(struct rp_group *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(g[i].name);
		free(g[i].label);
		free(g[i].idx);
	}
	free(g);
}
