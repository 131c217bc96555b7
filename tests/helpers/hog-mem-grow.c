/* SPDX-License-Identifier: MIT */
/* hog-mem-grow: grow written memory by MB_PER_S MiB per second, in steps of
 * 10 ms, up to MAX_MB MiB, then hold it for HOLD seconds (default 1).  For
 * memory limits: a task just over or just under a limit, and how far past
 * the limit a fast allocator gets before it is stopped.
 *   usage: hog-mem-grow MB_PER_S MAX_MB [HOLD] */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "MB_PER_S MAX_MB [HOLD]"
#define STEP_S 0.01

int main(int argc, char **argv)
{
	double rate, hold = 1.0, start;
	size_t max, done = 0, page = (size_t)sysconf(_SC_PAGESIZE);
	long max_mb;
	char *p;

	helper_init(argc, argv);
	if (argc < 3 || argc > 4)
		helper_usage(USAGE);
	rate = helper_arg_double(argv[1], USAGE);
	max_mb = helper_arg_long(argv[2], USAGE);
	if (argc == 4)
		hold = helper_arg_double(argv[3], USAGE);
	if (rate <= 0 || max_mb == 0)
		helper_usage(USAGE);
	max = (size_t)max_mb * MIB;

	/* Reserve the address space once; pages count only when written. */
	p = mmap(NULL, max, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		helper_die("mmap %ld MiB", max_mb);
	start = helper_now();
	while (done < max) {
		double target_mb = (helper_now() - start + STEP_S) * rate;
		size_t want = target_mb >= (double)max_mb ? max : (size_t)(target_mb * (double)MIB);
		want -= want % page;
		if (want > done) {
			helper_touch_pages(p + done, want - done);
			done = want;
		}
		helper_sleep(STEP_S);
	}
	helper_sleep(hold);
	return 0;
}
