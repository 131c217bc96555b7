/* SPDX-License-Identifier: MIT */
/* editdist.h: how far apart two words are (optimal string alignment, the
 * Damerau-Levenshtein distance without moves across a transposition), and
 * the nearest of a list: the "did you mean" of every slip a user makes
 * (options, subcommands, resource names).  Pure functions. */
#ifndef TPMON_EDITDIST_H
#define TPMON_EDITDIST_H

#include <getopt.h>
#include <stddef.h>

/* Longest word compared; a longer one is far from everything. */
#define EDITDIST_MAX_LEN 64

/* Insertions, deletions, substitutions and swaps of two neighbours that
 * turn @a into @b; SIZE_MAX when either is longer than EDITDIST_MAX_LEN. */
size_t editdist(const char *a, const char *b);

/* The name of @names (@n of them, NULL entries skipped) nearest to @word,
 * borrowed from @names, or NULL when none is near enough to be a slip:
 * at most 1 edit for words of up to 3 letters, 2 up to 6, 3 beyond, and
 * fewer edits than the word has letters.  A tie goes to the first. */
const char *editdist_nearest(const char *word, const char *const *names, size_t n);

/* The long option of getopt_long()'s @opts ({0}-ended) nearest to @arg,
 * an unknown "--word" or "--word=value", or NULL (none near, or @arg no
 * long option): the "did you mean" of the subcommands' options. */
const char *editdist_long_option(const char *arg, const struct option *opts);

#endif
