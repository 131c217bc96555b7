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

/* k[i]: how many last parts of group i's name no other group ends with. */
static void distinct_parts(const struct rp_group *g, size_t n, size_t *k)
{
	bool again = true;
	size_t i, j;

	for (i = 0; i < n; i++)
		k[i] = 1;
	while (again) {
		again = false;
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				const char *a = last_parts(g[i].name, k[i]);
				const char *b = last_parts(g[j].name, k[j]);

				if (strcmp(a, b) != 0 || (a == g[i].name && b == g[j].name))
					continue;
				k[i] += a != g[i].name;
				k[j] += b != g[j].name;
				again = true;
			}
	}
}

/* Does a group before @i have the label @s? */
static bool taken(const struct rp_group *g, size_t i, const char *s)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (strcmp(g[j].label, s) == 0)
			return true;
	return false;
}

void rp_labels_assign(struct rp_group *g, size_t n)
{
	size_t *k = xcalloc(n ? n : 1, sizeof(size_t));
	size_t i, d;

	distinct_parts(g, n, k);
	for (i = 0; i < n; i++) {
		char *shown = safetext_dup(last_parts(g[i].name, k[i]));

		free(g[i].label);
		g[i].label = rp_label_cut(shown, RP_LABEL_MAX);
		free(shown);
		for (d = 2; taken(g, i, g[i].label); d++) {
			char *base = safetext_dup(last_parts(g[i].name, k[i]));

			free(g[i].label);
			shown = rp_label_cut(base, RP_LABEL_MAX - 5);
			g[i].label = xasprintf("%s (%zu)", shown, d);
			free(shown);
			free(base);
		}
	}
	free(k);
}
