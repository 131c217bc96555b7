/* SPDX-License-Identifier: MIT */
/* endnotes.c: notes and retry advice from a summary (endnotes.h).  The
 * thresholds are the table below, and the man page's NOTES table. */
#include <stdio.h>
#include <string.h>
#include "basic/compat.h"
#include "basic/rounding.h"
#include "measure/endnotes.h"

/* The retry factor on the resource that ended the task. */
#define RETRY_FACTOR 1.5

struct note_rule {
	const char *code;
	double threshold;
	/* true, with @text written, when @r earns the note */
	bool (*check)(const struct tp_summary *r, const struct tp_limits *d, double th,
		      char *text, size_t len);
};

static bool known(const struct tp_summary *r, enum tp_res res)
{
	return r->known[res];
}

static bool declared(const struct tp_limits *d, enum tp_res res)
{
	return d->set[res] && d->value[res] > 0;
}

/* cores_idle: the mean cores used under @th of the declared cores. */
static bool cores_idle(const struct tp_summary *r, const struct tp_limits *d, double th,
		       char *text, size_t len)
{
	double c = d->value[TP_RES_CORES];

	if (!declared(d, TP_RES_CORES) || r->cores_avg >= th * c)
		return false;
	snprintf(text, len, "%g %s declared, %.2f used on average (%.0f%%)", c,
		 PLURAL(c, "core", "cores"), r->cores_avg, 100 * r->cores_avg / c);
	return true;
}

/* The peak of size @res under @th of its declared MB; @what after "MB"
 * in the text. */
static bool peak_unused(const struct tp_summary *r, const struct tp_limits *d, enum tp_res res,
			double th, const char *what, char *text, size_t len)
{
	double m = d->value[res], peak = r->value[res];

	if (!declared(d, res) || !known(r, res) || peak >= th * m)
		return false;
	snprintf(text, len, "%g MB%s declared, %.0f MB peak (%.0f%%)", m, what, peak,
		 100 * peak / m);
	return true;
}

/* memory_unused: the peak under @th of the declared memory. */
static bool memory_unused(const struct tp_summary *r, const struct tp_limits *d, double th,
			  char *text, size_t len)
{
	return peak_unused(r, d, TP_RES_MEMORY, th, "", text, len);
}

/* wall_time_unused: under @th of the declared wall time used. */
static bool wall_time_unused(const struct tp_summary *r, const struct tp_limits *d, double th,
			     char *text, size_t len)
{
	double w = d->value[TP_RES_WALL_TIME], used = r->value[TP_RES_WALL_TIME];

	if (!declared(d, TP_RES_WALL_TIME) || !known(r, TP_RES_WALL_TIME) || used >= th * w)
		return false;
	snprintf(text, len, "%g s of wall time declared, %.1f s used (%.1f%%)", w, used,
		 100 * used / w);
	return true;
}

/* cpu_throttled: at least @th of the cgroup's CPU periods throttled. */
static bool cpu_throttled(const struct tp_summary *r, const struct tp_limits *d, double th,
			  char *text, size_t len)
{
	const struct tp_cg_pressure *p = &r->pressure;

	(void)d;
	if (!p->throttle_known || !p->nr_periods || !p->nr_throttled ||
	    (double)p->nr_throttled < th * (double)p->nr_periods)
		return false;
	snprintf(text, len, "the CPU quota throttled it in %llu of %llu periods",
		 (unsigned long long)p->nr_throttled, (unsigned long long)p->nr_periods);
	return true;
}

static bool stalled(const struct tp_summary *r, bool k, uint64_t us, double th,
		    const char *what, char *text, size_t len)
{
	double wall = r->value[TP_RES_WALL_TIME], s = (double)us / 1e6;

	if (!k || !known(r, TP_RES_WALL_TIME) || wall <= 0 || s < th * wall)
		return false;
	snprintf(text, len, "some of its processes waited on %s for %.1f s of %.1f s (%.0f%%)",
		 what, s, wall, 100 * s / wall);
	return true;
}

/* memory_pressure, io_pressure: PSI "some" stalls over @th of the wall time. */
static bool memory_pressure(const struct tp_summary *r, const struct tp_limits *d, double th,
			    char *text, size_t len)
{
	(void)d;
	return stalled(r, r->pressure.memory_known, r->pressure.memory_some_us, th, "memory",
		       text, len);
}

static bool io_pressure(const struct tp_summary *r, const struct tp_limits *d, double th,
			char *text, size_t len)
{
	(void)d;
	return stalled(r, r->pressure.io_known, r->pressure.io_some_us, th, "I/O", text, len);
}

/* single_threaded: @th or more cores declared, the peak under 1.5 cores
 * yet at least half a core (it worked, on one core). */
static bool single_threaded(const struct tp_summary *r, const struct tp_limits *d, double th,
			    char *text, size_t len)
{
	double c = d->value[TP_RES_CORES], peak = r->value[TP_RES_CORES];

	if (!declared(d, TP_RES_CORES) || c < th || !known(r, TP_RES_CORES) ||
	    peak >= 1.5 || peak < 0.5)
		return false;
	snprintf(text, len, "%g cores declared, at most %.2f used at once: single-threaded", c,
		 peak);
	return true;
}

/* gpu_idle: fewer GPUs used than declared (@th of them at most). */
static bool gpu_idle(const struct tp_summary *r, const struct tp_limits *d, double th,
		     char *text, size_t len)
{
	double n = d->value[TP_RES_GPUS], used = r->value[TP_RES_GPUS];

	if (!declared(d, TP_RES_GPUS) || !known(r, TP_RES_GPUS) || used > th * n - 0.5)
		return false;
	snprintf(text, len, "%g %s declared, %g used", n, PLURAL(n, "GPU", "GPUs"), used);
	return true;
}

/* gpu_memory_unused: the peak GPU memory under @th of the declared. */
static bool gpu_memory_unused(const struct tp_summary *r, const struct tp_limits *d, double th,
			      char *text, size_t len)
{
	return peak_unused(r, d, TP_RES_GPU_MEMORY, th, " of GPU memory", text, len);
}

/* sender_unknown: a signal ended the task, and nothing could say who
 * sent it: why not. */
static bool sender_unknown(const struct tp_summary *r, const struct tp_limits *d, double th,
			   char *text, size_t len)
{
	const struct tp_sender *s = &r->ending.sender;

	(void)d;
	(void)th;
	if (r->ending.cause != TP_END_SIGNAL || !r->ending.signal || s->known || !s->why)
		return false;
	snprintf(text, len, "signal %d: no sender named: %s", r->ending.signal, s->why);
	return true;
}

static const struct note_rule rules[] = {
	{ "cores_idle", 0.5, cores_idle },
	{ "memory_unused", 0.5, memory_unused },
	{ "wall_time_unused", 0.1, wall_time_unused },
	{ "cpu_throttled", 0.1, cpu_throttled },
	{ "memory_pressure", 0.1, memory_pressure },
	{ "io_pressure", 0.1, io_pressure },
	{ "single_threaded", 2, single_threaded },
	{ "sender_unknown", 0, sender_unknown },
	{ "gpu_idle", 1, gpu_idle },
	{ "gpu_memory_unused", 0.5, gpu_memory_unused },
};

size_t endnotes_compute(const struct tp_summary *r, const struct tp_limits *declared,
			struct tp_note out[TP_NOTES_MAX])
{
	size_t i, n = 0;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]) && n < TP_NOTES_MAX; i++)
		if (rules[i].check(r, declared, rules[i].threshold, out[n].text,
				   sizeof(out[n].text)))
			out[n++].code = rules[i].code;
	return n;
}

bool endnotes_retry(const struct tp_summary *r, const struct tp_limits *declared,
		    struct tp_retry *out)
{
	double seen = r->known[TP_RES_MEMORY] ? r->value[TP_RES_MEMORY] : 0;

	if (r->ending.cause == TP_END_OOM_KILL ||
	    (r->ending.cause == TP_END_LIMIT && r->exceeded.set[TP_RES_MEMORY])) {
		/* it needed at least the limit it hit */
		if (r->ending.oom_limit_mb > seen)
			seen = r->ending.oom_limit_mb;
		if (r->exceeded.set[TP_RES_MEMORY] && r->exceeded.value[TP_RES_MEMORY] > seen)
			seen = r->exceeded.value[TP_RES_MEMORY];
		out->resource = TP_RES_MEMORY;
		out->value = (double)round_memory_mb(RETRY_FACTOR * seen);
		return true;
	}
	if (r->ending.cause == TP_END_LIMIT && r->exceeded.set[TP_RES_WALL_TIME]) {
		double w = declared->set[TP_RES_WALL_TIME] ? declared->value[TP_RES_WALL_TIME] :
			   r->value[TP_RES_WALL_TIME];

		out->resource = TP_RES_WALL_TIME;
		out->value = (double)round_wall_s(RETRY_FACTOR * w);
		return true;
	}
	return false;
}
