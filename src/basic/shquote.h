/* SPDX-License-Identifier: MIT */
/* shquote.h: a command line (argv) as one string that a POSIX shell reads
 * back into the same words: the summary's `command` and what shows it.
 * Pure. */
#ifndef TPMON_SHQUOTE_H
#define TPMON_SHQUOTE_H

#include <stdbool.h>

/* Does @word read back as itself unquoted?  Not empty, and only letters,
 * digits and @%+=:,./_- (Python's shlex.quote() leaves the same alone). */
bool shquote_plain(const char *word);

/* The words of @argv (NULL-terminated), blank-separated, each that is not
 * plain in single quotes (a quote inside as '"'"').  Newly allocated:
 * the caller frees it. */
char *shquote_argv(char *const *argv);

#endif
