/* SPDX-License-Identifier: MIT */
/* exit-with: exit with status CODE (0-255); further arguments are ignored,
 * so hostile arguments can ride along.
 *   usage: exit-with CODE [IGNORED...] */
#include <stdlib.h>

#include "helper.h"

int main(int argc, char **argv)
{
	long code;

	helper_init(argc, argv);
	if (argc < 2)
		helper_usage("CODE [IGNORED...]");
	code = helper_arg_long(argv[1], "CODE [IGNORED...]");
	if (code > 255)
		helper_usage("CODE [IGNORED...]");
	return (int)code;
}
