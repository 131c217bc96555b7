/* SPDX-License-Identifier: MIT */
/* messages.h: one-line diagnostics on stderr ("tpmon: ..."), shared with the task;
 * warnings that cctools mode keeps off the task's output. */
#ifndef TPMON_BASIC_MESSAGES_H
#define TPMON_BASIC_MESSAGES_H

#include <stdbool.h>
#include "basic/compat.h"

/* Exit statuses of tpmon's own failures (task mode, see doc/tpmon.1);
 * not the summary's exit_type (enum tp_exit_type, measure/figures.h). */
enum {
	TP_STATUS_LIMIT = 124,
	TP_STATUS_FAILURE = 125,
	TP_STATUS_NOEXEC = 126,
	TP_STATUS_NOTFOUND = 127,
};

extern bool debug_enabled;

/* Debug lines (-o) appended to @path (":stdout", ":stderr").  -1 after
 * one message when outfile_planted() refuses @path, else 0 (a file that
 * cannot be opened is said, and stderr kept). */
int error_set_debug_file(const char *path);
void error_msg(const char *fmt, ...) ATTR_FORMAT(1, 2);
void perror_msg(const char *fmt, ...) ATTR_FORMAT(1, 2);
/* Prints, then exits with the status set by error_set_die_status()
 * (TP_STATUS_FAILURE until then). */
void error_msg_and_die(const char *fmt, ...) ATTR_FORMAT(1, 2) ATTR_NORETURN;
/* The status of a fatal error: main() sets it once the mode is known
 * (cctools mode: 4, resource_monitor's monitor error). */
void error_set_die_status(int status);
/* A note or warning that does not stop tpmon.  On stderr in tpmon's own
 * mode; in cctools mode (where stderr is the task's output that the engine
 * returns) only in the -o debug file, or nowhere.  Lines written before
 * error_warnings_quiet() is called are held until then. */
void warn_msg(const char *fmt, ...) ATTR_FORMAT(1, 2);
void error_warnings_quiet(bool quiet);
void debug_msg_impl(const char *fmt, ...) ATTR_FORMAT(1, 2);

#define debug_msg(...) do { if (debug_enabled) debug_msg_impl(__VA_ARGS__); } while (0)

#endif
