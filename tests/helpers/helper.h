/* SPDX-License-Identifier: MIT */
/* helper.h: small shared routines of the misbehaving test helpers
 * (argument parsing, CPU burning, page touching, fatal errors).  The
 * helpers are plain programs: they print nothing unless asked and exit
 * HELPER_EXIT_USAGE on bad arguments, HELPER_EXIT_SETUP when their own
 * setup (fork, mmap, pipe...) fails. */
#ifndef TPMON_TESTS_HELPER_H
#define TPMON_TESTS_HELPER_H

#include <stddef.h>

#define HELPER_EXIT_USAGE 64
#define HELPER_EXIT_SETUP 71

#define MIB ((size_t)1 << 20)

/* Print "NAME: message: strerror(errno)" and exit HELPER_EXIT_SETUP. */
__attribute__((noreturn, format(printf, 1, 2)))
void helper_die(const char *fmt, ...);

/* Print "usage: NAME @usage" and exit HELPER_EXIT_USAGE. */
__attribute__((noreturn))
void helper_usage(const char *usage);

/* Remember argv[0] for messages. */
void helper_init(int argc, char **argv);

/* Parse a non-negative integer / number argument or exit with usage. */
long helper_arg_long(const char *text, const char *usage);
double helper_arg_double(const char *text, const char *usage);

/* Burn @ms milliseconds of this thread's CPU time in a busy loop. */
void helper_burn_cpu_ms(double ms);

/* Sleep @seconds of wall-clock time (restarting after signals). */
void helper_sleep(double seconds);

/* Monotonic clock in seconds. */
double helper_now(void);

/* Write one byte to every page of [@p, @p + @len). */
void helper_touch_pages(char *p, size_t len);

/* Read one byte of every page of [@p, @p + @len); returns their sum so that
 * the reads cannot be optimised away. */
unsigned long helper_read_pages(const char *p, size_t len);

/* Anonymous private memory of @mb MiB with every page written. */
char *helper_alloc_touched(size_t mb);

#endif
