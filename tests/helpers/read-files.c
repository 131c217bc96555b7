/* SPDX-License-Identifier: MIT */
/* read-files: linked statically (no dynamic loader, so no library is
 * opened); opens, reads and stats files as its arguments say, in order,
 * for the input_size tests.
 *   r:PATH  open O_RDONLY, read to the end
 *   u:PATH  open O_RDWR, read to the end
 *   w:PATH  open O_WRONLY, write nothing
 *   s:PATH  stat only
 *   g:PATH  open O_RDONLY, then append 1 MiB through another descriptor
 *           (O_WRONLY), then read to the end: grown after the open
 *   n:PATH  open O_RDONLY|O_NONBLOCK (a FIFO with no writer), read once
 *   z:PATH  open O_RDONLY, read 1 MiB (a device: /dev/zero)
 *   usage: read-files OP:PATH... */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "{r|u|w|s|g|n|z}:PATH..."

static char buf[65536];

/* Read @fd to its end, or @max bytes (0: no bound). */
static void drain(int fd, size_t max)
{
	size_t total = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		total += (size_t)n;
		if (max && total >= max)
			break;
	}
}

static int xopen(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		helper_die("open %s", path);
	return fd;
}

/* Append 1 MiB to @path through a descriptor of its own. */
static void grow(const char *path)
{
	int fd = xopen(path, O_WRONLY | O_APPEND);
	size_t i;

	memset(buf, 'g', sizeof(buf));
	for (i = 0; i < MIB / sizeof(buf); i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			helper_die("write %s", path);
	close(fd);
}

static void one(char op, const char *path)
{
	struct stat st;
	int fd = -1;

	switch (op) {
	case 'r': fd = xopen(path, O_RDONLY); drain(fd, 0); break;
	case 'u': fd = xopen(path, O_RDWR); drain(fd, 0); break;
	case 'w': fd = xopen(path, O_WRONLY); break;
	case 's':
		if (stat(path, &st) < 0)
			helper_die("stat %s", path);
		break;
	case 'g': fd = xopen(path, O_RDONLY); grow(path); drain(fd, 0); break;
	case 'n': fd = xopen(path, O_RDONLY | O_NONBLOCK); drain(fd, 1); break;
	case 'z': fd = xopen(path, O_RDONLY); drain(fd, MIB); break;
	default: helper_usage(USAGE);
	}
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	int i;

	helper_init(argc, argv);
	if (argc < 2)
		helper_usage(USAGE);
	for (i = 1; i < argc; i++) {
		if (strlen(argv[i]) < 3 || argv[i][1] != ':')
			helper_usage(USAGE);
		one(argv[i][0], argv[i] + 2);
	}
	return 0;
}
