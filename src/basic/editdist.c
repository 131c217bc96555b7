/* SPDX-License-Identifier: MIT */
/* editdist.c: the edit distance of two words and the nearest of a list
 * (see editdist.h), on three rows of the usual table, no allocation. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "basic/editdist.h"

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t editdist(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	/* rows i-2, i-1 and i of the table: d[i][j] for a[0..i) and b[0..j) */
	size_t rows[3][EDITDIST_MAX_LEN + 1];

	if (la > EDITDIST_MAX_LEN || lb > EDITDIST_MAX_LEN)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3], *prev = rows[(i - 1) % 3], *prev2 = rows[(i - 2) % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
	}
	return rows[la % 3][lb];
}

/* The most edits that still read as a slip of @word. */
static size_t slip_max(const char *word)
{
	size_t len = strlen(word);
	size_t max = len <= 3 ? 1 : len <= 6 ? 2 : 3;

	return max < len ? max : (len ? len - 1 : 0);
}

const char *editdist_nearest(const char *word, const char *const *names, size_t n)
{
	size_t best = slip_max(word) + 1, i;
	const char *found = NULL;

	for (i = 0; i < n; i++) {
		size_t d;

		if (!names[i])
			continue;
		d = editdist(word, names[i]);
		if (d < best) {
			best = d;
			found = names[i];
		}
	}
	return found;
}

const char *editdist_long_option(const char *arg, const struct option *opts)
{
	char word[EDITDIST_MAX_LEN + 1];
	const char *names[64];
	size_t n = 0, len;

	if (!arg || strncmp(arg, "--", 2) != 0)
		return NULL;
	len = strcspn(arg + 2, "=");
	if (len == 0 || len > EDITDIST_MAX_LEN)
		return NULL;
	snprintf(word, sizeof(word), "%.*s", (int)len, arg + 2);
	for (; opts->name && n < sizeof(names) / sizeof(names[0]); opts++)
		names[n++] = opts->name;
	return editdist_nearest(word, names, n);
}
