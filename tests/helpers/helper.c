/* SPDX-License-Identifier: MIT */
/* helper.c: the shared routines of the test helpers (see helper.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"

static const char *helper_name = "helper";

void helper_init(int argc, char **argv)
{
	const char *slash;

	if (argc > 0 && argv[0]) {
		slash = strrchr(argv[0], '/');
		helper_name = slash ? slash + 1 : argv[0];
	}
}

void helper_die(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fprintf(stderr, "%s: ", helper_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (saved)
		fprintf(stderr, ": %s", strerror(saved));
	fputc('\n', stderr);
	exit(HELPER_EXIT_SETUP);
}

void helper_usage(const char *usage)
{
	fprintf(stderr, "usage: %s %s\n", helper_name, usage);
	exit(HELPER_EXIT_USAGE);
}

long helper_arg_long(const char *text, const char *usage)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < 0)
		helper_usage(usage);
	return v;
}

double helper_arg_double(const char *text, const char *usage)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !(v >= 0))
		helper_usage(usage);
	return v;
}

static double helper_clock(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) < 0)
		helper_die("clock_gettime");
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double helper_now(void)
{
	return helper_clock(CLOCK_MONOTONIC);
}

void helper_burn_cpu_ms(double ms)
{
	double end = helper_clock(CLOCK_THREAD_CPUTIME_ID) + ms / 1000.0;
	volatile unsigned long spin = 0;

	while (helper_clock(CLOCK_THREAD_CPUTIME_ID) < end) {
		for (int i = 0; i < 1000; i++)
			spin++;
	}
}

void helper_sleep(double seconds)
{
	struct timespec ts;

	if (seconds <= 0)
		return;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

void helper_touch_pages(char *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < len; off += page)
		p[off] = (char)(off / page + 1);
}

unsigned long helper_read_pages(const char *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const volatile char *v = p;
	unsigned long sum = 0;

	for (size_t off = 0; off < len; off += page)
		sum += (unsigned char)v[off];
	return sum;
}

char *helper_alloc_touched(size_t mb)
{
	char *p;

	if (mb == 0)
		return NULL;
	p = mmap(NULL, mb * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		helper_die("mmap %zu MiB", mb);
	memset(p, 0x5a, mb * MIB);
	return p;
}
