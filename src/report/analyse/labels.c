/* SPDX-License-Identifier: MIT */
/* labels.c: each group's one shown name, computed once for all groups:
 * the shortest distinct ':'-suffix, cut at word boundaries, unique. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "report/analyse/labels.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

/* Characters (not bytes) of UTF-8 @s's first @len bytes. */
static size_t chars(const char *s, size_t len)
{
	size_t i, c = 0;

	for (i = 0; i < len; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

static bool is_sep(char c)
{
	return c == ':' || c == '_' || c == '-' || c == '.' || c == ' ' || c == '/';
}

/* Where the shortest tail of @s (@n bytes) that starts a word and has at
 * most @max characters begins; failing that, where its last @max
 * characters begin. */
static size_t tail_start(const char *s, size_t n, size_t max)
{
	size_t w, cut = n;

	for (w = n; w > 0; w--)
		if (is_sep(s[w - 1]) && w < n && chars(s + w, n - w) <= max)
			cut = w;
	if (cut < n)
		return cut;
	for (w = n; w > 0 && chars(s + w - 1, n - w + 1) <= max; w--)
		;
	while (w < n && ((unsigned char)s[w] & 0xC0) == 0x80)
		w++;
	return w;
}

/* The bytes of the longest head of @s, ending before a separator at or
 * under @end, with at most @max characters; failing that, its first @max
 * characters. */
static size_t head_end(const char *s, size_t end, size_t max)
{
	size_t h, best = 0;

	for (h = 1; h < end; h++)
		if (is_sep(s[h]) && chars(s, h) <= max)
			best = h;
	if (best > 0)
		return best;
	for (h = 0; h < end && chars(s, h + 1) <= max; h++)
		;
	while (h > 0 && ((unsigned char)s[h] & 0xC0) == 0x80)
		h--;
	return h;
}

char *rp_label_cut(const char *s, size_t max)
{
	size_t n = strlen(s), t, h;

	if (chars(s, n) <= max || max < 4)
		return xstrdup(s);
	t = tail_start(s, n, max * 2 / 3);
	h = head_end(s, t, max - 2 - chars(s + t, n - t));
	return xasprintf("%.*s..%s", (int)h, s, s + t);
}

/* The last @k ':'-separated parts of @s. */
static const char *last_parts(const char *s, size_t k)
{
	const char *p = s + strlen(s);

	while (p > s) {
		if (p[-1] == ':' && --k == 0)
			return p;
		p--;
	}
	return s;
}

/* For sorting the groups by their current suffixes. */
struct suffix {
	const char *s;
	size_t i;
};

static int by_suffix(const void *a, const void *b)
{
	return strcmp(((const struct suffix *)a)->s, ((const struct suffix *)b)->s);
}

/* k[i]: how many last parts of group i's name no other group ends with.
 * Each round sorts the current suffixes and lengthens those that clash
 * (and are not the whole name): n log n a round, not n^2. */
static void distinct_parts(const struct rp_group *g, size_t n, size_t *k)
{
	struct suffix *x = xreallocarray(NULL, n ? n : 1, sizeof(*x));
	bool again = true;
	size_t i, j, e;

	for (i = 0; i < n; i++)
		k[i] = 1;
	while (again) {
		again = false;
		for (i = 0; i < n; i++)
			x[i] = (struct suffix){ last_parts(g[i].name, k[i]), i };
		qsort(x, n, sizeof(*x), by_suffix);
		for (i = 0; i < n; i = e) {
			for (e = i + 1; e < n && strcmp(x[e].s, x[i].s) == 0; e++)
				;
			for (j = i; e - i > 1 && j < e; j++)
				if (x[j].s != g[x[j].i].name) {
					k[x[j].i]++;
					again = true;
				}
		}
	}
	free(x);
}

static int by_label(const void *a, const void *b)
{
	const struct suffix *x = a, *y = b;
	int c = strcmp(x->s, y->s);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* Group @i's label numbered @d: its cut suffix and " (d)". */
static void number(struct rp_group *g, size_t i, size_t k, size_t d)
{
	char *base = safetext_dup(last_parts(g[i].name, k));
	char *cut = rp_label_cut(base, RP_LABEL_MAX - 5);

	free(g[i].label);
	g[i].label = xasprintf("%s (%zu)", cut, d);
	free(cut);
	free(base);
}

/* Number the labels that are alike, all but the first of each run (by
 * group order), until none is: a label renumbered only ever gets a larger
 * number, so this ends. */
static void make_unique(struct rp_group *g, size_t n, const size_t *k)
{
	struct suffix *x = xreallocarray(NULL, n ? n : 1, sizeof(*x));
	size_t *d = xcalloc(n ? n : 1, sizeof(size_t));
	bool again = true;
	size_t i, j, e;

	while (again) {
		again = false;
		for (i = 0; i < n; i++)
			x[i] = (struct suffix){ g[i].label, i };
		qsort(x, n, sizeof(*x), by_label);
		for (i = 0; i < n; i = e) {
			for (e = i + 1; e < n && strcmp(x[e].s, x[i].s) == 0; e++)
				;
			for (j = i + 1; j < e; j++) {
				size_t t = x[j].i;

				d[t] = d[t] ? d[t] + (e - i) : j - i + 1;
				number(g, t, k[t], d[t]);
				again = true;
			}
		}
	}
	free(d);
	free(x);
}

void rp_labels_assign(struct rp_group *g, size_t n)
{
	size_t *k = xcalloc(n ? n : 1, sizeof(size_t));
	size_t i;

	distinct_parts(g, n, k);
	for (i = 0; i < n; i++) {
		char *shown = safetext_dup(last_parts(g[i].name, k[i]));

		free(g[i].label);
		g[i].label = rp_label_cut(shown, RP_LABEL_MAX);
		free(shown);
	}
	make_unique(g, n, k);
	free(k);
}
