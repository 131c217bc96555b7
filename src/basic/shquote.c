/* SPDX-License-Identifier: MIT */
/* shquote.c: argv quoted as a POSIX shell reads it back (see shquote.h):
 * `sh -c 'exit 3'` is shown and stored as typed, not as `sh -c exit 3`. */
#include <string.h>
#include "basic/shquote.h"
#include "basic/xmalloc.h"

/* A quote inside single quotes: close, a double-quoted one, reopen. */
#define QUOTE_IN "'\"'\"'"

bool shquote_plain(const char *word)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789@%+=:,./_-";

	return word[0] && strspn(word, safe) == strlen(word);
}

/* The bytes @word takes quoted. */
static size_t quoted_len(const char *word)
{
	size_t n = 2;
	const char *p;

	if (shquote_plain(word))
		return strlen(word);
	for (p = word; *p; p++)
		n += *p == '\'' ? sizeof(QUOTE_IN) - 1 : 1;
	return n;
}

/* @word quoted at @out; returns the end. */
static char *put_quoted(char *out, const char *word)
{
	const char *p;

	if (shquote_plain(word)) {
		size_t n = strlen(word);

		memcpy(out, word, n);
		return out + n;
	}
	*out++ = '\'';
	for (p = word; *p; p++) {
		if (*p == '\'') {
			memcpy(out, QUOTE_IN, sizeof(QUOTE_IN) - 1);
			out += sizeof(QUOTE_IN) - 1;
		} else {
			*out++ = *p;
		}
	}
	*out++ = '\'';
	return out;
}

char *shquote_argv(char *const *argv)
{
	size_t len = 1, i;
	char *s, *p;

	for (i = 0; argv[i]; i++)
		len += quoted_len(argv[i]) + 1;
	s = p = xmalloc(len);
	for (i = 0; argv[i]; i++) {
		if (i)
			*p++ = ' ';
		p = put_quoted(p, argv[i]);
	}
	*p = '\0';
	return s;
}
