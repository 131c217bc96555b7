/* SPDX-License-Identifier: MIT */
/* hog-vmem: map MB MiB of address space that is never touched (PROT_NONE,
 * no swap reserved) and hold it for SECONDS.  Ground truth: virtual memory
 * grows by MB while resident memory stays small; for virtual_memory limits.
 *   usage: hog-vmem MB SECONDS */
#include <sys/mman.h>

#include "helper.h"

#define USAGE "MB SECONDS"

int main(int argc, char **argv)
{
	double seconds;
	long mb;
	void *p;

	helper_init(argc, argv);
	if (argc != 3)
		helper_usage(USAGE);
	mb = helper_arg_long(argv[1], USAGE);
	seconds = helper_arg_double(argv[2], USAGE);
	if (mb < 1)
		helper_usage(USAGE);
	p = mmap(NULL, (size_t)mb * MIB, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		helper_die("mmap %ld MiB", mb);
	helper_sleep(seconds);
	munmap(p, (size_t)mb * MIB);
	return 0;
}
