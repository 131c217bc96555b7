/* SPDX-License-Identifier: MIT */
/* tpmon.c: main(): options -> monitor -> summary -> exit status. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/brief.h"
#include "output/lostnote.h"
#include "cgroup/cgrun.h"
#include "cgroup/cgroup.h"
#include "track/forkexec.h"
#include "basic/editdist.h"
#include "measure/disk.h"
#include "basic/messages.h"
#include "basic/clock.h"
#include "program/monitor.h"
#include "config/options.h"
#include "basic/outfile.h"
#include "basic/phases.h"
#include "report/plotcmd.h"
#include "report/reportcmd.h"
#include "output/summary.h"
#include "live/top.h"
#include "basic/xmalloc.h"

/* resource_monitor's statuses, which workflow engines interpret. */
enum { RM_SUCCESS = 0, RM_TASK_ERROR = 1, RM_OVERFLOW = 2, RM_TIME_EXPIRE = 3,
       RM_MONITOR_ERROR = 4 };

static bool any_exceeded(const struct tp_limits *l)
{
	int i;

	for (i = 0; i < TP_RES__COUNT; i++)
		if (l->set[i])
			return true;
	return l->end_set;
}

static int exit_code(const struct tp_options *o, const struct tp_summary *r)
{
	if (o->exit_codes == TP_CODES_CCTOOLS) {
		/* as current cctools: wall time is a timeout, not a resource
		 * that a bigger allocation would fix; and, as resource_monitor,
		 * an exceeded limit counts with --measure-only too (the task
		 * was not stopped, but the engine learns it needs more) */
		if (r->exit_type == TP_EXIT_TYPE_LIMITS || any_exceeded(&r->exceeded))
			return r->exceeded.set[TP_RES_WALL_TIME] ? RM_TIME_EXPIRE : RM_OVERFLOW;
		if (r->monitor_signal || r->signal || r->exit_status)
			return RM_TASK_ERROR;
		return RM_SUCCESS;
	}
	if (r->exit_type == TP_EXIT_TYPE_LIMITS && !o->measure_only)
		return TP_STATUS_LIMIT;
	if (r->monitor_signal)
		return 128 + r->monitor_signal;
	return r->exit_status;
}

static int failure(const struct tp_options *o, int status)
{
	return o->exit_codes == TP_CODES_CCTOOLS ? RM_MONITOR_ERROR : status;
}

/* mkdir -p of the template's directory, as resource_monitor does: Work
 * Queue workers run the monitor in a sandbox without that directory. */
static void make_parents(const char *template)
{
	char *dir = xstrdup(template), *p;

	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0777) < 0 && errno != EEXIST)
			break;
		*p = '/';
	}
	free(dir);
}

static int check_output(const char *template, const char *suffix)
{
	char *path = xasprintf("%s%s", template, suffix);
	int r = outfile_check(path);

	free(path);
	return r;
}

/* Everything about the outputs that can be refused is refused here,
 * before the task runs: its figures are never lost to a bad path. */
static int check_outputs(const struct tp_options *o)
{
	if (outfile_check_template(o->template) < 0)
		return -1;
	if (outfile_pin_dir(o->template) < 0) {
		perror_msg("-O %s: cannot open its directory", o->template);
		return -1;
	}
	if ((o->time_series && check_output(o->template, ".series") < 0) ||
	    (o->inotify && check_output(o->template, ".files") < 0) ||
	    (o->process_records && check_output(o->template, ".processes") < 0) ||
	    (o->trace && check_output(o->template, ".trace.json") < 0) ||
	    (o->exit_codes == TP_CODES_CCTOOLS && check_output(o->template, ".tpmon.json") < 0))
		return -1;
	if (o->disk && o->measure_dirs && disk_check_dirs(o->measure_dirs) < 0)
		return -1;
	return summary_prepare(o);
}

/* -V may not set a field that tpmon writes itself.  0, or -1 after
 * printing why. */
static int check_verbatim(const struct tp_options *o)
{
	size_t i;

	for (i = 0; i < o->nverbatim; i++)
		if (summary_field_reserved(o->verbatim[i].key)) {
			error_msg("-V: %s: tpmon writes that field itself", o->verbatim[i].key);
			return -1;
		}
	return 0;
}

/* What in @o the stop-free mode does not give as ptrace does, in words,
 * or NULL: the opens (--with-inotify), each process's own final figures
 * (records, trace), and the limits tpmon enforces itself, which react
 * at each ptrace event but only at samples without it (the kernel holds
 * memory, and time passes the same). */
static const char *needs_ptrace(const struct tp_options *o)
{
	int r;

	if (o->inotify)
		return "--with-inotify needs ptrace";
	if (o->process_records || o->trace)
		return "per-process records need ptrace's exit stops";
	for (r = 0; r < TP_RES__COUNT; r++)
		if (o->limits.set[r] && r != TP_RES_MEMORY && r != TP_RES_WALL_TIME &&
		    !(r == TP_RES_GPUS && o->limits.value[r] == 0))
			return "limits tpmon enforces itself react at once under ptrace";
	return NULL;
}

/* --tracking=auto resolved, and the reason in words into @reason: the
 * cgroup mode where tpmon has cgroups of its own (@c) and nothing asks for
 * ptrace (needs_ptrace()), else ptrace.  A forced mode is kept. */
static void choose_tracking(struct tp_options *o, const struct tp_cgrun *c, bool scoped,
			    const char *why, char *reason, size_t size)
{
	const char *ptrace_why = needs_ptrace(o);
	char who[128];

	if (getuid() == 0)
		snprintf(who, sizeof(who), "as root");
	else
		snprintf(who, sizeof(who), "as uid %d%s", (int)getuid(),
			 scoped ? ", in a scope the user's systemd gave" : "");
	if (o->tracking_forced)
		snprintf(reason, size, "--tracking given%s%s", c ? ", in " : "",
			 c ? cgrun_layout(c) : "");
	else if (c && ptrace_why)
		snprintf(reason, size, "%s (in %s, %s)", ptrace_why, cgrun_layout(c), who);
	else if (c)
		snprintf(reason, size, "%s, %s", cgrun_layout(c), who);
	else
		snprintf(reason, size, "no cgroup of its own, %s: %s", who, why);
	if (o->tracking == TP_TRACK_AUTO)
		o->tracking = c && !ptrace_why ? TP_TRACK_CGROUP : TP_TRACK_PTRACE;
	o->tracking_reason = reason;
}

/* When the guard makes sure the task has ended, should tpmon not have
 * (stopped by a task of its user): the wall-time limit or the end, with
 * room for tpmon's own SIGTERM and grace, on the clock of cgrun_now_ms();
 * 0 for none. */
static double guard_deadline(const struct tp_options *o)
{
	const struct tp_limits *l = &o->limits;
	double left = 1e300;

	if (o->measure_only)	/* the limits are reported, never enforced */
		return 0;
	if (l->set[TP_RES_WALL_TIME])
		left = l->value[TP_RES_WALL_TIME];
	if (l->end_set && l->end - clock_wall() < left)
		left = l->end - clock_wall();
	if (left >= 1e300)
		return 0;
	return (double)cgrun_now_ms() / 1000.0 + (left > 0 ? left : 0) + o->kill_grace + 2.0;
}

/* What the guard needs for its note, should tpmon die (output/lostnote.c):
 * its copy, made at the fork. */
struct lost_run {
	const struct tp_options *o;
	double started;
};

/* In the guard, once it has ended a run whose tpmon was gone. */
static void guard_lost(void *arg, const struct tp_guard_lost *g)
{
	const struct lost_run *run = arg;
	struct tp_lost l;

	l.started = run->started;
	l.ended = clock_wall();
	l.monitor = g->monitor;
	l.guard = g->guard;
	l.killed = g->killed;
	lostnote_write(run->o, &l);
}

/* The run's cgroups (see cgrun.h), or NULL to work without, and the
 * tracking mode (choose_tracking()).  Refuses (*status set) when
 * --tracking=cgroup or --cgroup=PATH asked for one that cannot be had,
 * before the task runs. */
static struct tp_cgrun *open_cgroup(struct tp_options *o, int *status, char *reason,
				    size_t size)
{
	struct tp_cgrun *c = NULL;
	const char *hint;
	char why[1024] = "--cgroup=no";
	unsigned allow = o->cgroup == TP_CGROUP_AUTO ? TP_CG_ALLOW_SCOPE | TP_CG_ALLOW_HOME : 0;
	bool own;

	*status = 0;
	if (o->pid)
		return NULL;	/* TP_TRACK_ATTACH, from the options */
	if (o->cgroup != TP_CGROUP_NO)
		c = cgrun_open(o->cgroup_path, allow, why, sizeof(why));
	own = cgrun_own(c);
	if (own) {
		static struct lost_run run;
		static struct tp_guard_hook hook = { guard_lost, &run, -1 };

		run.o = o;
		run.started = clock_wall();
		hook.keep_fd = outfile_pinned_fd();
		cgrun_guard(c, guard_deadline(o), &hook);
	} else if (o->tracking == TP_TRACK_CGROUP || o->cgroup == TP_CGROUP_PATH) {
		error_msg("%s: no usable cgroup: %s", o->tracking == TP_TRACK_CGROUP ?
			  "--tracking=cgroup" : "--cgroup", why);
		*status = TP_STATUS_FAILURE;
		cgrun_close(c);
		return NULL;
	}
	choose_tracking(o, own ? c : NULL, cgrun_scoped(c), why, reason, size);
	debug_msg("tracking: %s (%s)", tracking_info(o->tracking)->name, reason);
	hint = own || o->cgroup == TP_CGROUP_NO ? NULL : cgrun_hint();
	if (hint)
		warn_msg("note: no cgroup of its own (%s); for one: %s", why, hint);
	return c;
}

/* A command that could not run (@status 126 or 127): a summary that says
 * so.  Not in cctools mode, where the engines see a monitor error. */
static void not_run(const struct tp_options *o, struct tp_summary *rep, int status)
{
	struct tp_end_in in;

	memset(&in, 0, sizeof(in));
	in.not_found = true;
	in.exec_errno = status == TP_STATUS_NOTFOUND ? ENOENT : EACCES;
	rep->end = rep->start;
	rep->exit_status = status;
	endcause_decide(&in, &rep->ending);
	summary_write(o, rep);
}

static int help_main(int argc, char **argv);

/* Subcommands, chosen by argv[1]; anything else is a command to monitor. */
static const struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv[0] is the name */
} subcommands[] = {
	{ "report", report_main },
	{ "plot", plot_main },
	{ "top", top_main },
	{ "help", help_main },
};

static const struct subcommand *subcommand_named(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		if (strcmp(name, subcommands[i].name) == 0)
			return &subcommands[i];
	return NULL;
}

/* `tpmon help`: --help; `tpmon help SUBCOMMAND`: its --help. */
static int help_main(int argc, char **argv)
{
	const struct subcommand *sub = argc > 1 ? subcommand_named(argv[1]) : NULL;

	if (sub && sub->run != help_main) {
		char help[] = "--help";
		char *args[] = { argv[1], help, NULL };

		return sub->run(2, args);
	}
	options_usage();
	return 0;
}

/* A bare first word @word that is no program (no slash, not in $PATH) but
 * a slip of a subcommand: said, and true.  Nothing is run or written. */
static bool slipped(const char *word)
{
	const char *names[ARRAY_SIZE(subcommands)];
	const char *near;
	char *found;
	bool denied;
	size_t i;

	if (word[0] == '-' || strchr(word, '/') || !word[0])
		return false;
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		names[i] = subcommands[i].name;
	near = editdist_nearest(word, names, ARRAY_SIZE(names));
	if (!near)
		return false;
	found = launch_find(word, &denied);
	free(found);
	if (found || denied)
		return false;
	error_msg("%s: no such command, nor a subcommand of tpmon; did you mean 'tpmon %s'?",
		  word, near);
	return true;
}

int main(int argc, char **argv)
{
	const struct subcommand *sub = argc > 1 ? subcommand_named(argv[1]) : NULL;
	struct tp_options o;
	struct tp_summary rep;
	struct tp_cgrun *cg;
	char reason[1200];
	int r, status;

	if (sub)
		return sub->run(argc - 1, argv + 1);
	if (argc > 1 && slipped(argv[1]))
		return TP_STATUS_NOTFOUND;
	phases_mark("start");
	r = options_parse(&o, argc, argv);
	if (r == 0 && check_verbatim(&o) < 0)
		r = -1;
	if (r != 0) {
		status = r > 0 ? 0 : failure(&o, TP_STATUS_FAILURE);
		options_free(&o);
		return status;
	}
	/* a fatal error (out of memory) is a monitor error to the engines */
	error_set_die_status(failure(&o, TP_STATUS_FAILURE));
	if (o.exit_codes == TP_CODES_CCTOOLS)
		make_parents(o.template);
	if (check_outputs(&o) < 0) {
		status = failure(&o, TP_STATUS_FAILURE);
		summary_release();
		outfile_unpin_dir();
		options_free(&o);
		return status;
	}
	phases_mark("options parsed, outputs checked");
	cg = open_cgroup(&o, &status, reason, sizeof(reason));
	phases_mark("cgroups: chosen (the host table), the run's own made, the guard");
	if (status == 0)
		status = monitor_run(&o, cg, &rep);
	else
		memset(&rep, 0, sizeof(rep));
	cgrun_close(cg);
	phases_mark("the run's cgroups removed");
	if ((status == TP_STATUS_NOTFOUND || status == TP_STATUS_NOEXEC) &&
	    o.exit_codes != TP_CODES_CCTOOLS)
		not_run(&o, &rep, status);
	if (status != 0) {
		status = failure(&o, status);
	} else if (summary_write(&o, &rep) < 0) {
		status = failure(&o, TP_STATUS_FAILURE);
	} else {
		status = exit_code(&o, &rep);
		if (brief_wanted(&o, STDERR_FILENO))
			brief_print(stderr, &o, &rep);
	}
	phases_mark("summary written");
	figures_summary_free(&rep);
	summary_release();
	outfile_unpin_dir();
	options_free(&o);
	phases_print();
	return status;
}
