/* SPDX-License-Identifier: MIT */
/* test-messages.c: warn_msg() lines written before their destination is
 * known are held, every one of them (they were cut past 2 KB), and come
 * out in order on stderr once error_warnings_quiet(false) says so; with
 * error_warnings_quiet(true) and no debug file they go nowhere. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/messages.h"
#include "tap.h"

#define LINES 200	/* about 14 KB of held lines */

static void flush_loud(void)
{
	error_warnings_quiet(false);
}

static void warn_after(void)
{
	warn_msg("after: straight to stderr");
}

static void warn_quiet(void)
{
	error_warnings_quiet(true);
	warn_msg("quiet: no debug file, nowhere");
}

/* Run @fn with stderr in a file; what it wrote there into @buf (@len at
 * most), returned length. */
static size_t capture(void (*fn)(void), char *buf, size_t len)
{
	char path[] = "/tmp/test-messages.XXXXXX";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	ssize_t n;

	if (fd < 0 || saved < 0) {
		diag("cannot redirect stderr");
		exit(1);
	}
	unlink(path);
	dup2(fd, STDERR_FILENO);
	fn();
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, buf, len - 1, 0);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? (size_t)n : 0;
}

int main(void)
{
	static char out[65536];
	char want[64];
	const char *p = out;
	int i, in_order = 1;
	size_t n;

	plan(4);
	for (i = 0; i < LINES; i++)
		warn_msg("held warning number %03d of the command line", i);
	n = capture(flush_loud, out, sizeof(out));
	ok(n == (size_t)LINES * strlen("tpmon: held warning number 000 of the command line\n"),
	   "all %d held lines come out (%zu bytes)", LINES, n);
	for (i = 0; i < LINES && p; i++) {
		snprintf(want, sizeof(want), "tpmon: held warning number %03d of", i);
		if (strncmp(p, want, strlen(want)))
			in_order = 0;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	ok(in_order && i == LINES, "in the order they were written");
	n = capture(warn_after, out, sizeof(out));
	ok(!strcmp(out, "tpmon: after: straight to stderr\n"),
	   "then a warning goes straight to stderr, alone (nothing held twice)");
	n = capture(warn_quiet, out, sizeof(out));
	ok(n == 0, "cctools mode without a debug file: nothing on stderr");
	return done();
}
