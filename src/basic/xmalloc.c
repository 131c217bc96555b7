/* SPDX-License-Identifier: MIT */
/* xmalloc.c: allocation wrappers; out of memory is fatal for the monitor. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/messages.h"
#include "basic/xmalloc.h"

static void *check(void *p)
{
	if (!p)
		error_msg_and_die("out of memory");
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1));
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	size_t bytes;

	if (size && n > (size_t)-1 / size)
		error_msg_and_die("out of memory");
	bytes = n * size;
	return check(realloc(p, bytes ? bytes : 1));
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		error_msg_and_die("out of memory");
	return s;
}
