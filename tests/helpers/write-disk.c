/* SPDX-License-Identifier: MIT */
/* write-disk: create files in the current directory whose blocks are
 * really allocated.  MB MiB of data spread over --files N files
 * (write-disk.0, write-disk.1...), at --rate MB/s if given; --small N more
 * one-byte files (small.0...: one block each, tiny apparent size);
 * --sparse GB a file of GB GiB apparent size and no blocks (sparse.0);
 * then sleep --hold SECONDS so a sampler sees the result.  Files are left
 * in place for the test to inspect and remove.
 *   usage: write-disk MB [--files N] [--small N] [--sparse GB]
 *                        [--rate MB_PER_S] [--hold SECONDS] */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "MB [--files N] [--small N] [--sparse GB] [--rate MB_PER_S] [--hold SECONDS]"

struct write_disk_opts {
	long mb, files, small;
	double sparse_gb, rate, hold;
};

static int create_file(const char *prefix, long i)
{
	char name[64];
	int fd;

	snprintf(name, sizeof(name), "%s.%ld", prefix, i);
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		helper_die("open %s", name);
	return fd;
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			helper_die("write");
		buf += w;
		len -= (size_t)w;
	}
}

/* Write o->mb MiB in 1 MiB chunks, round-robin over the files, paced. */
static void write_data(const struct write_disk_opts *o)
{
	static char chunk[1 << 20];
	double start = helper_now();
	int *fds;
	long i;

	if (o->mb == 0)
		return;
	memset(chunk, 0xa5, sizeof(chunk));
	fds = calloc((size_t)o->files, sizeof(*fds));
	if (!fds)
		helper_die("calloc");
	for (i = 0; i < o->files; i++)
		fds[i] = create_file("write-disk", i);
	for (i = 0; i < o->mb; i++) {
		if (o->rate > 0) {
			double due = start + (double)i / o->rate;

			helper_sleep(due - helper_now());
		}
		write_all(fds[i % o->files], chunk, sizeof(chunk));
	}
	for (i = 0; i < o->files; i++)
		if (fsync(fds[i]) < 0 || close(fds[i]) < 0)
			helper_die("fsync/close");
	free(fds);
}

static void write_small(long n)
{
	for (long i = 0; i < n; i++) {
		int fd = create_file("small", i);

		write_all(fd, "x", 1);
		close(fd);
	}
}

static void write_sparse(double gb)
{
	int fd;

	if (gb <= 0)
		return;
	fd = create_file("sparse", 0);
	if (ftruncate(fd, (off_t)(gb * 1024.0 * 1024.0 * 1024.0)) < 0)
		helper_die("ftruncate");
	close(fd);
}

static const char *next_arg(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		helper_usage(USAGE);
	return argv[++*i];
}

int main(int argc, char **argv)
{
	struct write_disk_opts o = { .files = 1 };
	int i;

	helper_init(argc, argv);
	if (argc < 2)
		helper_usage(USAGE);
	o.mb = helper_arg_long(argv[1], USAGE);
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--files") == 0)
			o.files = helper_arg_long(next_arg(argc, argv, &i), USAGE);
		else if (strcmp(argv[i], "--small") == 0)
			o.small = helper_arg_long(next_arg(argc, argv, &i), USAGE);
		else if (strcmp(argv[i], "--sparse") == 0)
			o.sparse_gb = helper_arg_double(next_arg(argc, argv, &i), USAGE);
		else if (strcmp(argv[i], "--rate") == 0)
			o.rate = helper_arg_double(next_arg(argc, argv, &i), USAGE);
		else if (strcmp(argv[i], "--hold") == 0)
			o.hold = helper_arg_double(next_arg(argc, argv, &i), USAGE);
		else
			helper_usage(USAGE);
	}
	if (o.files < 1)
		helper_usage(USAGE);
	write_data(&o);
	write_small(o.small);
	write_sparse(o.sparse_gb);
	helper_sleep(o.hold);
	return 0;
}
