/* SPDX-License-Identifier: MIT */
/* live.c: the live outputs of one run (see live.h): the table of targets
 * (livetarget.h: the runtime file, the .prom textfile, InfluxDB, the
 * catalog, one file each) and when they get a point: at most one per
 * LIVE_EVERY s, with the rates since the last, and the last one at the
 * end.  What a target does with it is its own file's business. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/clock.h"
#include "live/live.h"
#include "live/livedir.h"
#include "live/livetarget.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"

/* The table: a new target is a file with its row, a line here, and its
 * option in config/options.c. */
const struct tp_live_target *const live_targets[] = {
	&live_target_runfile,
	&live_target_prom,
	&live_target_influx,
	&live_target_catalog,
	NULL,
};

struct tp_live {
	struct tp_live_meta m;
	char *task, *host;		/* owned strings of m */
	void **state;			/* per row of live_targets; NULL: off */
	bool *due;			/* per row: live_summary_due() said so */
	struct tp_livequeue *queue;	/* the sending thread, or NULL */
	double last;			/* t of the last point published; <0 none */
	struct tp_live_point prev;	/* for the rates */
	double prev_t;
};

static const char *verbatim(const struct tp_options *o, const char *key)
{
	size_t i;

	for (i = 0; i < o->nverbatim; i++)
		if (!strcmp(o->verbatim[i].key, key))
			return o->verbatim[i].value;
	return NULL;
}

/* The batch system's job id, where one is known. */
static const char *job_id(void)
{
	static const char *const vars[] = { "SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID",
					    "JOB_ID", "_CONDOR_JOB_AD_ID" };
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return v;
	}
	return NULL;
}

static void meta_init(struct tp_live *l, const struct tp_options *o, double start, pid_t root)
{
	const char *slash = strrchr(o->template, '/');
	char host[256] = "unknown";

	gethostname(host, sizeof(host) - 1);
	l->host = xstrdup(host);
	l->task = xstrdup(slash ? slash + 1 : o->template);
	l->m.command = o->command;
	l->m.category = verbatim(o, "category");
	l->m.template = o->template;
	l->m.task = l->task;
	l->m.job = job_id();
	l->m.task_id = verbatim(o, "task_id");
	if (!l->m.task_id)
		l->m.task_id = verbatim(o, "taskid");
	l->m.host = l->host;
	l->m.pid = getpid();
	l->m.pid_start = livedir_starttime(l->m.pid);
	l->m.root = root;
	l->m.start = start;
	l->m.limits = &o->limits;
	l->m.interval = o->interval;
}

static bool any_wanted(const struct tp_options *o)
{
	size_t i;

	for (i = 0; live_targets[i]; i++)
		if (live_targets[i]->wanted(o))
			return true;
	return false;
}

struct tp_live *live_open(const struct tp_options *o, double start, pid_t root)
{
	struct tp_live *l;
	size_t i, n;

	if (!any_wanted(o))
		return NULL;
	for (n = 0; live_targets[n]; n++)
		;
	l = xcalloc(1, sizeof(*l));
	l->state = xcalloc(n, sizeof(*l->state));
	l->due = xcalloc(n, sizeof(*l->due));
	l->last = -1;
	meta_init(l, o, start, root);
	for (i = 0; i < n; i++) {
		char why[640] = "";

		if (!live_targets[i]->wanted(o))
			continue;
		l->state[i] = live_targets[i]->open(o, &l->m, &l->queue, why, sizeof(why));
		if (!l->state[i] && why[0])
			warn_msg("note: %s", why);
	}
	return l;
}

static double rate(double now, double before, double dt)
{
	return dt > 0 && now >= before ? (now - before) / dt : -1;
}

static void publish(struct tp_live *l, const struct tp_live_point *p, bool final)
{
	double now = clock_wall();
	struct tp_live_rates rt = { -1, -1, -1 };
	double dt = p->t - l->prev_t;
	size_t i;

	if (l->last >= 0) {
		rt.read = rate((double)p->read_bytes, (double)l->prev.read_bytes, dt);
		rt.written = rate((double)p->written_bytes, (double)l->prev.written_bytes, dt);
		if (p->net_known && l->prev.net_known)
			rt.net = rate((double)(p->received_bytes + p->sent_bytes),
				      (double)(l->prev.received_bytes + l->prev.sent_bytes), dt);
	}
	for (i = 0; live_targets[i]; i++) {
		if (!l->state[i])
			continue;
		if (final)
			live_targets[i]->final(l->state[i], p, &rt, now);
		else
			live_targets[i]->point(l->state[i], p, &rt, now);
	}
	l->prev = *p;
	l->prev.state = NULL;
	l->prev_t = p->t;
	l->last = p->t;
}

void live_sample(struct tp_live *l, const struct tp_live_point *p)
{
	if (!l || (l->last >= 0 && p->t - l->last < LIVE_EVERY))
		return;
	publish(l, p, false);
}

bool live_summary_due(struct tp_live *l, double t)
{
	bool any = false;
	size_t i;

	for (i = 0; l && live_targets[i]; i++) {
		l->due[i] = l->state[i] && live_targets[i]->summary_due &&
			    live_targets[i]->summary_due(l->state[i], t);
		any |= l->due[i];
	}
	return any;
}

void live_summary(struct tp_live *l, double t, const char *json)
{
	size_t i;

	for (i = 0; l && live_targets[i]; i++)
		if (l->due[i]) {
			live_targets[i]->summary(l->state[i], t, json);
			l->due[i] = false;
		}
}

void live_final(struct tp_live *l, const struct tp_live_point *p)
{
	if (l)
		publish(l, p, true);
}

void live_close(struct tp_live *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; live_targets[i]; i++)
		if (l->state[i])
			live_targets[i]->close(l->state[i]);
	livequeue_end(l->queue);
	free(l->state);
	free(l->due);
	free(l->task);
	free(l->host);
	free(l);
}
