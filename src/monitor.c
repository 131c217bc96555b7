/* SPDX-License-Identifier: MIT */
/* monitor.c: the event loop.  One thread that sleeps in sigtimedwait() on
 * SIGCHLD and the termination signals, with the nearest deadline (next
 * sample, wall-time limit, kill grace) as its timeout: one syscall per
 * wakeup.  Tracer events update the process table; samples update the
 * peaks and feed the watchdog.
 *
 * Life of a run: RUNNING until the main process ends or a limit or a
 * signal stops it; then TERMINATING (SIGTERM to the tree) and, after the
 * grace, KILLING (SIGKILL, also to every process born meanwhile); the loop
 * returns when no process of the tree is left. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cgroup.h"
#include "cgrun.h"
#include "clock.h"
#include "disk.h"
#include "error.h"
#include "figures.h"
#include "gpu.h"
#include "monitor.h"
#include "nested.h"
#include "net.h"
#include "proc.h"
#include "ptree.h"
#include "sampler.h"
#include "sandbox.h"
#include "series.h"
#include "opens.h"
#include "launch.h"
#include "fanout.h"
#include "track.h"
#include "snapevents.h"
#include "watchdog.h"
#include "enforce.h"
#include "xmalloc.h"

#define FIRST_DELAY 0.01		/* first sampling interval, s */
#define DELAY_GROWTH 1.25		/* back-off factor per sample */
#define CHECKPOINT_EVERY 5.0		/* partial summaries, s */
#define WATCH_EVERY 1.0			/* --snapshot-events: longest poll period, s */

struct tp_monitor {
	const struct tp_options *o;
	struct tp_figures fig;		/* the run's figures */
	struct tp_report *rep;		/* fig.rep */
	struct tp_ptree tree;
	struct tp_disk *disk;
	struct tp_series *series;
	struct tp_opens *files;
	struct tp_fanout *story;		/* process records, trace */
	struct tp_net *net;		/* NULL: network figures unknown */
	struct tp_gpu *gpu;		/* NULL: no NVML, GPU figures unknown */
	pid_t root, self;
	struct tp_track *tk;		/* how the tree is followed */
	bool root_done;
	bool detach;			/* --pid: stop following, leave the rest */
	int root_status;
	sigset_t sigset;		/* what the loop waits for */
	sigset_t sigset_paused;		/* the same less SIGCHLD, for a pause */
	double pause_until;		/* events wait until then (contention) */
	double turn_start, turn_cpu;	/* this turn of the loop began (wall, CPU) */
	double turn_end, turn_cpu_end;	/* its work stops then (wall, CPU) */
	double t0;			/* monotonic start */
	double delay, next_sample, last_checkpoint;
	unsigned stat_passes;		/* the tree's, when last looked at */
	struct tp_watchdog wd;		/* the kill */
	struct tp_enforce enf;		/* the limits */
	struct sigaction old_sigpipe, old_sigchld;	/* as tpmon got them */
	struct rlimit old_nofile;	/* the task's open-files limit */
	bool raised_nice;		/* tpmon raised its priority: */
	int old_nice;			/* the task gets this nice value back */
	bool events_pending;		/* drain_events() stopped at its bound */
	bool sampling;			/* a sample is cut into turns: goes on */
	double sample_cost;		/* time spent in it so far, s */
	bool no_children;		/* wait said ECHILD: no tracee is left */
	struct tp_snapevents *watch;		/* --snapshot-events, or NULL */
	bool nest_more;			/* nested_serve() stopped at its bound */
	struct tp_cgrun *cg;		/* the task's cgroup (borrowed), or NULL */
};

static double now_rel(const struct tp_monitor *m)
{
	return clock_mono() - m->t0;
}

/* --- feeding the figures ------------------------------------------- */

/* The tree's TCP traffic, GPUs and disk, at @t. */
static void sample_devices(struct tp_monitor *m, double t)
{
	struct tp_gpu_figures g;
	uint64_t sent, recv;
	double mb, when;
	long files;

	if (m->disk && disk_latest(m->disk, &mb, &files, &when))
		figures_disk(&m->fig, mb, files, disk_partial(m->disk), t);
	if (m->net) {
		net_sample(m->net, &m->tree);
		net_totals(m->net, &sent, &recv);
		figures_net(&m->fig, sent, recv, t);
	}
	gpu_sample(m->gpu, &m->tree, t);
	if (gpu_figures(m->gpu, &g))
		figures_gpu(&m->fig, &g, t);
}

static void take_sample(struct tp_monitor *m, const struct tp_sample *s)
{
	double load = 0;
	bool load_known = proc_read_loadavg(&load) == 0;

	figures_sample(&m->fig, s, m->tree.max_live, m->tree.total_processes,
		       m->wd.phase == TP_RUNNING && !m->root_done, load_known, load);
	sample_devices(m, s->t);
}

/* --- tracer events --------------------------------------------------- */

static void process_born(struct tp_monitor *m, pid_t pid)
{
	fanout_born(m->story, &m->tree, ptree_proc(&m->tree, pid));
	if (!enforce_admit(&m->enf, pid))
		return;
	gpu_note_pid(m->gpu, pid);
	figures_born(&m->fig, m->tree.nlive, m->tree.total_processes);
	enforce_counted(&m->enf, pid, now_rel(m));
}

/* A thread of the tree has ended (track.h). */
static void on_end(void *arg, const struct tp_track_end *e)
{
	struct tp_monitor *m = arg;

	if (e->leader)
		figures_note_hwm(&m->fig, e->hwm_kb, now_rel(m));
	m->fig.reaped_cpu += e->untracked_cpu;
	if (e->tid != m->root)
		return;
	m->root_done = true;
	m->root_status = e->status;
	/* (poll mode counts leftovers in loop(), after a fresh /proc scan) */
	if (m->o->pid && m->tree.nlive > 0 && m->wd.phase == TP_RUNNING) {
		/* --pid: the rest is not ours to stop; it is left (and
		 * detached when tpmon exits) */
		m->rep->leftover = m->tree.nlive;
		m->detach = true;
		debug_msg("followed process ended, leaving %u behind", m->tree.nlive);
	} else if (m->tk->ops->live && m->tree.nlive > 0 && m->wd.phase == TP_RUNNING) {
		m->rep->leftover = m->tree.nlive;
		debug_msg("main process ended, %u left behind", m->tree.nlive);
		enforce_stop(&m->enf, now_rel(m));
	}
}

static void on_born(void *arg, struct tp_proc *p)
{
	process_born(arg, p->pid);
}

static void on_exec(void *arg, struct tp_proc *p, pid_t tid)
{
	struct tp_monitor *m = arg;

	if (m->files)
		opens_exec(m->files, tid);
	if (m->story && p)
		fanout_exec(m->story, p);
}

static void on_started(void *arg, struct tp_proc *p)
{
	struct tp_monitor *m = arg;

	sampler_started(&m->tree, p);
}

static void on_figures_final(void *arg, struct tp_proc *p, pid_t tid, bool leaf,
			     struct tp_acct *a)
{
	(void)arg;
	sampler_read_final(p, tid, leaf, a);
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
		net_syscall(m->net, p->pid, tid);
	} else if (m->files) {
		opens_syscall(m->files, tid);
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
	enum tp_track_drain r = track_drain(m->tk, events_turn_over, m);

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
	if (m->tree.nlive > SAMPLE_BOUND_FROM && d < cost / SAMPLE_CPU_SHARE)
		d = cost / SAMPLE_CPU_SHARE;
	if (d > m->o->interval)
		d = m->o->interval;
	/* the watched files are looked at each sample, at least once a
	 * second as resource_monitor does */
	if (m->watch && d > WATCH_EVERY)
		d = WATCH_EVERY;
	m->delay = d;
	return enforce_next_delay(&m->enf, d);
}

/* --- snapshots (--snapshot-events) ------------------------------------ */

/* Close the current snapshot under @label (taken over), and write it as
 * TEMPLATE.snapshot.NN. */
static void record_snapshot(struct tp_monitor *m, double t, char *label)
{
	const struct tp_snapshot *s = figures_snapshot(&m->fig, t, label);

	summary_write_snapshot(m->o, s, m->rep->nsnapshots - 1);
}

static void poll_snapshot_events(struct tp_monitor *m, double t)
{
	char *label;

	if (m->watch && (label = snapevents_poll(m->watch)))
		record_snapshot(m, t, label);
}

/* The network and GPU figures of the sample, for the trace. */
static void sample_net_gpu(const struct tp_monitor *m, struct tp_sample *s)
{
	struct tp_gpu_figures f;

	s->net_known = m->net != NULL;
	net_totals(m->net, &s->net_sent, &s->net_recv);
	s->gpu_known = gpu_figures(m->gpu, &f);
	if (s->gpu_known) {
		s->gpu_memory_mb = f.memory_mb;
		s->gpu_cores = f.cores;
	}
}

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
	return m->wd.phase == TP_RUNNING && now_rel(m) < m->pause_until;
}

/* Events wait while a stat pass cut into turns is in progress: a tree
 * that grows meanwhile (new processes come out of their attach stops
 * only through events) would keep the pass from ever ending, and the
 * memory limit from being checked.  A PSS pass does not make them wait:
 * processes born during it are not part of it, and on a busy machine it
 * can last seconds. */
static bool may_drain(const struct tp_monitor *m)
{
	return !paused(m) && !(m->sampling && m->tree.in_stat_pass) && !m->tree.in_mem_pass;
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
	return m->wd.phase == TP_RUNNING &&
	       (now_rel(m) >= m->turn_end || clock_thread_cpu() >= m->turn_cpu_end);
}

static void end_turn(struct tp_monitor *m)
{
	double w = now_rel(m) - m->turn_start;

	if (m->wd.phase == TP_RUNNING && m->tree.nlive > PAUSE_FROM &&
	    (m->events_pending || m->sampling) &&
	    w > CONTENDED * (clock_thread_cpu() - m->turn_cpu))
		m->pause_until = now_rel(m) + (w < PAUSE_MAX ? w : PAUSE_MAX);
}

/* The nearest instant at which the loop must act whatever it is doing:
 * the wall-time limit, the end of the kill grace, the next SIGKILL round;
 * in s from the start, or a large number. */
static double hard_deadline(const struct tp_monitor *m)
{
	return enforce_deadline(&m->enf);
}

/* When the work of this turn must stop (sampler_sample(),
 * sampler_mem_pass()): the turn's end or the next hard deadline. */
static struct tp_until turn_until(const struct tp_monitor *m, double recheck)
{
	double hard = hard_deadline(m);
	struct tp_until u;

	u.mono = m->t0 + (hard < m->turn_end ? hard : m->turn_end);
	u.cpu = m->turn_cpu_end;
	u.recheck = recheck;
	return u;
}

/* How long samples may wait for a long PSS pass (sampler_sample()): no
 * longer than they come, and as short as the memory limits need. */
static double recheck_every(const struct tp_monitor *m)
{
	return enforce_next_delay(&m->enf, m->delay);
}

/* RSS and size summed over the tree, figures of now: peaks and limits
 * take them at once. */
static void take_sums(struct tp_monitor *m, const struct tp_stat_sums *s)
{
	figures_peak(&m->fig, TP_RES_MEMORY, (double)s->rss_kb / 1024.0, s->at);
	figures_peak(&m->fig, TP_RES_VIRTUAL_MEMORY, (double)s->vm_kb / 1024.0, s->at);
	if (m->wd.phase == TP_RUNNING)
		enforce_check(&m->enf, s->biggest, now_rel(m));
}

/* A stat pass ended inside a sample still in progress. */
static void check_stat_pass(struct tp_monitor *m)
{
	if (m->tree.stat_passes == m->stat_passes)
		return;
	m->stat_passes = m->tree.stat_passes;
	take_sums(m, &m->tree.sums);
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

	if (m->wd.phase != TP_RUNNING || paused(m) || m->tree.nlive <= PAUSE_FROM ||
	    !enforce_memory_due(&m->enf, &m->tree, now, m->sampling, recheck_every(m)))
		return;
	until = turn_until(m, 0);
	if (sampler_mem_pass(&m->tree, now, &until))
		take_sums(m, &m->tree.mem_acc);
}

static void sample(struct tp_monitor *m)
{
	struct tp_sample s;
	double t = now_rel(m), cost;
	struct tp_until until;
	bool done;

	m->tree.now = t;
	if (!m->sampling) {
		m->sampling = true;
		m->sample_cost = 0;
		if (!m->tree.pass_rollups)
			track_refresh(m->tk);
	}
	until = turn_until(m, recheck_every(m));
	done = sampler_sample(&m->tree, t, m->wd.phase == TP_RUNNING ? &until : NULL, &s);
	m->sample_cost += now_rel(m) - t;
	if (!done) {
		check_stat_pass(m);
		return;	/* to be continued at the next turn: next_sample is due */
	}
	m->stat_passes = m->tree.stat_passes;
	m->sampling = false;
	cost = m->sample_cost;
	t = now_rel(m);
	s.t = t;
	take_sample(m, &s);
	sample_net_gpu(m, &s);
	if (m->series)
		series_add(m->series, &s, &m->fig);
	fanout_sample(m->story, &m->tree, &s);
	poll_snapshot_events(m, t);
	if (m->wd.phase == TP_RUNNING) {
		enforce_oom(&m->enf, now_rel(m));
		enforce_check(&m->enf, s.biggest_pid, now_rel(m));
	}
	if (t - m->last_checkpoint >= checkpoint_period(m->o))
		checkpoint(m, t);
	m->next_sample = t + next_delay(m, cost);
	if (m->tree.pass_rollups)
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

	enforce_clock(&m->enf, now_rel(m));
	check_memory(m);
	if (now_rel(m) >= m->next_sample && !paused(m))
		sample(m);
	if (hard)
		watchdog_deadline_reached(&m->wd, now_rel(m));
	/* belt and braces: a stop whose SIGCHLD got lost is found here */
	if (may_drain(m))
		drain_events(m);
}

/* SIGINT, SIGTERM, SIGHUP or SIGQUIT to tpmon: stop the task as for a
 * limit; a second one skips the grace. */
static void on_monitor_signal(struct tp_monitor *m, int sig)
{
	if (m->detach)
		return;		/* --pid: already leaving the processes alone */
	if (m->rep->monitor_signal) {
		watchdog_hurry(&m->wd, now_rel(m));
		return;
	}
	m->rep->monitor_signal = sig;
	if (m->rep->exit_type != TP_EXIT_LIMITS)
		m->rep->exit_type = TP_EXIT_SIGNAL;
	if (m->o->pid && m->wd.phase == TP_RUNNING) {
		/* --pid: tpmon stops following; the processes go on */
		warn_msg("got signal %d, leaving process %d", sig, (int)m->root);
		m->detach = true;
		return;
	}
	warn_msg("got signal %d, stopping the task", sig);
	enforce_stop(&m->enf, now_rel(m));
}

/* SIGUSR1 or SIGUSR2 to tpmon: pass it on to the task's main process, as
 * a batch system's warning (Slurm's --signal=B:USR1@60 reaches only the
 * job's top process) would have reached the task without tpmon.  A
 * sender that signals every process of the tree reaches the task twice. */
static void forward_signal(struct tp_monitor *m, int sig)
{
	if (m->root_done || m->detach)
		return;
	debug_msg("forwarding signal %d to %d", sig, (int)m->root);
	if (kill(m->root, sig) < 0 && errno != ESRCH)
		perror_msg("forwarding signal %d", sig);
}

/* --- report ---------------------------------------------------------- */

/* @final: the task is over (not a checkpoint of a running one) */
static void fill_report(struct tp_monitor *m, double t, bool final)
{
	struct tp_fill in;
	struct tp_nest_totals nt;
	struct tp_gpu_figures g;
	struct tp_cg_figures cgf;
	const struct tp_proc *p;

	memset(&in, 0, sizeof(in));
	ptree_total_acct(&m->tree, &in.acct);
	in.total_processes = m->tree.total_processes;
	in.max_live = m->tree.max_live;
	in.nlive = m->tree.nlive;
	for (p = m->tree.live; p; p = p->next)
		if (p->hwm_kb > in.live_hwm_kb)
			in.live_hwm_kb = p->hwm_kb;
	/* the enclosing tpmon traced the task: its totals are exact */
	if (m->tk->nest_registered) {
		memset(&nt, 0, sizeof(nt));
		if (nested_totals(m->tk->outer_chan, m->root, &nt) == 0)
			in.outer = &nt;
		else
			warn_msg("the enclosing tpmon did not answer: totals from /proc polling");
		in.outer_answered = now_rel(m);
	}
	if (m->net) {
		in.net_known = true;
		net_totals(m->net, &in.net_sent, &in.net_recv);
	}
	if (gpu_figures(m->gpu, &g))
		in.gpu = &g;
	in.load_known = proc_read_loadavg(&in.load) == 0;
	in.machine_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (m->cg) {
		cgroup_figures(m->cg->task, &cgf);
		in.cgroup = &cgf;
		in.cgroup_io = m->tk->ops == &track_cgroup_ops;
	}
	in.tracking_ptrace = m->tk->ops == &track_ptrace_ops;
	in.tracking_cgroup = m->tk->ops == &track_cgroup_ops;
	figures_fill(&m->fig, &in, t, final);
}

static void checkpoint(struct tp_monitor *m, double t)
{
	struct tp_report snap;

	m->last_checkpoint = t;
	fill_report(m, t, false);
	snap = *m->rep;
	snap.partial = true;
	summary_write(m->o, &snap);
}

static void finish_report(struct tp_monitor *m)
{
	double t = now_rel(m);

	if (m->disk) {
		double mb;
		long files;

		disk_final(m->disk, &mb, &files);
		figures_disk(&m->fig, mb, files, disk_partial(m->disk), t);
	}
	net_end(m->net, &m->tree);	/* sockets closing as the tree ended */
	gpu_sample(m->gpu, &m->tree, t);	/* accounting records of the last processes */
	fill_report(m, t, true);
	/* lines written just before the end still make their snapshot */
	poll_snapshot_events(m, t);
	figures_exit(&m->fig, m->root_done, m->root_status);
	enforce_final(&m->enf);
}

/* --- setup ----------------------------------------------------------- */

static int setup_signals(struct tp_monitor *m, sigset_t *old)
{
	sigset_t *set = &m->sigset;

	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGIO);		/* a request from a nested tpmon */
	sigaddset(set, SIGUSR1);	/* passed on to the task */
	sigaddset(set, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, set, old) < 0)
		return -1;
	m->sigset_paused = *set;
	sigdelset(&m->sigset_paused, SIGCHLD);
	sigdelset(&m->sigset_paused, SIGIO);
	/* SIGCHLD may come in ignored (a worker that set SIG_IGN and exec'd
	 * us): then the kernel would reap the task behind our back */
	sigaction(SIGPIPE, &(struct sigaction){ .sa_handler = SIG_IGN }, &m->old_sigpipe);
	sigaction(SIGCHLD, &(struct sigaction){ .sa_handler = SIG_DFL }, &m->old_sigchld);
	return 0;
}

/* Descriptors left out of the sampler's budget. */
#define FD_RESERVE 256
/* Most /proc descriptors the sampler keeps open, whatever the open-files
 * limit: each costs the kernel about 1 KB (file, inode, dentry), and past
 * this many processes a sample opens the files of the others at each read
 * (see cache_open() in sampler.c). */
#define FD_CACHE_MAX 4096

/* Grow the descriptor table to @n entries now, while tpmon has a single
 * thread: growing it later, with the disk walker running, waits for an
 * RCU grace period (expand_files -> synchronize_rcu), milliseconds that a
 * fork bomb stretched into seconds.  The table never shrinks. */
static void presize_fd_table(unsigned n)
{
	int fd = open("/", O_PATH | O_CLOEXEC), hi;

	if (fd < 0)
		return;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, (int)n - 1);
	if (hi >= 0)
		close(hi);
	close(fd);
}

static void raise_fd_limit(struct tp_monitor *m)
{
	struct rlimit rl;
	unsigned budget;

	/* cached /proc descriptors: up to three per live process; the task
	 * gets the limit tpmon was given back */
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	m->old_nofile = rl;
	if (rl.rlim_cur < FD_CACHE_MAX + FD_RESERVE && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > FD_CACHE_MAX + FD_RESERVE ? FD_CACHE_MAX + FD_RESERVE : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			rl.rlim_cur = m->old_nofile.rlim_cur;
	}
	/* what the sampler may keep open; the rest is for the summary, the
	 * disk walker and the files opened and closed at each read */
	budget = rl.rlim_cur > FD_RESERVE + 3 ? (unsigned)(rl.rlim_cur > FD_CACHE_MAX + FD_RESERVE ? FD_CACHE_MAX + FD_RESERVE : rl.rlim_cur) - FD_RESERVE : 0;
	m->tree.fd_budget = budget;
	presize_fd_table(budget + FD_RESERVE);
}

/* tpmon runs at the highest priority it is permitted, up to nice -20 (as
 * root, or with RLIMIT_NICE); the task keeps the nice value tpmon was
 * given.  tpmon's CPU use is bounded by design, and with 1000 runnable
 * processes of the task on the machine its fair share at an equal nice
 * value is a fraction of a percent: at nice -20 it weighs as much as 87
 * of them.  Where nothing is permitted, the paced loop (see TURN_CPU)
 * is all there is. */
static void raise_priority(struct tp_monitor *m)
{
	int want;

	errno = 0;
	m->old_nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		return;
	for (want = -20; want < m->old_nice; want++)
		if (setpriority(PRIO_PROCESS, 0, want) == 0) {
			m->raised_nice = true;
			debug_msg("nice %d -> %d", m->old_nice, want);
			return;
		}
}

static void start_disk(struct tp_monitor *m)
{
	static const char *cwd_only[] = { ".", NULL };
	const char *const *dirs = m->o->measure_dirs ? m->o->measure_dirs : cwd_only;
	char *cwd;

	if (!m->o->disk)
		return;
	cwd = getcwd(NULL, 0);
	const char *abs_cwd[] = { cwd, NULL };

	if (!m->o->measure_dirs && cwd)
		dirs = abs_cwd;
	m->disk = disk_start(dirs, 1.0);
	free(cwd);
}

/* The callbacks through which the tracking backend tells of the tree. */
static struct tp_track_sink sink_of(struct tp_monitor *m)
{
	struct tp_track_sink sk = {
		.arg = m, .t0 = m->t0, .born = on_born, .exec = on_exec,
		.started = on_started, .figures_final = on_figures_final,
		.ended = on_end, .syscall = on_syscall,
	};

	return sk;
}

static pid_t start_task(struct tp_monitor *m, const sigset_t *mask, int *status)
{
	struct tp_track_start ts;
	struct tp_track_sink sk = sink_of(m);

	memset(&ts, 0, sizeof(ts));
	ts.argv = m->o->argv;
	ts.ptrace = m->o->tracking == TP_TRACK_PTRACE;
	/* exec events name each process for its record and trace span */
	ts.exec_events = m->o->inotify || fanout_wanted(m->o);
	ts.trap_opens = m->o->inotify;
	ts.trap_net = m->net != NULL;
	ts.child_mask = mask;
	ts.child_sigpipe = &m->old_sigpipe;
	ts.child_sigchld = &m->old_sigchld;
	ts.child_nofile = &m->old_nofile;
	ts.restore_nice = m->raised_nice;
	ts.child_nice = m->old_nice;
	ts.cgroup = m->cg;
	ts.cgroup_members = m->cg && m->o->tracking == TP_TRACK_CGROUP;
	m->tk = track_launch(&ts, &m->tree, &sk, m->self, status);
	if (!m->tk)
		return -1;
	/* a UNIX socket in every process of the tree, and no traffic */
	net_skip_inode(m->net, m->tk->nest_ino);
	return m->tk->root;
}

/* NVML from TPMON_NVML_LIBRARY (empty: none), else from the loader path. */
static struct tp_gpu *open_gpu(void)
{
	const char *lib = getenv("TPMON_NVML_LIBRARY");

	if (lib && !*lib)
		return NULL;
	return gpu_open(lib, clock_wall());
}

/* --pid: follow the running process o->pid and its descendants.
 * Returns its pid, or -1 with *status set after printing why. */
static pid_t attach_task(struct tp_monitor *m, int *status)
{
	pid_t pid = m->o->pid;

	struct tp_track_sink sk = sink_of(m);

	m->tk = track_attach(pid, fanout_wanted(m->o), &m->tree, &sk, m->self);
	if (!m->tk) {
		if (errno == ESRCH)
			error_msg("--pid %d: no such process", (int)pid);
		else if (errno == EINVAL)
			error_msg("--pid %d: a thread, not a process: give its process id", (int)pid);
		else if (errno == EPERM)
			error_msg("--pid %d: not permitted to trace it (it is traced already, "
				  "belongs to another user, or see "
				  "/proc/sys/kernel/yama/ptrace_scope)", (int)pid);
		else
			perror_msg("--pid %d", (int)pid);
		*status = TP_EXIT_FAILURE;
		return -1;
	}
	return pid;
}

/* Read the --snapshot-events file and note the watched files' state
 * before the task starts.  0, or -1 after printing why. */
static int start_watch(struct tp_monitor *m)
{
	char err[512];

	m->watch = snapevents_load(m->o->snapshot_events, err, sizeof(err));
	if (!m->watch) {
		error_msg("--snapshot-events: %s", err);
		return -1;
	}
	snapevents_start(m->watch);
	return 0;
}

/* Sleep until a signal or the next deadline, whichever comes first. */
static int wait_signal(struct tp_monitor *m)
{
	bool pause = paused(m);
	double d = m->events_pending && !pause ? 0 : next_deadline(m) - now_rel(m);
	struct timespec ts;
	siginfo_t si;

	if (d < 0)
		d = 0;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - floor(d)) * 1e9);
	/* a pause does not end at SIGCHLD: the events it leaves are known
	 * to be pending */
	return sigtimedwait(pause ? &m->sigset_paused : &m->sigset, &si, &ts);
}

static void loop(struct tp_monitor *m)
{
	while ((!m->root_done || m->tree.nlive > 0) && !m->detach) {
		int sig;

		if (m->tk->ops->live && m->root_done && m->no_children) {
			/* every tracee is a child for wait(): records left
			 * now belong to no process (a bug), never wait for them */
			warn_msg("%u processes vanished untracked", m->tree.nlive);
			break;
		}
		sig = wait_signal(m);
		start_turn(m);
		if (sig == SIGUSR1 || sig == SIGUSR2)
			forward_signal(m, sig);
		else if (sig > 0 && sig != SIGCHLD && sig != SIGIO)
			on_monitor_signal(m, sig);
		/* the timers first (limits, a sample in progress): new
		 * processes can wait in their attach stops, a sample cut
		 * into turns must not fall behind a growing tree */
		if (now_rel(m) >= next_deadline(m))
			on_timer(m);	/* drains events too */
		else if ((sig > 0 || m->events_pending || !m->tk->ops->live) && may_drain(m))
			drain_events(m);
		end_turn(m);
		/* after the turn's reaps: an answer includes every process
		 * the asker could have seen end */
		if (m->tk->nest && (sig == SIGIO || m->nest_more))
			m->nest_more = nested_serve(m->tk->nest, &m->tree, now_rel(m));
		if (!m->tk->ops->live && m->root_done) {
			/* orphans reparented to tpmon, the subreaper */
			track_refresh(m->tk);
			if (m->wd.phase == TP_RUNNING && m->tree.nlive > 0) {
				m->rep->leftover = m->tree.nlive;
				enforce_stop(&m->enf, now_rel(m));
			}
		}
	}
}

/* Take the signals still pending once the loop is over: a second SIGINT
 * that came after the first had ended the loop (timeout(1) sends one to
 * its child and another to its process group), or a late SIGCHLD. */
static void drain_signals(struct tp_monitor *m)
{
	struct timespec zero = { 0, 0 };
	siginfo_t si;

	while (sigtimedwait(&m->sigset, &si, &zero) > 0)
		;
}

/* The limits the kernel enforces in the task's cgroup.  pids.max counts
 * threads too: it is only a backstop against a fork bomb, far above the
 * process limit that tpmon checks itself. */
static void set_cgroup_limits(struct tp_monitor *m)
{
	const struct tp_limits *l = &m->o->limits;
	uint64_t mem = TP_CG_MAX, pids = TP_CG_MAX;

	if (m->o->measure_only)
		return;
	if (l->set[TP_RES_MEMORY])
		mem = (uint64_t)(l->value[TP_RES_MEMORY] * 1048576.0);
	if (l->set[TP_RES_MAX_CONCURRENT_PROCESSES])
		pids = (uint64_t)l->value[TP_RES_MAX_CONCURRENT_PROCESSES] * 8 + 64;
	cgrun_limit(m->cg, mem, pids);
}

/* The tree is gone: what is left in its cgroup escaped the tracker (or
 * was never seen by it).  Count it, kill it, and read the verdict of the
 * kernel's memory limit. */
static void end_cgroup(struct tp_monitor *m)
{
	pid_t *v = NULL;
	size_t n = cgroup_members(m->cg->task, &v);

	free(v);
	if (n > 0) {
		debug_msg("cgroup: %zu processes left outside the tree: killed", n);
		if (m->rep->leftover == 0)
			m->rep->leftover = (unsigned)n;
		cgrun_kill(m->cg, 5000);
	}
	enforce_oom(&m->enf, now_rel(m));
}

int monitor_run(const struct tp_options *o, struct tp_cgrun *cg, struct tp_report *rep)
{
	struct tp_monitor m;
	sigset_t old;
	int status = 0;

	memset(&m, 0, sizeof(m));
	m.o = o;
	m.rep = rep;
	/* utilization is relative to the declared cores, else the machine's */
	figures_init(&m.fig, rep, o->limits.set[TP_RES_CORES] && o->limits.value[TP_RES_CORES] > 0 ?
		     o->limits.value[TP_RES_CORES] : (double)sysconf(_SC_NPROCESSORS_ONLN),
		     o->exit_codes == TP_CODES_CCTOOLS);
	watchdog_init(&m.wd, o->kill_grace);
	enforce_init(&m.enf, o, &m.fig, &m.wd);
	m.cg = cg;
	if (cg) {
		rep->cgroup = xstrdup(cgrun_name(cg));
		set_cgroup_limits(&m);
		m.enf.cg = cg;
	}
	m.self = getpid();
	ptree_init(&m.tree);
	m.tree.keep_lives = fanout_wanted(o);	/* before --pid adds processes */
	if (proc_init() < 0 || setup_signals(&m, &old) < 0) {
		perror_msg("setup");
		status = TP_EXIT_FAILURE;
		goto out;
	}
	if (o->snapshot_events && start_watch(&m) < 0) {
		status = TP_EXIT_FAILURE;
		goto out;
	}
	raise_fd_limit(&m);
	raise_priority(&m);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	rep->start = clock_wall();
	m.t0 = clock_mono();
	/* made before the task exists, so it cannot race its creation */
	if (o->time_series)
		m.series = series_open(o->template, o->exit_codes == TP_CODES_CCTOOLS,
					   o->disk);
	m.net = net_new();
	m.gpu = open_gpu();
	if (o->pid) {
		m.root = attach_task(&m, &status);
		if (m.root < 0)
			goto out;
	} else {
		m.root = start_task(&m, &old, &status);
		if (m.root < 0)
			goto out;
		net_set_trapping(m.net, m.tk->net_trapped);
		net_pace_dumps(m.net, !o->limits.set[TP_RES_BYTES_SENT] &&
			       !o->limits.set[TP_RES_BYTES_RECEIVED] &&
			       !o->limits.set[TP_RES_BANDWIDTH]);
	}
	m.wd.tk = m.tk;
	m.enf.root = m.root;
	/* not dumpable (see launch_start()), with --pid too: a task of the
	 * same user could otherwise ptrace tpmon and make it let go */
	prctl(PR_SET_DUMPABLE, 0);
	m.story = fanout_open(o, &m.tree, m.self);
	gpu_note_pid(m.gpu, m.root);
	if (o->inotify && m.tk->ptraced)
		m.files = opens_new();
	start_disk(&m);
	m.delay = FIRST_DELAY;
	m.next_sample = FIRST_DELAY;
	loop(&m);
	if (m.cg && m.tk)
		end_cgroup(&m);
	finish_report(&m);
	if (m.series) {
		struct tp_sample s;

		sampler_sample(&m.tree, now_rel(&m), NULL, &s);	/* empty tree: totals only */
		s.t = now_rel(&m);
		series_add(m.series, &s, &m.fig);
	}
	if (m.story) {
		struct tp_sample s;

		m.tree.now = now_rel(&m);
		sampler_sample(&m.tree, m.tree.now, NULL, &s);	/* the counters at the end */
		s.t = m.tree.now;
		sample_net_gpu(&m, &s);
		fanout_sample(m.story, &m.tree, &s);
	}
	if (m.files)
		opens_write(m.files, o->template);
out:
	m.tree.now = now_rel(&m);
	fanout_close(m.story, &m.tree);	/* records of processes left, if any */
	disk_stop(m.disk);
	net_free(m.net);
	gpu_free(m.gpu);
	figures_free(&m.fig);
	series_close(m.series);
	opens_free(m.files);
	snapevents_free(m.watch);
	ptree_free(&m.tree);
	track_free(m.tk);
	drain_signals(&m);
	/* The termination signals stay blocked until tpmon exits: one sent
	 * now (timeout(1) sends its second to the process group, late on a
	 * busy machine) would otherwise kill tpmon before its summary. */
	sigaddset(&old, SIGINT);
	sigaddset(&old, SIGTERM);
	sigaddset(&old, SIGHUP);
	sigaddset(&old, SIGQUIT);
	sigaddset(&old, SIGUSR1);	/* too late to pass on: ignored */
	sigaddset(&old, SIGUSR2);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return status;
}
