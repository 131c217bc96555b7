/* SPDX-License-Identifier: MIT */
/* safetext.h: untrusted text (a command line, a file name, any field of an
 * input file) in a form that can only be shown: what a terminal, a plot or
 * a page would act on instead of showing is written as an escape. */
#ifndef TPMON_SAFETEXT_H
#define TPMON_SAFETEXT_H

#include <stddef.h>
#include <stdio.h>

/* The shown form of @s, newly allocated: valid UTF-8 in which every C0
 * and C1 control character and DEL is an escape (\n, \r, \t, \b, \a, \f,
 * \v, else \xHH or \u0085), every bidirectional control (U+061C,
 * U+200E-200F, U+202A-202E, U+2066-2069) is \uXXXX, and every byte that is
 * not part of valid UTF-8 is \xHH.  Anything else, backslashes included,
 * is copied as it is.  The caller frees it. */
char *safetext_dup(const char *s);

/* As safetext_dup(), cut to at most @max bytes at a character boundary,
 * with "..." added (within @max, which must be at least 3) when cut. */
char *safetext_clip(const char *s, size_t max);

/* Write the shown form of @s to @f. */
void safetext_put(FILE *f, const char *s);

/* A copy of @s, newly allocated, with every byte that is not part of
 * valid UTF-8 replaced by U+FFFD; nothing else changed (for data formats:
 * CSV). */
char *safetext_utf8(const char *s);

/* Is @s valid UTF-8 with no byte that safetext_dup() would change? */
int safetext_is_plain(const char *s);

#endif
