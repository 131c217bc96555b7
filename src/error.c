/* error.c: diagnostics.  Each message is formatted once and written with a
 * single write(2), so lines never interleave with the task's own output. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "error.h"

bool debug_enabled;
static int debug_fd = STDERR_FILENO;

void error_set_debug_file(const char *path)
{
	int fd;

	if (!path || !strcmp(path, ":stderr"))
		return;
	if (!strcmp(path, ":stdout")) {
		debug_fd = STDOUT_FILENO;
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		perror_msg("cannot open debug file %s", path);
	else
		debug_fd = fd;
}

ATTR_FORMAT(4, 0)
static void vmsg(int fd, const char *prefix, int err, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "tpmon: %s", prefix);

	if (n < 0)
		return;
	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (err)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, ": %s", strerror(err));
	if (n >= (int)sizeof(buf) - 1)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(fd, buf, (size_t)n) < 0) {
		/* nowhere left to report it */
	}
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
	exit(TP_EXIT_FAILURE);
}

void perror_msg_and_die(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(STDERR_FILENO, "", err, fmt, ap);
	va_end(ap);
	exit(TP_EXIT_FAILURE);
}

void debug_msg_impl(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(debug_fd, "debug: ", 0, fmt, ap);
	va_end(ap);
}
