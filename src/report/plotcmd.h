/* SPDX-License-Identifier: MIT */
/* plotcmd.h: `tpmon plot TEMPLATE [-o FILE.png|FILE.svg]`, the series of a
 * run drawn by gnuplot. */
#ifndef TPMON_PLOT_H
#define TPMON_PLOT_H

/* The subcommand; argv[0] is "plot".  Returns the exit status: 0, 1 for
 * bad input or a failed gnuplot, 2 for bad usage. */
int plot_main(int argc, char **argv);

#endif
