/* SPDX-License-Identifier: MIT */
/* xmalloc.h: allocators that never return NULL (tpmon exits on OOM). */
#ifndef TPMON_XMALLOC_H
#define TPMON_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
