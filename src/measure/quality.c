/* SPDX-License-Identifier: MIT */
/* quality.c: the rules that say which figures of a run are lower bounds
 * (see quality.h and the man page's table of modes and figures). */
#include "measure/quality.h"

const char *quality_fig_name(enum tp_fig f)
{
	return fig_info(f)->name;
}

void quality_lower_bounds(const struct tp_quality_in *in, bool lower[TP_FIG__COUNT])
{
	/* every process and thread is seen at its birth and at its end,
	 * with its final figures (CPU time, I/O, peak RSS, threads), unless
	 * a process escaped the tracer in a cgroup (escapes.c; --pid's
	 * missed processes are counted in COUNTS below) */
	bool ends_seen = (in->tracked == TP_TRACK_PTRACE && !in->counts_partial) ||
			 in->tracked == TP_TRACK_ATTACH;
	/* poll or cgroup as root: each task's exit record gives its CPU
	 * time and its I/O (but its syscall counts rounded down to 1024:
	 * not those) */
	bool records = (in->tracked == TP_TRACK_POLL || in->tracked == TP_TRACK_CGROUP) &&
		       in->exit_records;
	/* every process is in the table while it lives (the proc
	 * connector's events, as root), though its end's figures are not */
	bool births_seen = (ends_seen || records || in->tracked == TP_TRACK_CGROUP) &&
			   !in->counts_partial;
	bool rule[TP_Q__COUNT];
	int f;

	rule[TP_Q_EXACT] = false;
	/* a process that lived between two samples is in no count */
	rule[TP_Q_COUNTS] = !births_seen && !in->outer_whole;
	/* its CPU time reaches the figures through cpu.stat, an enclosing
	 * tpmon, or (poll) the rusage of what tpmon reaps: not all of it */
	rule[TP_Q_CPU] = !ends_seen && !records && !in->cgroup_cpu && !in->outer_whole;
	/* its I/O: through an enclosing tpmon; its reads through io.stat
	 * too, which counts them as /proc/PID/io does, as they are issued.
	 * Not its writes: io.stat counts them at writeback (after the task,
	 * or never for data truncated first), /proc/PID/io as they dirty
	 * the page cache */
	rule[TP_Q_READS] = !ends_seen && !records && !in->cgroup_io && !in->outer_whole;
	rule[TP_Q_WRITES] = !ends_seen && !records && !in->outer_whole;
	rule[TP_Q_CHARS_IO] = !ends_seen && !records && !in->outer_whole;
	rule[TP_Q_CALLS_IO] = !ends_seen && !in->outer_whole;
	/* peaks of sums over the live processes: only samples see them, and
	 * a process's own peak (RSS, threads) comes only with its end */
	rule[TP_Q_SAMPLED] = !ends_seen;
	/* a socket opened and closed between two samples */
	rule[TP_Q_NET] = !in->net_exact;
	/* a GPU process is attributed only while the table holds it */
	rule[TP_Q_GPU] = !births_seen || in->gpu_sampled;
	rule[TP_Q_DISK] = in->disk_partial;
	rule[TP_Q_CGROUP] = in->cgroup_left;
	/* an open of an escaped process, or one whose path was unreadable */
	rule[TP_Q_INPUT] = in->input_partial;
	rule[TP_Q_DMEM] = in->dmem_read;
	for (f = 0; f < TP_FIG__COUNT; f++)
		lower[f] = rule[fig_info((enum tp_fig)f)->quality];
}
