/* SPDX-License-Identifier: MIT */
/* test-editdist.c: unit tests of editdist.c, the distance behind every
 * "did you mean": exact distances, and which slips find their word. */
#include <stdint.h>
#include <string.h>

#include "basic/compat.h"
#include "basic/editdist.h"
#include "tap.h"

struct dist_case {
	const char *a, *b;
	size_t want;
};

static const struct dist_case dists[] = {
	{ "", "", 0 }, { "", "top", 3 }, { "plot", "", 4 },
	{ "limits", "limits", 0 },
	{ "limts", "limits", 1 },		/* a letter left out */
	{ "with-timeseries", "with-time-series", 1 },
	{ "raport", "report", 1 },		/* one replaced */
	{ "memmory", "memory", 1 },		/* one too many */
	{ "tpo", "top", 1 },			/* two swapped */
	{ "ca", "abc", 3 },			/* OSA: no edit after a swap */
	{ "kitten", "sitting", 3 },
};

static const char *const subs[] = { "report", "plot", "top", "help" };

struct near_case {
	const char *word, *want;	/* want NULL: nothing near */
};

static const struct near_case nears[] = {
	{ "raport", "report" }, { "reprot", "report" }, { "plto", "plot" },
	{ "tpo", "top" }, { "hlep", "help" }, { "top", "top" },
	{ "t", NULL },			/* one letter: only itself */
	{ "ls", NULL }, { "python3", NULL }, { "sleep", NULL },
	{ "make", NULL }, { "", NULL },
};

int main(void)
{
	char longer[EDITDIST_MAX_LEN + 2];
	size_t i;

	plan((int)(ARRAY_SIZE(dists) * 2 + ARRAY_SIZE(nears) + 2));
	for (i = 0; i < ARRAY_SIZE(dists); i++) {
		ok(editdist(dists[i].a, dists[i].b) == dists[i].want, "%s -> %s: %zu",
		   dists[i].a, dists[i].b, dists[i].want);
		ok(editdist(dists[i].b, dists[i].a) == dists[i].want, "%s -> %s: symmetric",
		   dists[i].b, dists[i].a);
	}
	for (i = 0; i < ARRAY_SIZE(nears); i++) {
		const char *got = editdist_nearest(nears[i].word, subs, ARRAY_SIZE(subs));

		ok(nears[i].want ? got && !strcmp(got, nears[i].want) : !got,
		   "\"%s\" is near %s (got %s)", nears[i].word,
		   nears[i].want ? nears[i].want : "nothing", got ? got : "nothing");
	}
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	ok(editdist(longer, "a") == SIZE_MAX, "a word over the longest compared is far");
	ok(editdist_nearest("aa", (const char *const[]){ NULL, "ab" }, 2) != NULL,
	   "NULL entries are skipped");
	return done();
}
