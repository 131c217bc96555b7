/* SPDX-License-Identifier: MIT */
/* reportcmd.h: `tpmon report`, the summing-up of many tasks' summaries. */
#ifndef TPMON_REPORT_REPORT_H
#define TPMON_REPORT_REPORT_H

/* Run `tpmon report` with @argv[0] == "report".  Returns the exit status. */
int report_main(int argc, char **argv);

#endif
