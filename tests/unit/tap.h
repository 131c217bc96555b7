/* SPDX-License-Identifier: MIT */
/* tap.h: a tiny Test Anything Protocol helper for tpmon's C unit tests.
 * Use: plan(N); ok(cond, "what"); is_double(got, want, tol, "what"); ...
 * and end main() with `return done();`, which is nonzero when a test
 * failed or the number run differs from the plan. */
#ifndef TPMON_TAP_H
#define TPMON_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_planned = -1;
static int tap_run;
static int tap_failed;

#define TAP_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Announce @n tests; without a plan, done() prints one at the end. */
static inline void plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

/* A "# ..." comment line, for context after a failure. */
static inline TAP_PRINTF(1, 2) void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* Print one result; control characters and '#' in the description are
 * replaced so that a hostile test input cannot break the TAP stream. */
static inline TAP_PRINTF(2, 0) bool tap_vok(bool cond, const char *fmt,
					    va_list ap)
{
	char desc[512];
	size_t i;

	vsnprintf(desc, sizeof(desc), fmt, ap);
	for (i = 0; desc[i]; i++)
		if ((unsigned char)desc[i] < 0x20 || desc[i] == 0x7f ||
		    desc[i] == '#')
			desc[i] = '?';
	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_run, desc);
	fflush(stdout);
	return cond;
}

/* One test: passes when @cond is true.  Returns @cond. */
static inline TAP_PRINTF(2, 3) bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vok(cond, fmt, ap);
	va_end(ap);
	return r;
}

/* Passes when |@got - @want| <= @tol (and neither is NaN). */
static inline TAP_PRINTF(4, 5) bool is_double(double got, double want,
					      double tol, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vok(fabs(got - want) <= tol, fmt, ap);
	va_end(ap);
	if (!r)
		diag("got %.17g, want %.17g (tolerance %g)", got, want, tol);
	return r;
}

/* Passes when @got == @want. */
static inline TAP_PRINTF(3, 4) bool is_int(long long got, long long want,
					   const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vok(got == want, fmt, ap);
	va_end(ap);
	if (!r)
		diag("got %lld, want %lld", got, want);
	return r;
}

/* Passes when the strings are equal. */
static inline TAP_PRINTF(3, 4) bool is_str(const char *got, const char *want,
					   const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vok(got && want && strcmp(got, want) == 0, fmt, ap);
	va_end(ap);
	if (!r)
		diag("got \"%s\", want \"%s\"", got ? got : "(null)",
		     want ? want : "(null)");
	return r;
}

/* Passes when @haystack contains @needle. */
static inline TAP_PRINTF(3, 4) bool like(const char *haystack,
					 const char *needle,
					 const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vok(haystack && strstr(haystack, needle), fmt, ap);
	va_end(ap);
	if (!r)
		diag("\"%s\" does not contain \"%s\"",
		     haystack ? haystack : "(null)", needle);
	return r;
}

/* End of the tests: the exit status for main(). */
static inline int done(void)
{
	if (tap_planned < 0)
		printf("1..%d\n", tap_run);
	else if (tap_run != tap_planned)
		diag("planned %d tests, ran %d", tap_planned, tap_run);
	if (tap_failed)
		diag("failed %d of %d tests", tap_failed, tap_run);
	fflush(stdout);
	return tap_failed || (tap_planned >= 0 && tap_run != tap_planned);
}

#endif
