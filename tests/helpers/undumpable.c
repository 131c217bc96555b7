/* SPDX-License-Identifier: MIT */
/* undumpable: make itself non-dumpable (prctl PR_SET_DUMPABLE 0), so that
 * its /proc/PID/fd and fdinfo are root's and another process of the same
 * user may not read them, write what PR_GET_DUMPABLE then says to FILE
 * (the ground truth: "0"), and sleep SECONDS.
 *   usage: undumpable FILE SECONDS */
#include <stdio.h>
#include <sys/prctl.h>

#include "helper.h"

#define USAGE "FILE SECONDS"

int main(int argc, char **argv)
{
	double s;
	FILE *f;

	helper_init(argc, argv);
	if (argc != 3)
		helper_usage(USAGE);
	s = helper_arg_double(argv[2], USAGE);
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
		helper_die("prctl PR_SET_DUMPABLE");
	f = fopen(argv[1], "w");
	if (!f)
		helper_die("%s", argv[1]);
	fprintf(f, "%d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
	fclose(f);
	helper_sleep(s);
	return 0;
}
