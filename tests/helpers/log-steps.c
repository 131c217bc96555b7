/* SPDX-License-Identifier: MIT */
/* log-steps: hold MB1 MiB, then MB2 MiB, ... of written memory, and at
 * each step append the line "# STEP i MB T" to FILE once the memory is
 * held (after SETTLE s), then wait GAP s before the next step; T is the
 * time of the write (s since the epoch, CLOCK_REALTIME), so a test knows
 * how far apart the lines really came under any load.  For
 * --snapshot-events: a snapshot on each line must show that step's
 * memory.  Ground truth: RSS >= MBi from the line of step i to the next
 * step.
 *   usage: log-steps FILE SETTLE GAP MB1 [MB2 ...] */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "FILE SETTLE GAP MB1 [MB2 ...]"

static void append_line(const char *path, int step, long mb)
{
	char line[96];
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	struct timespec now;
	int n;

	clock_gettime(CLOCK_REALTIME, &now);
	n = snprintf(line, sizeof(line), "# STEP %d %ld %lld.%03ld\n", step, mb,
		     (long long)now.tv_sec, now.tv_nsec / 1000000);

	if (fd < 0 || write(fd, line, (size_t)n) != n)
		helper_die("append to %s", path);
	close(fd);
}

int main(int argc, char **argv)
{
	double settle, gap;
	char *held = NULL;
	long held_mb = 0;
	int i;

	helper_init(argc, argv);
	if (argc < 5)
		helper_usage(USAGE);
	settle = helper_arg_double(argv[2], USAGE);
	gap = helper_arg_double(argv[3], USAGE);
	for (i = 4; i < argc; i++) {
		long mb = helper_arg_long(argv[i], USAGE);

		/* the old block goes first: never both at once */
		if (held)
			munmap(held, (size_t)held_mb * MIB);
		held = mb ? helper_alloc_touched((size_t)mb) : NULL;
		held_mb = mb;
		helper_sleep(settle);
		append_line(argv[1], i - 3, mb);
		helper_sleep(gap);
	}
	return 0;
}
