/* SPDX-License-Identifier: MIT */
/* options.h: the command line, parsed once into one const struct that the
 * rest of tpmon reads. */
#ifndef TPMON_OPTIONS_H
#define TPMON_OPTIONS_H

#include <stdbool.h>
#include <sys/types.h>
#include "config/limitset.h"

/* The tracking mode: how the tree is followed.  The one type for it: the
 * option (--tracking; AUTO until main() resolves it), the backend that
 * follows the tree (tp_track_ops.kind), the summary and the figures'
 * quality.  ATTACH is the ptrace backend on a tree found running (--pid). */
enum tp_tracking {
	TP_TRACK_AUTO,		/* the best this host and user allow (default) */
	TP_TRACK_PTRACE,	/* ptrace events from each birth */
	TP_TRACK_POLL,		/* /proc scans at each sample */
	TP_TRACK_CGROUP,	/* the processes of the task's cgroup, no stops */
	TP_TRACK_ATTACH,	/* --pid: ptrace from the attach on */
	TP_TRACK__COUNT
};

/* A mode's row, the one place its name and its properties are spelled:
 * the option, the summary's "tracking" (the backend's mode), the debug
 * output and the launcher all read it. */
struct tp_tracking_info {
	const char *name;	/* --tracking's and the summary's word */
	bool option;		/* --tracking takes it */
	bool ptrace;		/* the task is traced from its start */
	bool members;		/* the task's cgroup's members are the tree */
};

/* The row of mode @t (< TP_TRACK__COUNT). */
const struct tp_tracking_info *tracking_info(enum tp_tracking t);
/* (values 0 and 1 in the order --exit-codes names them) */
/* --cgroup: find one (default), none, or the one named */
enum tp_cgroup_mode { TP_CGROUP_AUTO, TP_CGROUP_NO, TP_CGROUP_PATH };
enum tp_exit_codes { TP_CODES_TASK = 0, TP_CODES_CCTOOLS = 1 };

/* A -V field: "key: value" split at its first colon, blanks trimmed. */
struct tp_field {
	char *key, *value;		/* owned */
};

struct tp_options {
	char **argv;			/* the task; argv[0] is the command */
	const char *sh;			/* --sh string, or NULL */
	char *command;			/* the command line as text, for the summary */
	char *template;			/* output files: TEMPLATE.summary ... */
	double interval;		/* longest time between samples, s */
	double kill_grace;		/* SIGTERM -> SIGKILL, s */
	struct tp_limits limits;
	bool measure_only;
	bool pprint;
	bool disk;			/* measure the disk footprint */
	bool input;			/* --with-input-size */
	const char **measure_dirs;	/* NULL-terminated, owned */
	bool time_series;
	bool update_summary;		/* --update-summary: checkpoint every interval */
	const char *snapshot_events;	/* --snapshot-events FILE, or NULL */
	pid_t pid;			/* --pid: follow this running process, or 0 */
	bool inotify;
	bool process_records;		/* TEMPLATE.processes */
	bool trace;			/* TEMPLATE.trace.json */
	bool quiet;			/* no summary on a terminal */
	enum tp_tracking tracking;	/* main() resolves AUTO before the run */
	bool tracking_forced;		/* --tracking= given */
	const char *tracking_reason;	/* why this mode, in words (main()'s,
					 * borrowed), or NULL */
	enum tp_cgroup_mode cgroup;
	const char *cgroup_path;	/* --cgroup=PATH, else NULL */
	enum tp_exit_codes exit_codes;
	struct tp_field *verbatim;	/* -V fields, split once, owned */
	size_t nverbatim;
	/* live figures while the task runs (src/live) */
	bool live;			/* the runtime file (--no-live: false) */
	const char *metrics_dir;	/* --metrics-dir, or NULL */
	const char *influxdb;		/* --influxdb URL, or NULL */
	const char *catalog;		/* --catalog HOST[:PORT],..., or NULL */
	const char *catalog_task_name;	/* --catalog-task-name: the catalog is on */
	const char *catalog_project;	/* --catalog-project, or NULL */
	double catalog_interval;	/* --catalog-interval, s; 0: default */
};

/* Parse argv into @o.  Returns 0 to run, 1 when --help/--version was
 * served (exit 0), or -1 after printing a one-line error (exit 125). */
int options_parse(struct tp_options *o, int argc, char **argv);

void options_free(struct tp_options *o);

/* --help, on stdout. */
void options_usage(void);


#endif
