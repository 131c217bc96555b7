/* SPDX-License-Identifier: MIT */
/* test-enforce.c: the decisions of enforce.c on hand-made figures: which
 * limit is broken and by whom, once, the stop it starts (counted through a
 * tracker whose signal_all() only counts), --measure-only, cctools' gpus
 * exception, the deadlines (wall_time, end), the pace of samples near a
 * memory limit, and the births refused while the tree is being stopped
 * (a real child, killed). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "enforce/enforce.h"
#include "kernel/proc.h"
#include "tap.h"

/* The signals the watchdog sent, through the fake tracker. */
static int nterm, nkill;

static unsigned count_signal(struct tp_track *tk, int sig)
{
	(void)tk;
	if (sig == SIGTERM)
		nterm++;
	else if (sig == SIGKILL)
		nkill++;
	return 1;
}

static const struct tp_track_ops counting_ops = {
	.kind = TP_TRACK_POLL,
	.signal_all = count_signal,
};

struct world {
	struct tp_options o;
	struct tp_summary rep;
	struct tp_figures fig;
	struct tp_watchdog wd;
	struct tp_ptree tree;
	struct tp_track tk;
	struct tp_enforce e;
};

/* A run with the limits @limits ("memory: 100, wall_time: 10"), a grace
 * of @grace s, root @root. */
static void setup(struct world *w, const char *limits, double grace, pid_t root)
{
	char err[256];

	memset(w, 0, sizeof(*w));
	if (limits && limitset_parse_text(&w->o.limits, limits, "test", err, sizeof(err)) < 0) {
		diag("%s", err);
		exit(1);
	}
	w->o.kill_grace = grace;
	figures_init(&w->fig, &w->rep, 2, false);
	w->rep.start = 1000;
	w->tk.ops = &counting_ops;
	w->tk.tree = &w->tree;
	watchdog_init(&w->wd, grace);
	w->wd.tk = &w->tk;
	enforce_init(&w->e, &w->o, &w->fig, &w->wd);
	w->e.root = root;
	nterm = nkill = 0;
}

static void cur(struct world *w, enum tp_res r, double v)
{
	w->fig.cur[r] = v;
	w->fig.cur_known[r] = true;
}

/* A dead pid: a child reaped at once. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void nothing_broken(void)
{
	struct world w;

	setup(&w, "memory: 100, cores: 2", 1, dead_pid());
	cur(&w, TP_RES_MEMORY, 100);	/* at the limit is not over it */
	cur(&w, TP_RES_CORES, 1.5);
	enforce_check(&w.e, getpid(), 3);
	ok(!w.rep.exceeded.set[TP_RES_MEMORY] && !w.rep.exceeded.set[TP_RES_CORES] &&
	   w.rep.exit_type == TP_EXIT_TYPE_NORMAL, "at or under every limit: nothing broken");
	ok(w.wd.phase == TP_RUNNING && nterm == 0 && w.rep.stopped_at < 0,
	   "and nothing stopped");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
}

static void memory_by_biggest(void)
{
	struct world w;

	setup(&w, "memory: 100, cpu_time: 50", 2, dead_pid());
	cur(&w, TP_RES_MEMORY, 100.5);
	cur(&w, TP_RES_CPU_TIME, 10);
	enforce_check(&w.e, getpid(), 4);
	ok(w.rep.exceeded.set[TP_RES_MEMORY] && w.rep.exceeded.value[TP_RES_MEMORY] == 100 &&
	   !w.rep.exceeded.set[TP_RES_CPU_TIME], "memory over: memory is broken, at its limit's value");
	ok(w.rep.exit_type == TP_EXIT_TYPE_LIMITS, "the exit type is limits");
	ok(w.rep.violator_pid == getpid() && strstr(w.rep.violator_cmd, "test-enforce") != NULL,
	   "the violator is the biggest process, named by its command line (%s)",
	   w.rep.violator_cmd);
	ok(w.wd.phase == TP_TERMINATING && nterm == 1 && nkill == 0,
	   "the tree gets SIGTERM once, SIGKILL waits for the grace");
	is_double(w.rep.stopped_at, 4, 0, "stopped_at is now");
	is_double(enforce_deadline(&w.e), 6, 0, "the next deadline is the grace's end");
	cur(&w, TP_RES_CPU_TIME, 60);
	enforce_check(&w.e, getpid(), 5);
	ok(w.rep.exceeded.set[TP_RES_CPU_TIME] && nterm == 1,
	   "a limit broken while stopping is recorded, with no second stop");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
}

static void rest_by_root(void)
{
	struct world w;
	pid_t root = dead_pid();

	setup(&w, "cpu_time: 5, bytes_written: 10", 0, root);
	cur(&w, TP_RES_CPU_TIME, 6);
	cur(&w, TP_RES_BYTES_WRITTEN, 11);
	enforce_check(&w.e, getpid(), 2);
	ok(w.rep.exceeded.set[TP_RES_CPU_TIME] && w.rep.exceeded.set[TP_RES_BYTES_WRITTEN],
	   "two limits broken in one check: both recorded");
	ok(w.rep.violator_pid == root && w.rep.violator_cmd[0] == '\0',
	   "not a memory limit: the violator is the task (a gone root: no command)");
	ok(w.wd.phase == TP_KILLING && nterm == 1 && nkill == 1,
	   "no grace: SIGTERM then SIGKILL at once, one stop for both");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
}

static void unknown_not_judged(void)
{
	struct world w;

	setup(&w, "disk: 1", 1, dead_pid());
	w.fig.cur[TP_RES_DISK] = 5;	/* not measured */
	enforce_check(&w.e, 0, 1);
	ok(!w.rep.exceeded.set[TP_RES_DISK] && nterm == 0, "a figure not known is not judged");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
}

static void measure_only(void)
{
	struct world w;

	setup(&w, "memory: 100, wall_time: 1", 1, dead_pid());
	w.o.measure_only = true;
	cur(&w, TP_RES_MEMORY, 150);
	enforce_check(&w.e, getpid(), 1);
	ok(w.rep.exceeded.set[TP_RES_MEMORY] && w.rep.exit_type == TP_EXIT_TYPE_NORMAL &&
	   w.wd.phase == TP_RUNNING && nterm == 0,
	   "--measure-only: the crossing is recorded, the task goes on");
	w.rep.value[TP_RES_WALL_TIME] = 3;
	w.rep.known[TP_RES_WALL_TIME] = true;
	enforce_final(&w.e);
	ok(w.rep.exceeded.set[TP_RES_WALL_TIME] && nterm == 0,
	   "--measure-only, at the end: the final figures are judged too");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
}

static void gpus(void)
{
	struct world w;

	setup(&w, "gpus: 0", 1, dead_pid());
	w.o.exit_codes = TP_CODES_CCTOOLS;
	cur(&w, TP_RES_GPUS, 1);
	enforce_check(&w.e, 0, 1);
	ok(!w.rep.exceeded.set[TP_RES_GPUS] && nterm == 0,
	   "cctools mode: gpus over the declared 0 is the engine's to enforce");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
	setup(&w, "gpus: 0", 1, dead_pid());
	cur(&w, TP_RES_GPUS, 1);
	enforce_check(&w.e, 0, 1);
	ok(w.rep.exceeded.set[TP_RES_GPUS] && nterm == 1, "tpmon's own mode: gpus is a limit");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
}

static void clock_limits(void)
{
	struct world w;

	setup(&w, "wall_time: 10", 1, dead_pid());
	is_double(enforce_deadline(&w.e), 10.0001, 1e-12, "wall_time 10: looked at just after 10 s");
	enforce_clock(&w.e, 10);
	ok(!w.rep.exceeded.set[TP_RES_WALL_TIME] && w.fig.cur[TP_RES_WALL_TIME] == 10,
	   "at 10 s: wall_time is 10, not over");
	enforce_clock(&w.e, 10.0001);
	ok(w.rep.exceeded.set[TP_RES_WALL_TIME] && nterm == 1 && w.rep.exit_type == TP_EXIT_TYPE_LIMITS,
	   "past it: wall_time broken, the task stopped");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);

	setup(&w, "wall_time: 10", 1, dead_pid());
	w.o.limits.end_set = true;
	w.o.limits.end = 1004;	/* 4 s after the start */
	is_double(enforce_deadline(&w.e), 4.0001, 1e-9, "an end 4 s away comes before wall_time");
	enforce_clock(&w.e, 4);
	ok(w.rep.exceeded.end_set && w.rep.exceeded.end == 1004 && nterm == 1,
	   "at the end: end is broken, the task stopped");
	ok(!w.rep.exceeded.set[TP_RES_WALL_TIME], "and wall_time is not");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
}

static void pace(void)
{
	struct world w;

	setup(&w, NULL, 1, dead_pid());
	is_double(enforce_next_delay(&w.e, 1), 1, 0, "no memory limit: the delay as asked");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
	setup(&w, "memory: 1000", 1, dead_pid());
	is_double(enforce_next_delay(&w.e, 1), 0.05, 0, "a memory limit far away: 20 Hz at least");
	cur(&w, TP_RES_MEMORY, 960);
	is_double(enforce_next_delay(&w.e, 1), 0.01, 1e-12,
		  "40 MB of room at 4000 MB/s: 10 ms");
	cur(&w, TP_RES_MEMORY, 999.9);
	is_double(enforce_next_delay(&w.e, 1), 0.005, 0, "next to it: never under 5 ms");
	is_double(enforce_next_delay(&w.e, 0.001), 0.001, 0, "a shorter delay asked stays");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
}

/* The child @pid, paused: killed and reaped (the caller's kill, in
 * monitor.c, goes through track_proc_signal()). */
static void reap_paused(pid_t pid)
{
	int st = 0;

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
}

static pid_t paused_child(void)
{
	pid_t child = fork();

	if (child == 0) {
		pause();
		_exit(0);
	}
	return child;
}

static void admit(void)
{
	struct world w;
	pid_t child;

	setup(&w, "max_concurrent_processes: 3", 1, dead_pid());
	ok(enforce_admit(&w.e), "a birth while running is admitted");
	cur(&w, TP_RES_MAX_CONCURRENT_PROCESSES, 4);
	child = paused_child();
	ok(!enforce_counted(&w.e, child, 2), "the 4th process is to be killed at once, the tree being stopped");
	ok(w.rep.exceeded.set[TP_RES_MAX_CONCURRENT_PROCESSES] && w.rep.violator_pid == child,
	   "it broke max_concurrent_processes 3: it is the violator");
	reap_paused(child);
	ok(!enforce_admit(&w.e), "a birth after a limit is not admitted");
	figures_free(&w.fig);
	figures_summary_free(&w.rep);
}

int main(void)
{
	plan(32);
	if (proc_init() < 0) {
		diag("no /proc");
		return 1;
	}
	nothing_broken();
	memory_by_biggest();
	rest_by_root();
	unknown_not_judged();
	measure_only();
	gpus();
	clock_limits();
	pace();
	admit();
	return done();
}
