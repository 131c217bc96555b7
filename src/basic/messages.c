/* SPDX-License-Identifier: MIT */
/* messages.c: diagnostics.  Each message is formatted once and written with a
 * single write(2), so lines never interleave with the task's own output. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/outfile.h"

bool debug_enabled;
static int debug_fd = STDERR_FILENO;
static int die_status = TP_STATUS_FAILURE;

/* Where warn_msg() lines go.  Until the options are parsed the exit-status
 * convention (and so the destination) is unknown: lines are held. */
enum warn_dest { WARN_HOLD, WARN_STDERR, WARN_DEBUG_FILE };
static enum warn_dest warn_dest = WARN_HOLD;
static char *held;			/* owned: the lines held, held_len bytes */
static size_t held_len, held_cap;
static unsigned long held_lost;		/* lines no memory could hold */

int error_set_debug_file(const char *path)
{
	int fd;

	if (!path || !strcmp(path, ":stderr"))
		return 0;
	if (!strcmp(path, ":stdout")) {
		debug_fd = STDOUT_FILENO;
		return 0;
	}
	/* appended to, as resource_monitor does; a link there is refused, not
	 * followed, and the umask applies; another user's file in a sticky
	 * directory is refused (outfile_planted()) */
	if (outfile_planted(path) < 0) {
		error_msg("cannot open debug file %s: %s", path, outfile_strerror(errno));
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		perror_msg("cannot open debug file %s", path);
	else
		debug_fd = fd;
	return 0;
}

/* Format "tpmon: PREFIX MESSAGE[: strerror]\n" into @buf; returns its length. */
ATTR_FORMAT(4, 0)
static int format_line(char *buf, const char *prefix, int err, const char *fmt, va_list ap)
{
	int n = snprintf(buf, 1024, "tpmon: %s", prefix);

	if (n < 0)
		return 0;
	n += vsnprintf(buf + n, 1024 - (size_t)n, fmt, ap);
	if (n >= 1024)
		n = 1024 - 1;
	if (err)
		n += snprintf(buf + n, 1024 - (size_t)n, ": %s", strerror(err));
	if (n >= 1024 - 1)
		n = 1024 - 2;
	buf[n++] = '\n';
	return n;
}

static void write_line(int fd, const char *buf, size_t n)
{
	if (write(fd, buf, n) < 0) {
		/* nowhere left to report it */
	}
}

ATTR_FORMAT(4, 0)
static void vmsg(int fd, const char *prefix, int err, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = format_line(buf, prefix, err, fmt, ap);

	write_line(fd, buf, (size_t)n);
}

/* Keep line @buf (@n bytes) until the destination is known; every line
 * is kept (they come from the command line: a few), unless memory runs
 * out, which is counted. */
static void hold(const char *buf, size_t n)
{
	if (held_len + n > held_cap) {
		size_t cap = held_cap ? held_cap : 2048;
		char *p;

		while (cap < held_len + n)
			cap *= 2;
		p = realloc(held, cap);
		if (!p) {
			held_lost++;
			return;
		}
		held = p;
		held_cap = cap;
	}
	memcpy(held + held_len, buf, n);
	held_len += n;
}

void warn_msg(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = format_line(buf, "", 0, fmt, ap);
	va_end(ap);
	switch (warn_dest) {
	case WARN_HOLD:
		hold(buf, (size_t)n);
		break;
	case WARN_STDERR:
		write_line(STDERR_FILENO, buf, (size_t)n);
		break;
	case WARN_DEBUG_FILE:
		if (debug_fd != STDERR_FILENO)
			write_line(debug_fd, buf, (size_t)n);
		break;
	}
}

void error_warnings_quiet(bool quiet)
{
	warn_dest = quiet ? WARN_DEBUG_FILE : WARN_STDERR;
	if (held_len && (!quiet || debug_fd != STDERR_FILENO))
		write_line(quiet ? debug_fd : STDERR_FILENO, held, held_len);
	if (held_lost)
		warn_msg("%lu %s lost (out of memory)", held_lost,
			 PLURAL(held_lost, "warning", "warnings"));
	free(held);
	held = NULL;
	held_len = held_cap = 0;
	held_lost = 0;
}

void error_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(STDERR_FILENO, "", 0, fmt, ap);
	va_end(ap);
}

void perror_msg(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(STDERR_FILENO, "", err, fmt, ap);
	va_end(ap);
}

void error_msg_and_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(STDERR_FILENO, "", 0, fmt, ap);
	va_end(ap);
	exit(die_status);
}

void error_set_die_status(int status)
{
	die_status = status;
}

void debug_msg_impl(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(debug_fd, "debug: ", 0, fmt, ap);
	va_end(ap);
}
