/* SPDX-License-Identifier: MIT */
/* monitor.c: the loop, and nothing else.  One thread that sleeps in
 * sigtimedwait() on SIGCHLD and the termination signals, with the nearest
 * deadline (next sample, wall-time limit, kill grace) as its timeout: one
 * syscall per wakeup.  Each turn drives the parts of the run (run.h): the
 * tracking backend's events (track.h), a piece of a sample (sampler.h),
 * the figures (figures.h), the limits (enforce.h) and the outputs.
 *
 * Life of a run: RUNNING until the main process ends or a limit or a
 * signal stops it; then TERMINATING (SIGTERM to the tree) and, after the
 * grace, KILLING (SIGKILL, also to every process born meanwhile); the loop
 * returns when no process of the tree is left. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "basic/compat.h"
#include "basic/clock.h"
#include "basic/messages.h"
#include "basic/phases.h"
#include "program/monitor.h"
#include "cgroup/cgrun.h"
#include "track/nested.h"
#include "kernel/proc.h"
#include "program/run.h"
#include "measure/sampler.h"
#include "kernel/sandbox.h"
#include "kernel/tracer.h"

#define FIRST_DELAY 0.01		/* first sampling interval, s */
#define DELAY_GROWTH 1.25		/* back-off factor per sample */
#define CHECKPOINT_EVERY 5.0		/* partial summaries, s */
#define WATCH_EVERY 1.0			/* --snapshot-events: longest poll period, s */

struct tp_monitor {
	struct tp_run r;		/* the parts it drives */
	bool root_done;
	bool detach;			/* --pid: stop following, leave the rest */
	int root_status;
	double pause_until;		/* events wait until then (contention) */
	double turn_start, turn_cpu;	/* this turn of the loop began (wall, CPU) */
	double turn_end, turn_cpu_end;	/* its work stops then (wall, CPU) */
	double delay, next_sample, last_checkpoint;
	unsigned stat_passes;		/* the tree's, when last looked at */
	bool events_pending;		/* drain_events() stopped at its bound */
	bool sampling;			/* a sample is cut into turns: goes on */
	double sample_cost;		/* time spent in it so far, s */
	bool no_children;		/* wait said ECHILD: no tracee is left */
	bool nest_more;			/* nested_serve() stopped at its bound */
};

static double now_rel(const struct tp_monitor *m)
{
	return run_now(&m->r);
}

static void take_sample(struct tp_monitor *m, const struct tp_sample *s)
{
	double load = 0;
	bool load_known = proc_read_loadavg(&load) == 0;

	figures_sample(&m->r.fig, s, m->r.tree.max_live, m->r.tree.total_processes,
		       m->r.wd.phase == TP_RUNNING && !m->root_done, load_known, load);
	run_sample_devices(&m->r, s->t);
}

/* --- what the tracking backend tells (track.h) ----------------------- */

static void process_born(struct tp_monitor *m, struct tp_proc *p)
{
	fanout_born(m->r.story, &m->r.tree, p);
	if (!enforce_admit(&m->r.enf)) {
		track_proc_signal(m->r.tk, p, SIGKILL);
		return;
	}
	gpu_note_pid(m->r.gpu, p->pid);
	figures_born(&m->r.fig, m->r.tree.nlive, m->r.tree.total_processes);
	if (!enforce_counted(&m->r.enf, p->pid, now_rel(m)))
		track_proc_signal(m->r.tk, p, SIGKILL);
}

/* A thread of the tree has ended (track.h). */
static void on_end(void *arg, const struct tp_track_end *e)
{
	struct tp_monitor *m = arg;

	if (e->leader)
		figures_note_hwm(&m->r.fig, e->hwm_kb, now_rel(m));
	m->r.fig.reaped_cpu += e->untracked_cpu;
	if (e->tid != m->r.root)
		return;
	m->root_done = true;
	m->root_status = e->status;
	/* (poll mode counts leftovers in loop(), after a fresh /proc scan) */
	if (m->r.o->pid && m->r.tree.nlive > 0 && m->r.wd.phase == TP_RUNNING) {
		/* --pid: the rest is not ours to stop; it is left (and
		 * detached when tpmon exits) */
		m->r.rep->leftover = m->r.tree.nlive;
		m->detach = true;
		debug_msg("followed process ended, leaving %u behind", m->r.tree.nlive);
	} else if (m->r.tk->ops->live && m->r.tree.nlive > 0 && m->r.wd.phase == TP_RUNNING) {
		m->r.rep->leftover = m->r.tree.nlive;
		debug_msg("main process ended, %u left behind", m->r.tree.nlive);
		enforce_stop(&m->r.enf, now_rel(m));
	}
}

static void on_born(void *arg, struct tp_proc *p)
{
	process_born(arg, p);
}

static void on_exec(void *arg, struct tp_proc *p, pid_t tid)
{
	struct tp_monitor *m = arg;

	if (m->r.files)
		opens_exec(m->r.files, tid);
	if (m->r.story && p)
		fanout_exec(m->r.story, p);
}

static void on_started(void *arg, struct tp_proc *p)
{
	struct tp_monitor *m = arg;

	sampler_started(&m->r.smp, p);
}

static void on_figures_final(void *arg, struct tp_proc *p, pid_t tid, bool leaf,
			     struct tp_acct *a)
{
	(void)arg;
	sampler_read_final(p, tid, leaf, a);
}

/* An open by @tid: for --with-inotify's list, and the input. */
static void on_open(struct tp_run *r, pid_t tid)
{
	struct tp_open_call c;

	if (!r->files && !r->inputs)
		return;
	if (opens_call_get(tid, &c) < 0) {
		if (r->files)
			opens_call_failed(r->files, errno);
		if (r->inputs)
			inputs_missed(r->inputs, errno);
		return;
	}
	if (r->files)
		opens_syscall(r->files, &c);
	if (r->inputs)
		inputs_open(r->inputs, &c);
}

/* connect, accept or accept4 by @tid: tell the network counter which
 * socket, before the call goes on; or an open, for --with-inotify. */
static void on_syscall(void *arg, struct tp_proc *p, pid_t tid, unsigned long what)
{
	struct tp_monitor *m = arg;

	if (what == TP_TRAP_NET) {
		if (!p)
			return;
		p->net_flag = true;
		net_syscall(m->r.net, p->pid, tid);
	} else {
		on_open(&m->r, tid);
	}
}

static double next_deadline(const struct tp_monitor *m);
static bool turn_over(const struct tp_monitor *m);

/* Past a few events, a turn ends once a deadline has come. */
static bool events_turn_over(void *arg)
{
	struct tp_monitor *m = arg;

	return now_rel(m) >= next_deadline(m) || turn_over(m);
}

static void drain_events(struct tp_monitor *m)
{
	enum tp_track_drain r = track_drain(m->r.tk, events_turn_over, m);

	m->events_pending = r == TP_TRACK_MORE;
	if (r != TP_TRACK_MORE)
		m->no_children = r == TP_TRACK_NONE_LEFT;
}

/* --- sampling and timers --------------------------------------------- */

static void checkpoint(struct tp_monitor *m, double t);

/* Partial summaries: every CHECKPOINT_EVERY s, or every interval with
 * --update-summary (resource_monitor's meaning of that option). */
static double checkpoint_period(const struct tp_options *o)
{
	return o->update_summary ? o->interval : CHECKPOINT_EVERY;
}

/* With more than SAMPLE_BOUND_FROM live processes, sampling takes at most
 * SAMPLE_CPU_SHARE of a core unless a memory limit asks for more (here a
 * sample of 1000 processes costs about 6 ms).  Smaller trees keep the
 * plain schedule: they cost little, and their series stays regular. */
#define SAMPLE_CPU_SHARE 0.02
#define SAMPLE_BOUND_FROM 64

/* The delay to the next sample: growing from FIRST_DELAY to the interval,
 * no shorter than the last sample's cost allows, and as short as the
 * watchdog needs. */
static double next_delay(struct tp_monitor *m, double cost)
{
	double d;

	d = m->delay * DELAY_GROWTH;
	if (m->r.tree.nlive > SAMPLE_BOUND_FROM && d < cost / SAMPLE_CPU_SHARE)
		d = cost / SAMPLE_CPU_SHARE;
	if (d > m->r.o->interval)
		d = m->r.o->interval;
	/* the watched files are looked at each sample, at least once a
	 * second as resource_monitor does */
	if (m->r.watch && d > WATCH_EVERY)
		d = WATCH_EVERY;
	m->delay = d;
	return enforce_next_delay(&m->r.enf, d);
}

/* --- turns ---------------------------------------------------------- */

/* The work of one turn of the loop (events, a piece of a sample) stops
 * after TURN_CPU s of CPU or TURN_WALL s of wall time, deadlines first.
 * With a fork bomb of 1000 runnable processes on the machine, tpmon's
 * fair share is a fraction of a percent, and the scheduler (EEVDF) makes
 * a process that used more than its share wait for the others to catch
 * up: 1 ms of CPU costs it about 0.4 s of waiting there.  Small turns
 * keep what it owes small.
 *
 * A turn that took more than CONTENDED times its CPU time in wall time,
 * and left work to do, shows that tpmon is short of CPU.  Every stopped
 * tracee waits for tpmon, so tpmon can set the pace: it pauses as long as
 * the turn took (at most PAUSE_MAX), leaving new processes in their
 * attach stops, parents at their fork events and the sample in progress,
 * and pays back what it owes while asleep, so that it is scheduled at
 * once when a deadline comes (wall time, kill grace: they do not wait).
 * Only with more than PAUSE_FROM live processes: a smaller task cannot
 * take tpmon's share down that far, and when the machine is busy with
 * other work a pause would only slow the task down.  Only while the task
 * runs: once it is being stopped, its processes are
 * frozen in their stops and compete no more, and its end must not wait. */
#define TURN_CPU 0.0005
#define TURN_WALL 0.05
#define CONTENDED 4.0
#define PAUSE_MAX 0.5
#define PAUSE_FROM 64

static bool paused(const struct tp_monitor *m)
{
	return m->r.wd.phase == TP_RUNNING && now_rel(m) < m->pause_until;
}

/* Events wait while a stat pass cut into turns is in progress: a tree
 * that grows meanwhile (new processes come out of their attach stops
 * only through events) would keep the pass from ever ending, and the
 * memory limit from being checked.  A PSS pass does not make them wait:
 * processes born during it are not part of it, and on a busy machine it
 * can last seconds. */
static bool may_drain(const struct tp_monitor *m)
{
	return !paused(m) && !(m->sampling && m->r.smp.in_stat_pass) && !m->r.smp.in_mem_pass;
}

static void start_turn(struct tp_monitor *m)
{
	m->turn_start = now_rel(m);
	m->turn_cpu = clock_thread_cpu();
	m->turn_end = m->turn_start + TURN_WALL;
	m->turn_cpu_end = m->turn_cpu + TURN_CPU;
}

static bool turn_over(const struct tp_monitor *m)
{
	return m->r.wd.phase == TP_RUNNING &&
	       (now_rel(m) >= m->turn_end || clock_thread_cpu() >= m->turn_cpu_end);
}

static void end_turn(struct tp_monitor *m)
{
	double w = now_rel(m) - m->turn_start;

	if (m->r.wd.phase == TP_RUNNING && m->r.tree.nlive > PAUSE_FROM &&
	    (m->events_pending || m->sampling) &&
	    w > CONTENDED * (clock_thread_cpu() - m->turn_cpu))
		m->pause_until = now_rel(m) + (w < PAUSE_MAX ? w : PAUSE_MAX);
}

/* The nearest instant at which the loop must act whatever it is doing:
 * the wall-time limit, the end of the kill grace, the next SIGKILL round;
 * in s from the start, or a large number. */
static double hard_deadline(const struct tp_monitor *m)
{
	return enforce_deadline(&m->r.enf);
}

/* When the work of this turn must stop (sampler_sample(),
 * sampler_mem_pass()): the turn's end or the next hard deadline. */
static struct tp_until turn_until(const struct tp_monitor *m, double recheck)
{
	double hard = hard_deadline(m);
	struct tp_until u;

	u.mono = m->r.t0 + (hard < m->turn_end ? hard : m->turn_end);
	u.cpu = m->turn_cpu_end;
	u.recheck = recheck;
	return u;
}

/* How long samples may wait for a long PSS pass (sampler_sample()): no
 * longer than they come, and as short as the memory limits need. */
static double recheck_every(const struct tp_monitor *m)
{
	return enforce_next_delay(&m->r.enf, m->delay);
}

/* RSS and size summed over the tree, figures of now: peaks and limits
 * take them at once. */
static void take_sums(struct tp_monitor *m, const struct tp_stat_sums *s)
{
	figures_peak(&m->r.fig, TP_RES_MEMORY, (double)s->rss_kb / 1024.0, s->at);
	figures_peak(&m->r.fig, TP_RES_VIRTUAL_MEMORY, (double)s->vm_kb / 1024.0, s->at);
	if (m->r.wd.phase == TP_RUNNING)
		enforce_check(&m->r.enf, s->biggest, now_rel(m));
}

/* A stat pass ended inside a sample still in progress. */
static void check_stat_pass(struct tp_monitor *m)
{
	if (m->r.smp.stat_passes == m->stat_passes)
		return;
	m->stat_passes = m->r.smp.stat_passes;
	take_sums(m, &m->r.smp.sums);
}

/* Memory passes (sampler_mem_pass()) for the memory limits of a big
 * tree whose sample is slow: with tpmon short of CPU (an unprivileged
 * tpmon beside a fork bomb of 800 spinning processes), one stat pass
 * took 0.4 to 1.2 s; a memory pass costs a sixth of it.  One is due
 * when the newest resident sizes are older than the samples' interval. */
static void check_memory(struct tp_monitor *m)
{
	double now = now_rel(m);
	struct tp_until until;

	if (m->r.wd.phase != TP_RUNNING || paused(m) || m->r.tree.nlive <= PAUSE_FROM ||
	    !enforce_memory_due(&m->r.enf, &m->r.smp, now, m->sampling, recheck_every(m)))
		return;
	until = turn_until(m, 0);
	if (sampler_mem_pass(&m->r.smp, now, &until))
		take_sums(m, &m->r.smp.mem_acc);
}

static void sample(struct tp_monitor *m)
{
	struct tp_sample s;
	double t = now_rel(m), cost;
	struct tp_until until;
	bool done;

	m->r.tree.now = t;
	if (!m->sampling) {
		m->sampling = true;
		m->sample_cost = 0;
		if (!m->r.smp.pass_rollups)
			track_refresh(m->r.tk);
	}
	until = turn_until(m, recheck_every(m));
	done = sampler_sample(&m->r.smp, t, m->r.wd.phase == TP_RUNNING ? &until : NULL, &s);
	m->sample_cost += now_rel(m) - t;
	if (!done) {
		check_stat_pass(m);
		return;	/* to be continued at the next turn: next_sample is due */
	}
	m->stat_passes = m->r.smp.stat_passes;
	m->sampling = false;
	cost = m->sample_cost;
	t = now_rel(m);
	s.t = t;
	take_sample(m, &s);
	run_sample_net_gpu(&m->r, &s);
	if (m->r.series)
		series_add(m->r.series, &s, &m->r.fig);
	fanout_sample(m->r.story, &m->r.tree, &s);
	run_publish(&m->r, &s);
	run_snapshots(&m->r, t);
	if (m->r.wd.phase == TP_RUNNING) {
		enforce_oom(&m->r.enf, now_rel(m));
		enforce_check(&m->r.enf, s.biggest_pid, now_rel(m));
	}
	if (t - m->last_checkpoint >= checkpoint_period(m->r.o))
		checkpoint(m, t);
	m->next_sample = t + next_delay(m, cost);
	if (m->r.smp.pass_rollups)
		m->next_sample = t;	/* its PSS pass goes on at the next turn */
}

/* When the loop must wake up at the latest, in s from the start: the
 * next sample (now if one is in progress), unless paused, and the hard
 * deadlines. */
static double next_deadline(const struct tp_monitor *m)
{
	double at = hard_deadline(m), soft = m->next_sample;

	if (paused(m) && soft < m->pause_until)
		soft = m->pause_until;
	return soft < at ? soft : at;
}

static void on_timer(struct tp_monitor *m)
{
	bool hard = now_rel(m) >= hard_deadline(m);

	enforce_clock(&m->r.enf, now_rel(m));
	check_memory(m);
	if (now_rel(m) >= m->next_sample && !paused(m))
		sample(m);
	if (hard)
		watchdog_deadline_reached(&m->r.wd, now_rel(m));
	/* belt and braces: a stop whose SIGCHLD got lost is found here */
	if (may_drain(m))
		drain_events(m);
}

/* Ctrl-C (or Ctrl-\\) on the terminal: the kernel sent SIGINT (SIGQUIT)
 * to the whole foreground process group, the task's main process with
 * tpmon.  The task decides, as under a bare shell: a REPL goes on, a
 * program that dies of it ends the run.  A SIGINT sent to tpmon alone
 * (kill(2): SI_USER) still stops the run. */
static bool task_got_it_too(const struct tp_monitor *m, int sig, const siginfo_t *si)
{
	return (sig == SIGINT || sig == SIGQUIT) && si->si_code == SI_KERNEL &&
	       !m->r.o->pid && !m->root_done && m->r.root > 0 &&
	       getpgid(m->r.root) == getpgrp();
}

/* SIGINT, SIGTERM, SIGHUP or SIGQUIT to tpmon: stop the task as for a
 * limit; a second one skips the grace. */
static void on_monitor_signal(struct tp_monitor *m, int sig, const siginfo_t *si)
{
	if (m->detach)
		return;		/* --pid: already leaving the processes alone */
	if (task_got_it_too(m, sig, si)) {
		debug_msg("signal %d from the terminal: the task has it too, and decides", sig);
		return;
	}
	if (m->r.rep->monitor_signal) {
		watchdog_hurry(&m->r.wd, now_rel(m));
		return;
	}
	m->r.rep->monitor_signal = sig;
	tracer_siginfo_sender(si, sig, &m->r.monitor_sender);	/* the summary's ending */
	if (m->r.rep->exit_type != TP_EXIT_TYPE_LIMITS)
		m->r.rep->exit_type = TP_EXIT_TYPE_SIGNAL;
	if (m->r.o->pid && m->r.wd.phase == TP_RUNNING) {
		/* --pid: tpmon stops following; the processes go on */
		warn_msg("got signal %d, leaving process %d", sig, (int)m->r.root);
		m->detach = true;
		return;
	}
	warn_msg("got signal %d, stopping the task", sig);
	enforce_stop(&m->r.enf, now_rel(m));
}

/* SIGUSR1 or SIGUSR2 to tpmon: pass it on to the task's main process, as
 * a batch system's warning (Slurm's --signal=B:USR1@60 reaches only the
 * job's top process) would have reached the task without tpmon.  A
 * sender that signals every process of the tree reaches the task twice. */
static void forward_signal(struct tp_monitor *m, int sig)
{
	const struct tp_proc *root = ptree_proc(&m->r.tree, m->r.root);

	if (m->root_done || m->detach || !root)
		return;
	debug_msg("forwarding signal %d to %d", sig, (int)m->r.root);
	/* (--pid's process is no child of tpmon's: its pid is checked) */
	if (track_proc_signal(m->r.tk, root, sig) < 0 && errno != ESRCH)
		perror_msg("forwarding signal %d", sig);
}

static void checkpoint(struct tp_monitor *m, double t)
{
	m->last_checkpoint = t;
	run_checkpoint(&m->r, t);
}

/* --- the loop ------------------------------------------------------- */

/* The callbacks through which the tracking backend tells of the tree. */
static struct tp_track_sink sink_of(struct tp_monitor *m)
{
	struct tp_track_sink sk = {
		.arg = m, .born = on_born, .exec = on_exec,
		.started = on_started, .figures_final = on_figures_final,
		.ended = on_end, .syscall = on_syscall,
	};

	return sk;
}

/* Sleep until a signal or the next deadline, whichever comes first. */
static int wait_signal(struct tp_monitor *m, siginfo_t *si)
{
	bool pause = paused(m);
	double d = m->events_pending && !pause ? 0 : next_deadline(m) - now_rel(m);
	struct timespec ts;

	if (d < 0)
		d = 0;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - floor(d)) * 1e9);
	/* a pause does not end at SIGCHLD: the events it leaves are known
	 * to be pending */
	return sigtimedwait(pause ? &m->r.sigset_paused : &m->r.sigset, si, &ts);
}

static void loop(struct tp_monitor *m)
{
	while ((!m->root_done || m->r.tree.nlive > 0) && !m->detach) {
		siginfo_t si;
		int sig;

		if (m->r.tk->ops->live && m->root_done && m->no_children) {
			/* every tracee is a child for wait(): records left
			 * now belong to no process (a bug), never wait for them */
			warn_msg("%u %s vanished untracked", m->r.tree.nlive,
				 PLURAL(m->r.tree.nlive, "process", "processes"));
			break;
		}
		sig = wait_signal(m, &si);
		start_turn(m);
		if (sig == SIGUSR1 || sig == SIGUSR2)
			forward_signal(m, sig);
		else if (sig > 0 && sig != SIGCHLD && sig != SIGIO)
			on_monitor_signal(m, sig, &si);
		/* the timers first (limits, a sample in progress): new
		 * processes can wait in their attach stops, a sample cut
		 * into turns must not fall behind a growing tree */
		if (now_rel(m) >= next_deadline(m))
			on_timer(m);	/* drains events too */
		else if ((sig > 0 || m->events_pending || !m->r.tk->ops->live) && may_drain(m))
			drain_events(m);
		end_turn(m);
		/* after the turn's reaps: an answer includes every process
		 * the asker could have seen end */
		if (m->r.tk->nest && (sig == SIGIO || m->nest_more))
			m->nest_more = nested_serve(m->r.tk->nest, now_rel(m));
		if (!m->r.tk->ops->live && m->root_done) {
			/* orphans reparented to tpmon, the subreaper */
			track_refresh(m->r.tk);
			if (m->r.wd.phase == TP_RUNNING && m->r.tree.nlive > 0) {
				m->r.rep->leftover = m->r.tree.nlive;
				enforce_stop(&m->r.enf, now_rel(m));
			}
		}
	}
}

int monitor_run(const struct tp_options *o, struct tp_cgrun *cg, struct tp_summary *rep)
{
	struct tp_monitor m;
	struct tp_track_sink sk;
	int status;

	memset(&m, 0, sizeof(m));
	sk = sink_of(&m);
	status = run_open(&m.r, o, cg, rep, &sk);
	if (status == 0) {
		/* what dead tpmons left: once the task runs, bounded */
		cgrun_sweep(cg);
		m.delay = FIRST_DELAY;
		m.next_sample = FIRST_DELAY;
		loop(&m);
		phases_mark_task_end();
		run_end_cgroup(&m.r);
		phases_mark("the cgroup's leftovers checked");
		run_finish(&m.r, m.root_done, m.root_status);
		run_outputs_end(&m.r);
		phases_mark("the outputs' last lines");
	}
	run_close(&m.r);
	phases_mark("the run's parts freed");
	return status;
}
