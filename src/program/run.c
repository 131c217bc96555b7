/* SPDX-License-Identifier: MIT */
/* run.c: the parts of one run (see run.h): setting up tpmon's own
 * process and the parts before the loop, feeding the figures from the
 * devices and the tree, the report at a checkpoint and at the end, the
 * outputs' last lines, and taking it all apart. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>
#include "basic/compat.h"
#include "cgroup/cgroup.h"
#include "basic/clock.h"
#include "basic/messages.h"
#include "basic/phases.h"
#include "kernel/inprobe.h"
#include "kernel/proc.h"
#include "kernel/sigsender/sigprobe.h"
#include "measure/ratewin.h"
#include "program/run.h"
#include "program/escapes.h"
#include "output/summary.h"
#include "basic/xmalloc.h"

double run_now(const struct tp_run *r)
{
	return clock_mono() - r->t0;
}

/* The GPU figures of both sources, NVML and DRM fdinfo (which leaves
 * NVIDIA's devices to NVML: no device counts twice), into @g; false when
 * neither knows any. */
static bool gpu_sum(const struct tp_run *r, struct tp_gpu_figures *g)
{
	struct tp_gpu_figures n, d;
	bool nk = gpu_figures(r->gpu, &n), dk = drm_figures(r->drm, &d);

	if (!nk || !dk) {
		if (nk || dk)
			*g = nk ? n : d;
		return nk || dk;
	}
	g->devices_used = n.devices_used + d.devices_used;
	g->memory_mb = n.memory_mb + d.memory_mb;
	g->peak_memory_mb = fmax(r->gpu_peak_mb, fmax(n.peak_memory_mb, d.peak_memory_mb));
	g->cores = n.cores + d.cores;
	g->peak_cores = fmax(r->gpu_peak_cores, fmax(n.peak_cores, d.peak_cores));
	g->gpu_seconds = n.gpu_seconds + d.gpu_seconds;
	g->util_known = n.util_known && d.util_known;
	return true;
}

/* Both sources at @t: their sum's peaks, which neither sees alone. */
static void sample_gpus(struct tp_run *r, double t)
{
	struct tp_gpu_figures g;

	gpu_sample(r->gpu, &r->tree, t);
	drm_sample(r->drm, &r->tree, t);
	dmem_sample(&r->dmem, r->cg && r->cg->task[0] ? r->cg->task : NULL);
	if (!gpu_sum(r, &g))
		return;
	r->gpu_peak_mb = fmax(r->gpu_peak_mb, g.memory_mb);
	r->gpu_peak_cores = fmax(r->gpu_peak_cores, g.cores);
	figures_gpu(&r->fig, &g, t);
}

/* The tree's TCP traffic, GPUs and disk, at @t. */
void run_sample_devices(struct tp_run *r, double t)
{
	uint64_t sent, recv;
	double mb, when;
	long files;

	if (r->disk && disk_latest(r->disk, &mb, &files, &when))
		figures_disk(&r->fig, mb, files, disk_partial(r->disk), t);
	if (r->net) {
		net_sample(r->net, &r->tree);
		net_totals(r->net, &sent, &recv);
		figures_net(&r->fig, sent, recv, t);
	}
	sample_gpus(r, t);
	escapes_members(r);
}

/* Close the current snapshot under @label (taken over), and write it as
 * TEMPLATE.snapshot.NN. */
static void record_snapshot(struct tp_run *r, double t, char *label)
{
	const struct tp_snapshot *s = figures_snapshot(&r->fig, t, label);

	summary_write_snapshot(r->o, s, r->rep->nsnapshots - 1);
}

void run_snapshots(struct tp_run *r, double t)
{
	char *label;

	if (r->watch && (label = snapevents_poll(r->watch)))
		record_snapshot(r, t, label);
}

/* The network and GPU figures of the sample, for the trace. */
void run_sample_net_gpu(const struct tp_run *r, struct tp_sample *s)
{
	struct tp_gpu_figures f;

	s->net_known = r->net != NULL;
	net_totals(r->net, &s->net_sent, &s->net_recv);
	/* the cgroup's figures now, for the series and the live point */
	if (r->cg && (r->series || r->live))
		cgroup_figures(r->cg->task, &r->rep->cgf);
	s->gpu_known = gpu_sum(r, &f);
	if (s->gpu_known) {
		s->gpu_memory_mb = f.memory_mb;
		s->gpu_cores = f.cores;
	}
}

/* The point's figures that the live formats take from the table (the
 * cgroup's: read at this sample by run_sample_net_gpu()). */
static void live_table_figures(const struct tp_run *r, struct tp_live_point *p)
{
	int f;

	for (f = 0; f < TP_FIG__COUNT; f++)
		if (live_by_table(f))
			p->fig_known[f] = figures_value(r->rep, f, &p->fig[f]);
}

/* A live point at @t from sample @s, or from the report (@s NULL: the
 * end, nothing alive). */
static void live_point(const struct tp_run *r, const struct tp_sample *s, double t,
		       struct tp_live_point *p)
{
	const struct tp_figures *f = &r->fig;
	const struct tp_summary *rep = r->rep;

	memset(p, 0, sizeof(*p));
	p->t = t;
	p->memory_peak_bytes = rep->value[TP_RES_MEMORY] * 1048576.0;
	/* cores now: over the last second, as a person watching expects
	 * (the limit's 5 s window would leave a short task without one) */
	p->cores_known = ratewin_rate(&f->cpuwin, TP_CORES_PEAK_WINDOW, &p->cores);
	p->processes_partial = r->tk && r->tk->counts_partial;
	live_table_figures(r, p);
	p->disk_known = rep->known[TP_RES_DISK];
	p->disk_bytes = rep->value[TP_RES_DISK] * 1048576.0;
	if (s) {
		p->memory_bytes = s->rss_mb * 1048576.0;
		p->vm_bytes = s->vm_mb * 1048576.0;
		p->cpu_seconds = s->cpu_s;
		p->read_bytes = s->acct.io.read_bytes;
		p->written_bytes = s->acct.io.write_bytes;
		p->processes = s->nprocs;
		p->processes_started = s->total_processes;
		p->net_known = s->net_known;
		p->received_bytes = s->net_recv;
		p->sent_bytes = s->net_sent;
		p->gpu_known = s->gpu_known;
		p->gpu_memory_bytes = s->gpu_memory_mb * 1048576.0;
		p->gpu_cores = s->gpu_cores;
		p->state = r->wd.phase == TP_RUNNING ? "running" : "stopping";
		return;
	}
	p->cores = 0;
	p->cpu_seconds = rep->value[TP_RES_CPU_TIME];
	p->read_bytes = rep->acct.io.read_bytes;
	p->written_bytes = rep->acct.io.write_bytes;
	p->processes_started = (unsigned long)rep->value[TP_RES_TOTAL_PROCESSES];
	p->net_known = rep->known[TP_RES_BYTES_RECEIVED];
	p->received_bytes = (uint64_t)(rep->value[TP_RES_BYTES_RECEIVED] * 1048576.0);
	p->sent_bytes = (uint64_t)(rep->value[TP_RES_BYTES_SENT] * 1048576.0);
	p->gpu_known = rep->gpu_known;
	p->state = "ended";
}

/* A catalog update: the summary as cctools reads it, now. */
static void publish_catalog(struct tp_run *r, double t, bool final)
{
	struct tp_summary snap;
	char *json;

	if (!final)
		run_fill_summary(r, t, false);
	snap = *r->rep;
	snap.partial = !final;
	json = summary_text(r->o, &snap);
	live_summary(r->live, t, json);
	free(json);
}

void run_publish(struct tp_run *r, const struct tp_sample *s)
{
	struct tp_live_point p;

	if (!r->live)
		return;
	live_point(r, s, s->t, &p);
	live_sample(r->live, &p);
	if (live_summary_due(r->live, s->t))
		publish_catalog(r, s->t, false);
}

/* Why the input (opens.h) is unknown where no open call stops. */
static const char *input_reason(const struct tp_run *r)
{
	if (!r->o->input)
		return "not asked: --with-input-size counts it (in the cgroup mode as root "
		       "with a BPF program on the opens, under ptrace by a stop at each)";
	if (r->o->pid)
		return "--pid: no open call stops in a tree already running";
	if (r->tk->ptraced)
		return "a user's task in a cgroup: open calls do not stop "
		       "(the filter would set no_new_privs)";
	if (r->tk->ops->kind == TP_TRACK_CGROUP && r->inprobe_why[0])
		return r->inprobe_why;
	if (r->tk->ops->kind == TP_TRACK_CGROUP)
		return "the cgroup mode counts it as root, from a kprobe on a cgroup v2 "
		       "(--tracking=ptrace stops at open calls)";
	return "polling sees no open calls (--tracking=ptrace does)";
}
static void input_file(void *arg, const struct tp_inprobe_file *f)
{
	inputs_add(arg, f->dev, f->ino, f->size, (unsigned long)f->fs_magic);
}

/* The input as the cgroup mode's probe has it so far. */
static void inputs_from_probe(struct tp_run *r)
{
	inputs_free(r->inputs);
	r->inputs = inputs_new();
	if (!inprobe_each(r->inprobe, input_file, r->inputs))
		inputs_lower_bound(r->inputs);
}

/* Did the table hold every process of the tree from its birth to its
 * end, so that sums over its processes are whole?  Poll: with the
 * kernel's records; the cgroup mode: with no event lost; --pid: as
 * the probes themselves say (netprobe_complete()). */
static bool tree_whole(const struct tp_run *r)
{
	switch (r->tk->ops->kind) {
	case TP_TRACK_POLL:
		return r->tk->exit_records;
	case TP_TRACK_CGROUP:
		return !r->tk->counts_partial;
	default:
		return true;
	}
}

void run_fill_summary(struct tp_run *r, double t, bool final)
{
	struct tp_fill in;
	struct tp_nest_totals nt;
	struct tp_gpu_figures g, nv;
	struct tp_cg_figures cgf;
	const struct tp_proc *p;

	memset(&in, 0, sizeof(in));
	ptree_total_acct(&r->tree, &in.acct);
	in.total_processes = r->tree.total_processes;
	in.max_live = r->tree.max_live;
	in.nlive = r->tree.nlive;
	for (p = r->tree.live; p; p = p->next)
		if (p->hwm_kb > in.live_hwm_kb)
			in.live_hwm_kb = p->hwm_kb;
	/* the enclosing tpmon traced the task: its totals are exact */
	if (r->tk->nest_registered) {
		memset(&nt, 0, sizeof(nt));
		if (nested_totals(r->tk->outer_chan, r->root, &nt) == 0)
			in.outer = &nt;
		else
			warn_msg("the enclosing tpmon did not answer: totals from /proc polling");
		in.outer_answered = run_now(r);
	}
	if (r->net) {
		in.net_known = true;
		/* (poll: the probes' sums need every process of the tree) */
		in.net_exact = net_bytes_exact(r->net) && (!r->net_by_tree || tree_whole(r));
		net_totals(r->net, &in.net_sent, &in.net_recv);
	}
	if (gpu_sum(r, &g))
		in.gpu = &g;
	in.gpu_nvml = gpu_figures(r->gpu, &nv);
	in.drm = r->drm;
	in.dmem = &r->dmem;
	in.load_known = proc_read_loadavg(&in.load) == 0;
	in.machine_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (r->cg) {
		cgrun_figures(r->cg, &cgf);
		if (final)
			escapes_cpu(r, &cgf, &in.acct);
		in.cgroup = &cgf;
		/* untraced, the sampled I/O misses processes: io.stat counts
		 * every one that ran in the cgroup (not needed when each
		 * task's exit record came: it counts writes at writeback) */
		in.cgroup_io = !r->tk->ops->exact_ends && !r->tk->exit_records;
	} else if (r->home) {
		cgrun_figures(r->home, &cgf);
		in.cgroup = &cgf;
		r->rep->cgroup_shared = cgrun_shared(r->home);
	}
	in.max_threads = r->tree.max_threads;
	in.tracking = r->o->pid ? TP_TRACK_ATTACH : r->tk->ops->kind;
	in.tracking_name = tracking_info(r->tk->ops->kind)->name;
	in.tracking_reason = r->o->tracking_reason;
	in.processes_partial = r->tk->counts_partial;
	in.cgroup_left = r->tk->cgroup_left;
	in.exit_records = r->tk->exit_records;
	if (r->inprobe)
		inputs_from_probe(r);
	inputs_figures(r->inputs, input_reason(r), &r->rep->input);
	r->rep->input.partial |= r->tk->counts_partial;	/* escapes */
	figures_fill(&r->fig, &in, t, final);
}

/* The memory limit, MB, that the kernel holds in the run's own cgroup
 * (set_cgroup_limits()), or 0. */
static double cgroup_memory_limit(const struct tp_run *r)
{
	const struct tp_limits *l = &r->o->limits;

	return r->cg && !r->o->measure_only && l->set[TP_RES_MEMORY] ? l->value[TP_RES_MEMORY] : 0;
}

/* Who sent the signal that ended the task or stopped tpmon: from its
 * siginfo (tpmon's own, or ptrace's), else from the signal_generate
 * probe (into @untraced); NULL where nothing can tell. */
static const struct tp_sender *end_sender(const struct tp_run *r, struct tp_sender *untraced)
{
	int sig = r->rep->signal;

	if (r->rep->monitor_signal)
		return &r->monitor_sender;
	if (r->tk->ptraced && (sig != SIGKILL || r->tk->sender.signo == SIGKILL))
		return &r->tk->sender;
	if (!r->tk->ptraced && sig && sigprobe_sender(r->sigp, r->root, sig, untraced))
		return untraced;
	/* no siginfo to read: say why */
	memset(untraced, 0, sizeof(*untraced));
	untraced->signo = sig;
	if (r->tk->ptraced)
		untraced->why = "ptrace has no stop for SIGKILL, which kills at once: "
				"its siginfo is never seen";
	else
		untraced->why = r->sigp ? "the signal_generate probe saw no process send it" :
				"outside ptrace, only a BPF probe names it: as root, "
				"with the kernel's BTF";
	return untraced;
}

void run_finish(struct tp_run *r, bool root_done, int root_status)
{
	struct tp_sender untraced;
	double t = run_now(r);

	if (r->disk) {
		double mb;
		long files;

		if (disk_final(r->disk, &mb, &files))
			figures_disk(&r->fig, mb, files, disk_partial(r->disk), t);
		phases_mark("disk: the final footprint");
	}
	net_end(r->net, &r->tree);	/* sockets closing as the tree ended */
	/* NVML's accounting records of the last processes; DRM clients
	 * still open */
	sample_gpus(r, t);
	phases_mark("network and GPU: the last figures");
	run_fill_summary(r, t, true);
	phases_mark("the report filled (the cgroup's files read)");
	/* lines written just before the end still make their snapshot */
	run_snapshots(r, t);
	figures_exit(&r->fig, root_done, root_status);
	enforce_final(&r->enf);
	endwatch_fill(r->endw, r->rep, r->files, end_sender(r, &untraced),
		      r->cg ? cgrun_v2_task(r->cg) : NULL, cgroup_memory_limit(r));
	phases_mark("the end's cause (counters, signal sender)");
	if (r->live) {
		struct tp_live_point p;

		live_point(r, NULL, t, &p);
		live_final(r->live, &p);
		if (live_summary_due(r->live, 1e300))
			publish_catalog(r, t, true);
	}
}

static int setup_signals(struct tp_run *r)
{
	sigset_t *set = &r->sigset;

	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGIO);		/* a request from a nested tpmon */
	sigaddset(set, SIGUSR1);	/* passed on to the task */
	sigaddset(set, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, set, &r->old_mask) < 0)
		return -1;
	r->sigset_paused = *set;
	sigdelset(&r->sigset_paused, SIGCHLD);
	sigdelset(&r->sigset_paused, SIGIO);
	/* SIGCHLD may come in ignored (a worker that set SIG_IGN and exec'd
	 * us): then the kernel would reap the task behind our back */
	sigaction(SIGPIPE, &(struct sigaction){ .sa_handler = SIG_IGN }, &r->old_sigpipe);
	sigaction(SIGCHLD, &(struct sigaction){ .sa_handler = SIG_DFL }, &r->old_sigchld);
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

static void raise_fd_limit(struct tp_run *r)
{
	struct rlimit rl;
	unsigned budget;

	/* cached /proc descriptors: up to three per live process; the task
	 * gets the limit tpmon was given back */
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	r->old_nofile = rl;
	if (rl.rlim_cur < FD_CACHE_MAX + FD_RESERVE && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > FD_CACHE_MAX + FD_RESERVE ? FD_CACHE_MAX + FD_RESERVE : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			rl.rlim_cur = r->old_nofile.rlim_cur;
	}
	/* what the sampler may keep open; the rest is for the summary, the
	 * disk walker and the files opened and closed at each read */
	budget = rl.rlim_cur > FD_RESERVE + 3 ? (unsigned)(rl.rlim_cur > FD_CACHE_MAX + FD_RESERVE ? FD_CACHE_MAX + FD_RESERVE : rl.rlim_cur) - FD_RESERVE : 0;
	r->smp.fd_budget = budget;
	presize_fd_table(budget + FD_RESERVE);
}

/* tpmon runs at the highest priority it is permitted, up to nice -20 (as
 * root, or with RLIMIT_NICE); the task keeps the nice value tpmon was
 * given.  tpmon's CPU use is bounded by design, and with 1000 runnable
 * processes of the task on the machine its fair share at an equal nice
 * value is a fraction of a percent: at nice -20 it weighs as much as 87
 * of them.  Where nothing is permitted, the paced loop (see TURN_CPU)
 * is all there is. */
static void raise_priority(struct tp_run *r)
{
	int want;

	errno = 0;
	r->old_nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		return;
	for (want = -20; want < r->old_nice; want++)
		if (setpriority(PRIO_PROCESS, 0, want) == 0) {
			r->raised_nice = true;
			debug_msg("nice %d -> %d", r->old_nice, want);
			return;
		}
}

/* The bound of the first walk of the default directory (disk.h). */
static unsigned long disk_bound(void)
{
	const char *env = getenv("TPMON_DISK_MAX_ENTRIES");
	char *end;
	unsigned long n;

	if (!env || !*env)
		return DISK_MAX_ENTRIES;
	errno = 0;
	n = strtoul(env, &end, 10);
	if (errno || *end || *env == '-') {
		warn_msg("note: TPMON_DISK_MAX_ENTRIES=%s is not a count: %lu used", env,
			 DISK_MAX_ENTRIES);
		return DISK_MAX_ENTRIES;
	}
	return n;
}

/* The disk walker, on --measure-dir's directories, else on the working
 * directory; that one bounded (a tree not the task's own is not walked
 * whole, disk.h) unless a disk limit needs its figure, and not walked at
 * all where it is a tree the system shares (/, /usr, /tmp...). */
static void start_disk(struct tp_run *r)
{
	const struct tp_options *o = r->o;
	bool limited = o->limits.set[TP_RES_DISK] || o->limits.set[TP_RES_TOTAL_FILES];
	char *cwd;

	if (!o->disk)
		return;
	if (o->measure_dirs) {
		r->disk = disk_start((const char *const *)o->measure_dirs, 1.0, 0, r->old_nice);
		return;
	}
	cwd = getcwd(NULL, 0);
	if (cwd && !limited && disk_shared_dir(cwd)) {
		warn_msg("note: the working directory %s is shared by the system, not the "
			 "task's own: its disk footprint is not measured (disk and total_files "
			 "null; --measure-dir=DIR measures a tree)", cwd);
	} else {
		const char *dirs[] = { cwd ? cwd : ".", NULL };

		r->disk = disk_start(dirs, 1.0, limited ? 0 : disk_bound(), r->old_nice);
	}
	free(cwd);
}

static pid_t start_task(struct tp_run *r, const struct tp_track_sink *sk, int *status)
{
	struct tp_track_start ts;

	memset(&ts, 0, sizeof(ts));
	ts.argv = r->o->argv;
	ts.mode = r->o->tracking;	/* resolved by main() */
	/* exec events name each process for its record and trace span */
	ts.exec_events = r->o->inotify || fanout_wanted(r->o);
	ts.trap_opens = r->o->inotify;
	ts.input_opens = r->o->input;
	/* where the kernel counts the cgroup's bytes (BPF, root), connect
	 * and accept need no stop */
	ts.trap_net = r->net != NULL &&
		      !(r->cg && cgrun_v2_task(r->cg) && net_use_cgroup(r->net, cgrun_v2_task(r->cg)));
	/* untraced, outside a counting cgroup (poll; the cgroup mode on
	 * pure cgroup v1, which has no v2 cgroup to keep the probes to):
	 * the socket calls' probes (root), whose sums hold when the
	 * kernel's events give the whole tree (tree_whole()) */
	if (ts.trap_net && (r->o->tracking == TP_TRACK_POLL || r->o->tracking == TP_TRACK_CGROUP))
		r->net_by_tree = net_use_probes(r->net);
	/* the cgroup mode's input, from a probe on the opens (root) */
	if (r->o->input && r->o->tracking == TP_TRACK_CGROUP && r->cg && cgrun_v2_task(r->cg) &&
	    !(r->inprobe = inprobe_open(cgrun_v2_task(r->cg), r->inprobe_why,
					sizeof(r->inprobe_why))))
		debug_msg("no input size: %s", r->inprobe_why);
	ts.child_mask = &r->old_mask;
	ts.child_sigpipe = &r->old_sigpipe;
	ts.child_sigchld = &r->old_sigchld;
	ts.child_nofile = &r->old_nofile;
	ts.restore_nice = r->raised_nice;
	ts.child_nice = r->old_nice;
	ts.cgroup = r->cg;
	phases_mark("network: the socket probes (BPF) chosen");
	r->tk = track_launch(&ts, &r->tree, sk, r->self, status);
	if (!r->tk)
		return -1;
	phases_mark_exec();
	/* a UNIX socket in every process of the tree, and no traffic */
	net_skip_inode(r->net, r->tk->nest_ino);
	return r->tk->root;
}

/* NVML from TPMON_NVML_LIBRARY (empty: none), else from the loader path. */
static struct tp_gpu *open_gpu(void)
{
	const char *lib = getenv("TPMON_NVML_LIBRARY");

	if (lib && !*lib)
		return NULL;
	return gpu_open(lib, clock_wall());
}

/* The signal_generate probe (as root, untraced modes): the sender of a
 * fatal signal, which no siginfo gives there.  Nothing without it. */
static void open_sigprobe(struct tp_run *r)
{
	char why[160];

	r->sigp = sigprobe_open(why, sizeof(why));
	if (!r->sigp)
		debug_msg("no signal sender: %s", why);
}

/* --pid: follow the running process o->pid and its descendants.
 * Returns its pid, or -1 with *status set after printing why. */
static pid_t attach_task(struct tp_run *r, const struct tp_track_sink *sk, int *status)
{
	pid_t pid = r->o->pid;

	/* (as root) the tree's short connections too */
	r->net_by_tree = net_use_probes(r->net);
	r->tk = track_attach(pid, fanout_wanted(r->o), &r->tree, sk, r->self);
	if (!r->tk) {
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
		*status = TP_STATUS_FAILURE;
		return -1;
	}
	return pid;
}

/* Read the --snapshot-events file and note the watched files' state
 * before the task starts.  0, or -1 after printing why. */
static int start_watch(struct tp_run *r)
{
	char err[512];

	r->watch = snapevents_load(r->o->snapshot_events, err, sizeof(err));
	if (!r->watch) {
		error_msg("--snapshot-events: %s", err);
		return -1;
	}
	snapevents_start(r->watch);
	return 0;
}

/* Take the signals still pending once the loop is over: a second SIGINT
 * that came after the first had ended the loop (timeout(1) sends one to
 * its child and another to its process group), or a late SIGCHLD. */
static void drain_signals(struct tp_run *r)
{
	struct timespec zero = { 0, 0 };
	siginfo_t si;

	while (sigtimedwait(&r->sigset, &si, &zero) > 0)
		;
}

void run_checkpoint(struct tp_run *r, double t)
{
	struct tp_summary snap;

	run_fill_summary(r, t, false);
	snap = *r->rep;
	snap.partial = true;
	summary_write(r->o, &snap);
}

/* The most pids.max takes (the kernel's PID_MAX_LIMIT, 2^22): above it,
 * "max" holds the same. */
#define PIDS_MAX_HELD 4194304.0

/* The limits the kernel enforces in the task's cgroup.  pids.max counts
 * threads too: it is only a backstop against a fork bomb, far above the
 * process limit that tpmon checks itself.  limitset.c keeps the memory
 * limit within what a uint64_t of bytes and memory.max hold exactly. */
static void set_cgroup_limits(struct tp_run *r)
{
	const struct tp_limits *l = &r->o->limits;
	uint64_t mem = TP_CG_MAX, pids = TP_CG_MAX;
	double backstop;

	if (r->o->measure_only)
		return;
	if (l->set[TP_RES_MEMORY])
		mem = (uint64_t)ceil(l->value[TP_RES_MEMORY] * 1048576.0);
	backstop = l->value[TP_RES_MAX_CONCURRENT_PROCESSES] * 8 + 64;
	if (l->set[TP_RES_MAX_CONCURRENT_PROCESSES] && backstop <= PIDS_MAX_HELD)
		pids = (uint64_t)backstop;
	cgrun_limit(r->cg, mem, pids);
}

void run_end_cgroup(struct tp_run *r)
{
	pid_t *v = NULL;
	size_t n;

	if (!r->cg || !r->tk)
		return;
	n = cgrun_members(r->cg, &v);
	free(v);
	if (n > 0) {
		debug_msg("cgroup: %zu %s left outside the tree: killed", n,
			  PLURAL(n, "process", "processes"));
		if (r->rep->leftover == 0)
			r->rep->leftover = (unsigned)n;
		cgrun_kill(r->cg, 5000);
	}
	enforce_oom(&r->enf, run_now(r));
}

/* The cgroup the chooser gave (cgrun_open()), or none: cgroups of its
 * own, with the kernel-held limits, or tpmon's own cgroup, read only. */
static void take_cgroup(struct tp_run *r, struct tp_cgrun *cg)
{
	if (!cg)
		return;
	r->rep->cgroup = xstrdup(cgrun_name(cg));
	if (cgrun_own(cg)) {
		r->cg = cg;
		set_cgroup_limits(r);
		r->enf.cg = cg;
	} else {
		r->home = cg;
		r->rep->cgroup_home = true;
	}
}

/* Before the task: the network's watch, the GPUs, and (as root, in the
 * untraced modes) the signal-sender probe, so that a signal sent at
 * once is seen too. */
static void open_devices(struct tp_run *r)
{
	const struct tp_options *o = r->o;

	r->net = net_new();
	net_watch(r->net, &r->tree);
	phases_mark("network: the socket table, the proc connector");
	r->gpu = open_gpu();
	r->drm = drm_new(r->gpu != NULL);
	phases_mark("GPUs: NVML");
	if (geteuid() == 0 && o->tracking != TP_TRACK_PTRACE && !o->pid)
		open_sigprobe(r);
	phases_mark("the signal-sender probe (BPF)");
}

/* Once the task runs: the disk walker and the live figures (no thread
 * of live.c's sender exists when the task forks). */
static void start_beside(struct tp_run *r)
{
	start_disk(r);
	phases_mark("the disk walker started (beside the task)");
	r->live = live_open(r->o, r->rep->start, r->root);
	phases_mark("live figures opened (beside the task)");
}

int run_open(struct tp_run *r, const struct tp_options *o, struct tp_cgrun *cg,
	     struct tp_summary *rep, const struct tp_track_sink *sink)
{
	const struct tp_limits *l = &o->limits;
	struct tp_track_sink sk = *sink;
	int status = 0;

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->rep = rep;
	/* utilization is relative to the declared cores, else the machine's */
	figures_init(&r->fig, rep, l->set[TP_RES_CORES] && l->value[TP_RES_CORES] > 0 ?
		     l->value[TP_RES_CORES] : (double)sysconf(_SC_NPROCESSORS_ONLN),
		     o->exit_codes == TP_CODES_CCTOOLS);
	watchdog_init(&r->wd, o->kill_grace);
	enforce_init(&r->enf, o, &r->fig, &r->wd);
	take_cgroup(r, cg);
	r->self = getpid();
	ptree_init(&r->tree);
	sampler_init(&r->smp, &r->tree);
	r->tree.keep_lives = fanout_wanted(o);	/* before --pid adds processes */
	if (proc_init() < 0 || setup_signals(r) < 0) {
		perror_msg("setup");
		return TP_STATUS_FAILURE;
	}
	r->signals_set = true;
	phases_mark("setup: figures, signals, /proc");
	r->endw = endwatch_start(r->cg ? cgrun_v2_task(r->cg) : NULL, o->measure_dirs);
	if (o->snapshot_events && start_watch(r) < 0)
		return TP_STATUS_FAILURE;
	phases_mark("the end's watch: OOM counters, devices");
	raise_fd_limit(r);
	raise_priority(r);
	phases_mark("descriptors, priority");
	rep->start = clock_wall();
	r->t0 = clock_mono();
	sk.t0 = r->t0;
	/* made before the task exists, so it cannot race its creation */
	if (o->time_series)
		r->series = series_open(o->template, o->exit_codes == TP_CODES_CCTOOLS, o->disk,
				       r->cg != NULL);
	open_devices(r);
	/* the guard's middle process, whose exit ran beside the setup
	 * above, reaped before tpmon becomes a subreaper (cgrun_guard()) */
	cgrun_guard_settle(r->cg);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	phases_mark("the guard settled, subreaper");
	if (o->pid) {
		r->root = attach_task(r, &sk, &status);
		if (r->root < 0)
			return status;
	} else {
		r->root = start_task(r, &sk, &status);
		if (r->root < 0)
			return status;
		net_set_trapping(r->net, r->tk->net_trapped);
		net_pace_dumps(r->net, !l->set[TP_RES_BYTES_SENT] &&
			       !l->set[TP_RES_BYTES_RECEIVED] && !l->set[TP_RES_BANDWIDTH]);
	}
	r->wd.tk = r->tk;
	r->enf.root = r->root;
	/* not dumpable (see launch_start()), with --pid too: a task of the
	 * same user could otherwise ptrace tpmon and make it let go */
	prctl(PR_SET_DUMPABLE, 0);
	r->story = fanout_open(o, &r->tree, r->self);
	gpu_note_pid(r->gpu, r->root);
	if (o->inotify && r->tk->ptraced)
		r->files = opens_new();
	if (r->tk->ptraced && r->tk->opens_trapped)
		r->inputs = inputs_new();
	phases_mark("records, trace, opens (beside the task)");
	start_beside(r);
	return 0;
}

void run_outputs_end(struct tp_run *r)
{
	struct tp_sample s;

	if (r->series) {
		sampler_sample(&r->smp, run_now(r), NULL, &s);	/* empty tree: totals only */
		s.t = run_now(r);
		series_add(r->series, &s, &r->fig);
	}
	if (r->story) {
		r->tree.now = run_now(r);
		sampler_sample(&r->smp, r->tree.now, NULL, &s);	/* the counters at the end */
		s.t = r->tree.now;
		run_sample_net_gpu(r, &s);
		fanout_sample(r->story, &r->tree, &s);
	}
	if (r->files)
		opens_write(r->files, r->o->template);
}

void run_close(struct tp_run *r)
{
	sigset_t old = r->old_mask;

	r->tree.now = run_now(r);
	fanout_close(r->story, &r->tree);	/* records of processes left, if any */
	live_close(r->live);
	disk_stop(r->disk);
	net_free(r->net);
	gpu_free(r->gpu);
	drm_free(r->drm);
	figures_free(&r->fig);
	series_close(r->series);
	opens_free(r->files);
	inputs_free(r->inputs);
	endwatch_free(r->endw);
	sigprobe_free(r->sigp);
	inprobe_free(r->inprobe);
	snapevents_free(r->watch);
	ptree_free(&r->tree);
	track_free(r->tk);
	r->home = NULL;	/* the caller's, as r->cg (cgrun_close()) */
	if (!r->signals_set)
		return;
	drain_signals(r);
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
}
