/* SPDX-License-Identifier: MIT */
/* store.c: the report's tasks in reading order, the strings they share,
 * and their grouping. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "report/read/store.h"
#include "basic/xmalloc.h"

void rp_store_init(struct rp_store *st)
{
	memset(st, 0, sizeof(*st));
}

/* Strings are packed into blocks of this size; a longer one gets a block
 * of its own. */
#define STR_BLOCK (1 << 20)

void rp_store_free(struct rp_store *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		rp_task_clear(&st->tasks[i]);
	for (i = 0; i < st->str.nblocks; i++)
		free(st->str.blocks[i]);
	free(st->str.blocks);
	free(st->str.slot);
	free(st->tasks);
	free(st->cats);
	memset(st, 0, sizeof(*st));
}

/* A new block of @size bytes, kept by the store. */
static char *str_block(struct rp_strings *s, size_t size)
{
	char *b = xmalloc(size);

	s->blocks = xreallocarray(s->blocks, s->nblocks + 1, sizeof(char *));
	s->blocks[s->nblocks++] = b;
	return b;
}

/* A copy of @str (@len bytes and its NUL) packed into the store's blocks. */
static const char *str_copy(struct rp_strings *s, const char *str, size_t len)
{
	char *p;

	if (len + 1 > STR_BLOCK / 16) {
		p = str_block(s, len + 1);
	} else {
		if (!s->cur || s->used + len + 1 > STR_BLOCK) {
			s->cur = str_block(s, STR_BLOCK);
			s->used = 0;
		}
		p = s->cur + s->used;
		s->used += len + 1;
	}
	memcpy(p, str, len + 1);
	return p;
}

/* FNV-1a over @len bytes of @str. */
static size_t str_hash(const char *str, size_t len)
{
	uint64_t h = 14695981039346656037ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)str[i]) * 1099511628211ULL;
	return (size_t)h;
}

/* The hash table twice as large, every string in it again. */
static void str_grow(struct rp_strings *s)
{
	size_t n = s->nslot ? 2 * s->nslot : 1024, i;
	const char **slot = xcalloc(n, sizeof(*slot));

	for (i = 0; i < s->nslot; i++) {
		const char *str = s->slot[i];
		size_t h;

		if (!str)
			continue;
		for (h = str_hash(str, strlen(str)) & (n - 1); slot[h]; h = (h + 1) & (n - 1))
			;
		slot[h] = str;
	}
	free(s->slot);
	s->slot = slot;
	s->nslot = n;
}

const char *rp_store_intern(struct rp_store *st, const char *str)
{
	struct rp_strings *s = &st->str;
	size_t len = strlen(str), h;

	if (2 * (s->count + 1) > s->nslot)
		str_grow(s);
	for (h = str_hash(str, len) & (s->nslot - 1); s->slot[h]; h = (h + 1) & (s->nslot - 1))
		if (strcmp(s->slot[h], str) == 0)
			return s->slot[h];
	s->count++;
	return s->slot[h] = str_copy(s, str, len);
}

/* @*field, owned, replaced by the store's copy (NULL stays NULL). */
static void seal_string(struct rp_store *st, char **field)
{
	char *own = *field;

	if (own) {
		*field = (char *)rp_store_intern(st, own);
		free(own);
	}
}

void rp_store_seal(struct rp_store *st)
{
	struct rp_task *t = st->n ? &st->tasks[st->n - 1] : NULL;

	if (!t)
		return;
	if (!t->pooled) {
		seal_string(st, &t->category);
		seal_string(st, &t->command);
		seal_string(st, &t->exit_type);
		seal_string(st, &t->host);
		seal_string(st, &t->cause);
		seal_string(st, &t->detail);
		seal_string(st, &t->notes);
		seal_string(st, &t->notes_text);
		seal_string(st, &t->task_id);
		seal_string(st, &t->job);
		t->pooled = true;
	}
	/* (a task pushed from the cache is the store's already) */
	st->cats[st->n - 1] = t->category;
}

/* A copy of @path kept by the store for tasks to borrow: the last one
 * again when it is the same (a log's tasks), else a new one, packed (a
 * million paths, each different, would only fill the hash table). */
static const char *store_source(struct rp_store *st, const char *path)
{
	struct rp_strings *s = &st->str;

	if (!s->last || strcmp(s->last, path) != 0)
		s->last = str_copy(s, path, strlen(path));
	return s->last;
}

/* The capacity after @cap: double while small, then by an eighth, so that
 * a million tasks leave little room unused at the end. */
static size_t next_cap(size_t cap)
{
	if (cap < 256)
		return 256;
	return cap < (1 << 16) ? 2 * cap : cap + cap / 8;
}

/* A new last task, not set, its source @source; the one before sealed. */
static struct rp_task *append(struct rp_store *st, const char *source)
{
	rp_store_seal(st);
	if (st->n == st->cap) {
		st->cap = next_cap(st->cap);
		st->tasks = xreallocarray(st->tasks, st->cap, sizeof(struct rp_task));
		st->cats = xreallocarray(st->cats, st->cap, sizeof(*st->cats));
	}
	st->tasks[st->n].source = store_source(st, source);
	return &st->tasks[st->n++];
}

struct rp_task *rp_store_add(struct rp_store *st, const char *source)
{
	struct rp_task *t = append(st, source);
	const char *src = t->source;

	rp_task_init(t);
	t->source = src;
	st->kinds[t->kind]++;
	return t;
}

struct rp_task *rp_store_push(struct rp_store *st, const char *source,
			      const struct rp_task *from)
{
	struct rp_task *t = append(st, source);
	const char *src = t->source;

	*t = *from;
	t->source = src;
	st->kinds[t->kind]++;
	rp_store_seal(st);
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

/* The key of a task of category @cat grouped by category */
static const char *category_key(const char *cat)
{
	return cat ? cat : "default";
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
		return category_key(t->category);
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

/* The distinct keys of a grouping, found by their interned pointer. */
struct keyset {
	const char **key;	/* distinct keys, in the order first met */
	size_t n;
	size_t *slot;		/* index + 1 into key, by pointer; 0: free */
	size_t nslot;		/* a power of 2, at least twice n */
};

static size_t ptr_hash(const char *p)
{
	return (size_t)(((uint64_t)(uintptr_t)p >> 3) * 0x9e3779b97f4a7c15ULL >> 20);
}

/* The index of the interned @key in @ks, added when new. */
static size_t keyset_index(struct keyset *ks, const char *key)
{
	size_t h;

	if (2 * (ks->n + 1) > ks->nslot) {
		size_t nslot = ks->nslot ? 2 * ks->nslot : 64, i;

		free(ks->slot);
		ks->slot = xcalloc(nslot, sizeof(size_t));
		ks->nslot = nslot;
		for (i = 0; i < ks->n; i++) {
			for (h = ptr_hash(ks->key[i]) & (nslot - 1); ks->slot[h];
			     h = (h + 1) & (nslot - 1))
				;
			ks->slot[h] = i + 1;
		}
		ks->key = xreallocarray(ks->key, nslot / 2, sizeof(*ks->key));
	}
	for (h = ptr_hash(key) & (ks->nslot - 1); ks->slot[h]; h = (h + 1) & (ks->nslot - 1))
		if (ks->key[ks->slot[h] - 1] == key)
			return ks->slot[h] - 1;
	ks->key[ks->n] = key;
	ks->slot[h] = ++ks->n;
	return ks->n - 1;
}

static int by_key_name(const void *a, const void *b)
{
	return strcmp(**(const char *const *const *)a, **(const char *const *const *)b);
}

/* Each task's group: the index of its key in @ks, in @which (the
 * task's), the keys interned in @keys (a store of strings only).  A key
 * that is a string of the store's (a category) is looked up by its
 * pointer, @srcs, after its first time: a million tasks of a few
 * categories hash a few strings, not a million. */
static void group_keys(const struct rp_store *st, enum rp_by by, struct rp_store *keys,
		       struct keyset *ks, size_t *which)
{
	struct keyset srcs = { NULL, 0, NULL, 0 };
	size_t *src_at = NULL, nsrc = 0, cap = 0, i;
	char buf[256];

	for (i = 0; i < st->n; i++) {
		const char *k;
		size_t j;

		/* (every task but the last is sealed: its category is in
		 * st->cats, which is walked faster than the tasks) */
		if (by == RP_BY_CATEGORY && i + 1 < st->n)
			k = category_key(st->cats[i]);
		else
			k = group_key(&st->tasks[i], by, buf, sizeof(buf));

		if (k == buf) {		/* cut out of the command */
			which[i] = keyset_index(ks, rp_store_intern(keys, k));
			continue;
		}
		j = keyset_index(&srcs, k);
		if (j == nsrc) {	/* met for the first time */
			if (nsrc == cap) {
				cap = cap ? 2 * cap : 16;
				src_at = xreallocarray(src_at, cap, sizeof(*src_at));
			}
			src_at[nsrc++] = keyset_index(ks, rp_store_intern(keys, k));
		}
		which[i] = src_at[j];
	}
	free(src_at);
	free(srcs.key);
	free(srcs.slot);
}

/* Groups by name, each task in its group in reading order: the distinct
 * keys sorted, then the tasks dealt out (no sort of every task). */
struct rp_group *rp_store_group(const struct rp_store *st, enum rp_by by,
				size_t *n)
{
	struct keyset ks = { NULL, 0, NULL, 0 };
	size_t *which = xreallocarray(NULL, st->n ? st->n : 1, sizeof(size_t));
	const char ***order;
	size_t *rank, i;
	struct rp_store keys;
	struct rp_group *g;

	rp_store_init(&keys);
	group_keys(st, by, &keys, &ks, which);
	order = xreallocarray(NULL, ks.n ? ks.n : 1, sizeof(*order));
	rank = xreallocarray(NULL, ks.n ? ks.n : 1, sizeof(*rank));
	for (i = 0; i < ks.n; i++)
		order[i] = &ks.key[i];
	qsort(order, ks.n, sizeof(*order), by_key_name);
	g = xcalloc(ks.n ? ks.n : 1, sizeof(*g));
	for (i = 0; i < ks.n; i++) {
		rank[order[i] - ks.key] = i;
		g[i].name = xstrdup(*order[i]);
	}
	for (i = 0; i < st->n; i++)
		g[rank[which[i]]].n++;
	for (i = 0; i < ks.n; i++) {
		g[i].idx = xreallocarray(NULL, g[i].n, sizeof(size_t));
		g[i].n = 0;
	}
	for (i = 0; i < st->n; i++) {
		struct rp_group *gi = &g[rank[which[i]]];

		gi->idx[gi->n++] = i;
	}
	free(order);
	free(rank);
	free(which);
	free(ks.key);
	free(ks.slot);
	rp_store_free(&keys);
	*n = ks.n;
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
