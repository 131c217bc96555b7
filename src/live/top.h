/* SPDX-License-Identifier: MIT */
/* top.h: `tpmon top`, the running tasks of this user (their runtime
 * files, see livedir.h) on a terminal, or as plain lines for scripts. */
#ifndef TPMON_TOP_H
#define TPMON_TOP_H

/* argv[0] is "top".  The exit status. */
int top_main(int argc, char **argv);

#endif
