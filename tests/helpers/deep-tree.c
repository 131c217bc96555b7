/* SPDX-License-Identifier: MIT */
/* deep-tree: hide data deep in a directory tree.  Makes DEPTH nested
 * directories with 10-character names (chdir one level at a time, so the
 * path may be far longer than PATH_MAX), writes MB MiB of data at the
 * bottom (fsync'd, so its blocks are allocated), then sleeps SECONDS.
 * usage: deep-tree DEPTH MB SECONDS */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "helper.h"

#define USAGE "DEPTH MB SECONDS"

int main(int argc, char **argv)
{
	long depth, mb, i;
	double secs;
	char *buf;
	int fd;

	helper_init(argc, argv);
	if (argc != 4)
		helper_usage(USAGE);
	depth = helper_arg_long(argv[1], USAGE);
	mb = helper_arg_long(argv[2], USAGE);
	secs = helper_arg_double(argv[3], USAGE);
	for (i = 0; i < depth; i++)
		if (mkdir("dddddddddd", 0777) < 0 || chdir("dddddddddd") < 0)
			helper_die("level %ld", i);
	fd = open("data", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		helper_die("open");
	buf = malloc(MIB);
	if (!buf)
		helper_die("malloc");
	memset(buf, 'x', MIB);
	for (i = 0; i < mb; i++)
		if (write(fd, buf, MIB) != (ssize_t)MIB)
			helper_die("write");
	if (fsync(fd) < 0)
		helper_die("fsync");
	close(fd);
	free(buf);
	helper_sleep(secs);
	return 0;
}
