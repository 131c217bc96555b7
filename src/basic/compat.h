/* SPDX-License-Identifier: MIT */
/* compat.h: small portability and convenience macros shared by all files. */
#ifndef TPMON_COMPAT_H
#define TPMON_COMPAT_H

#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ATTR_FORMAT(f, a) __attribute__((format(printf, f, a)))
#define ATTR_NORETURN __attribute__((noreturn))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
/* "1 process", "2 processes": @one when @n is 1, else @many */
#define PLURAL(n, one, many) ((n) == 1 ? (one) : (many))

#endif
