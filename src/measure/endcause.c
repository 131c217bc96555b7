/* SPDX-License-Identifier: MIT */
/* endcause.c: why the task ended (see endcause.h): the decision, pure,
 * and the watch that finds its inputs (OOM counters, full file systems). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "basic/xmalloc.h"
#include "kernel/mounts.h"
#include "measure/endcause.h"
#include "measure/figures.h"
#include "measure/opens.h"

const char *endcause_name(enum tp_end_cause c)
{
	static const char *const names[] = {
		[TP_END_EXITED] = "exited", [TP_END_LIMIT] = "limit",
		[TP_END_OOM_KILL] = "oom_kill", [TP_END_SIGNAL] = "signal",
		[TP_END_NO_SPACE] = "no_space", [TP_END_NOT_FOUND] = "not_found",
		[TP_END_CANNOT_EXECUTE] = "cannot_execute", [TP_END_MONITOR_LOST] = "monitor_lost",
	};

	return c > TP_END_UNKNOWN && c <= TP_END_MONITOR_LOST ? names[c] : NULL;
}

/* "killed by signal 15 (Terminated)" or "exited with status 1". */
static void how(const struct tp_end_in *in, char *buf, size_t len)
{
	if (in->signal)
		snprintf(buf, len, "killed by signal %d (%s)", in->signal, strsignal(in->signal));
	else
		snprintf(buf, len, "exited with status %d", in->exit_status);
}

static void oom_detail(const struct tp_oom_found *oom, struct tp_end *out)
{
	if (oom->machine) {
		snprintf(out->detail, sizeof(out->detail),
			 "killed by the kernel's OOM killer: the machine ran out of memory");
		return;
	}
	if (oom->limit_known) {
		out->oom_limit_mb = (double)oom->limit / 1048576.0;
		snprintf(out->detail, sizeof(out->detail),
			 "killed by the OOM killer of cgroup %s, whose memory limit is %.0f MB",
			 oom->cgroup, out->oom_limit_mb);
	} else {
		snprintf(out->detail, sizeof(out->detail),
			 "killed by the OOM killer of cgroup %s", oom->cgroup);
	}
}

static void signal_detail(const struct tp_end_in *in, struct tp_end *out)
{
	char h[128];

	how(in, h, sizeof(h));
	if (out->sender.known)
		snprintf(out->detail, sizeof(out->detail), "%s sent by process %d (uid %u)", h,
			 (int)out->sender.pid, (unsigned)out->sender.uid);
	else if (in->signal == SIGKILL && in->oom && in->oom->unreadable[0])
		snprintf(out->detail, sizeof(out->detail),
			 "%s; the OOM could not be checked: cannot read cgroup %s", h,
			 in->oom->unreadable);
	else
		snprintf(out->detail, sizeof(out->detail), "%s", h);
}

/* The cause of a task that ran and ended on its own terms or a signal. */
static void ran(const struct tp_end_in *in, struct tp_end *out)
{
	char h[128];
	bool failed = in->signal || in->exit_status;

	out->signal = in->signal;
	/* known, or why not */
	if (in->sender && in->sender->signo == in->signal && in->signal)
		out->sender = *in->sender;
	how(in, h, sizeof(h));
	if (failed && in->full) {
		out->cause = TP_END_NO_SPACE;
		snprintf(out->detail, sizeof(out->detail), "%s; the file system at %s has no %s left%s",
			 h, in->full_point, in->full_inodes ? "inodes" : "space",
			 in->full_filled ? " (it had room when the task started)" : "");
	} else if (in->signal) {
		out->cause = TP_END_SIGNAL;
		signal_detail(in, out);
	} else {
		out->cause = TP_END_EXITED;
		snprintf(out->detail, sizeof(out->detail), "%s", h);
	}
}

/* Was the task's SIGKILL the kernel holding tpmon's memory limit in the
 * run's own cgroup?  Its memory limit broke (tpmon's check, or the OOM
 * kills counted in its cgroup: enforce_oom()), and no enclosing cgroup
 * with a lower limit struck: the machine's counter (which counts every
 * OOM kill) or the run's own cgroup (its limit is tpmon's less a
 * headroom of 256 kB, cgrun.h) do not count against it. */
static bool own_cgroup_limit(const struct tp_end_in *in)
{
	const struct tp_oom_found *oom = in->oom;

	if (in->signal != SIGKILL || !in->limit || in->cg_limit_mb <= 0 || !in->limit_name ||
	    strcmp(in->limit_name, res_info(TP_RES_MEMORY)->name))
		return false;
	return !oom || !oom->found || oom->machine || !oom->limit_known ||
	       (double)oom->limit + 1048576.0 > in->cg_limit_mb * 1048576.0;
}

static void limit_detail(const struct tp_end_in *in, struct tp_end *out)
{
	if (own_cgroup_limit(in)) {
		out->oom_limit_mb = in->cg_limit_mb;
		snprintf(out->detail, sizeof(out->detail),
			 "stopped at its memory limit of %g MB, which the kernel holds in the "
			 "run's own cgroup (its OOM killer)", in->cg_limit_mb);
	} else if (in->limit_name) {
		snprintf(out->detail, sizeof(out->detail), "tpmon stopped it: %s over its limit",
			 in->limit_name);
	} else {
		snprintf(out->detail, sizeof(out->detail), "tpmon stopped it at its end time");
	}
}

void endcause_decide(const struct tp_end_in *in, struct tp_end *out)
{
	memset(out, 0, sizeof(*out));
	if (in->not_found) {
		out->cause = in->exec_errno == ENOENT ? TP_END_NOT_FOUND : TP_END_CANNOT_EXECUTE;
		snprintf(out->detail, sizeof(out->detail), "the command could not be run: %s",
			 strerror(in->exec_errno));
		return;
	}
	if (!in->ended)
		return;
	/* the kernel's own kill has no sender; at the run's own limit it
	 * is that limit, however the race with tpmon's check went */
	if (in->signal == SIGKILL && in->oom && in->oom->found && !own_cgroup_limit(in)) {
		out->cause = TP_END_OOM_KILL;
		out->signal = SIGKILL;
		oom_detail(in->oom, out);
	} else if (in->limit) {
		out->cause = TP_END_LIMIT;
		out->signal = in->signal;
		limit_detail(in, out);
	} else if (in->monitor_signal) {
		out->cause = TP_END_SIGNAL;
		out->signal = in->signal ? in->signal : in->monitor_signal;
		if (in->sender && in->sender->known && in->sender->signo == in->monitor_signal)
			out->sender = *in->sender;
		if (out->sender.known)
			snprintf(out->detail, sizeof(out->detail),
				 "tpmon got signal %d (%s) from process %d (uid %u) and stopped it",
				 in->monitor_signal, strsignal(in->monitor_signal),
				 (int)out->sender.pid, (unsigned)out->sender.uid);
		else
			snprintf(out->detail, sizeof(out->detail),
				 "tpmon got signal %d (%s) and stopped it", in->monitor_signal,
				 strsignal(in->monitor_signal));
	} else {
		ran(in, out);
	}
}

#define ENDWATCH_DEVS 64

struct tp_endwatch {
	struct tp_memcgs *memcgs;
	struct tp_throttle *throttle;	/* the enclosing cgroups' CPU quotas */
	struct tp_oom_found oom;
	dev_t devs[ENDWATCH_DEVS];
	size_t ndevs;
	dev_t roomy[ENDWATCH_DEVS];	/* local file systems with room at the start */
	int nroomy;
	char point[512];
};

void endwatch_dev(struct tp_endwatch *w, dev_t dev)
{
	size_t i;

	for (i = 0; i < w->ndevs; i++)
		if (w->devs[i] == dev)
			return;
	if (w->ndevs < ENDWATCH_DEVS)
		w->devs[w->ndevs++] = dev;
}

struct tp_endwatch *endwatch_start(const char *own, const char **dirs)
{
	struct tp_endwatch *w = xcalloc(1, sizeof(*w));
	struct stat st;

	w->memcgs = memcgs_open(own);
	w->throttle = pressure_throttle_start();
	if (stat(".", &st) == 0)
		endwatch_dev(w, st.st_dev);
	for (; dirs && *dirs; dirs++)
		if (stat(*dirs, &st) == 0)
			endwatch_dev(w, st.st_dev);
	w->nroomy = mounts_roomy(w->roomy, ENDWATCH_DEVS);
	return w;
}

void endwatch_finish(struct tp_endwatch *w, bool failed, struct tp_end_in *in)
{
	memcgs_check(w->memcgs, &w->oom);
	in->oom = &w->oom;
	if (!failed)
		return;
	/* a file system it wrote to, else a local one that had room at the
	 * start (it may have been written to unseen) */
	if (mounts_devs_full(w->devs, w->ndevs, w->point, sizeof(w->point), &in->full_inodes) == 1)
		in->full = true;
	else if (w->nroomy > 0 && mounts_devs_full(w->roomy, (size_t)w->nroomy, w->point,
						     sizeof(w->point), &in->full_inodes) == 1)
		in->full = in->full_filled = true;
	if (in->full)
		in->full_point = w->point;
}

static void written_dev(void *w, dev_t dev)
{
	endwatch_dev(w, dev);
}

void endwatch_fill(struct tp_endwatch *w, struct tp_summary *r, const struct tp_opens *files,
		   const struct tp_sender *sender, const char *cgdir, double cg_limit_mb)
{
	struct tp_end_in in;
	int i;

	memset(&in, 0, sizeof(in));
	in.ended = !r->exit_unknown;
	in.limit = r->exit_type == TP_EXIT_TYPE_LIMITS;
	for (i = 0; in.limit && i < TP_RES__COUNT; i++)
		if (r->exceeded.set[i]) {
			in.limit_name = res_info(i)->name;
			break;
		}
	in.cg_limit_mb = cg_limit_mb;
	in.exit_status = r->exit_status;
	in.signal = r->signal;
	in.monitor_signal = r->monitor_signal;
	in.sender = sender;
	opens_written_devs(files, written_dev, w);
	if (in.ended)
		endwatch_finish(w, r->signal || r->exit_status, &in);
	endcause_decide(&in, &r->ending);
	if (cgdir)
		pressure_read(cgdir, &r->pressure);
	pressure_throttle_end(w->throttle, &r->pressure);
}

void endwatch_free(struct tp_endwatch *w)
{
	if (!w)
		return;
	memcgs_free(w->memcgs);
	pressure_throttle_free(w->throttle);
	free(w);
}
