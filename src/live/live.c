/* SPDX-License-Identifier: MIT */
/* live.c: the live outputs of one run (see live.h): the runtime file
 * (always, unless --no-live), the .prom textfile (--metrics-dir), the
 * InfluxDB lines and the catalog updates (through sender.c's thread).
 * The formats are in publish.c, prom.c, influx.c and catalog.c; here is
 * when and where they go.  A file that cannot be written is told once
 * and retried at the next point. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/clock.h"
#include "basic/messages.h"
#include "live/live.h"
#include "live/livedir.h"
#include "live/liveread.h"
#include "live/liveint.h"
#include "live/sender.h"
#include "basic/xmalloc.h"

/* A file replaced at each point and removed at the end. */
struct live_file {
	int dfd;			/* its directory, or -1: none */
	char *dir, *name;
	mode_t mode;
	bool failed;			/* told once */
};

struct tp_live {
	struct tp_live_meta m;
	char *task, *host;		/* owned strings of m */
	struct live_file run, prom;
	struct tp_sender *sender;
	bool influx;
	double last;			/* t of the last point published; <0 none */
	struct tp_live_point prev;	/* for the rates */
	double prev_t;
	double catalog_every, catalog_last;	/* s; <0 no catalog */
	char uuid[37];
	const char *cat_task, *cat_project, *owner;
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

/* @f in @dir (made private when @private_dir), named @name; a directory
 * that cannot be had is told (only in debug output if @quiet and it is
 * not someone else's). */
static void file_open(struct live_file *f, const char *dir, char *name, mode_t mode,
		      bool private_dir, bool quiet, const char *what)
{
	char why[512];

	f->name = name;
	f->mode = mode;
	f->dir = xstrdup(dir);
	if (private_dir) {
		f->dfd = livedir_open(dir, why, sizeof(why));
	} else {
		f->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (f->dfd < 0)
			snprintf(why, sizeof(why), "%s: %s", dir, strerror(errno));
	}
	/* a default runtime directory that cannot be made (a chroot
	 * without /run, a container) is no news; one that is not ours is */
	if (f->dfd < 0 && (!quiet || errno == EPERM))
		warn_msg("note: %s: %s; not written", what, why);
	else if (f->dfd < 0)
		debug_msg("%s: %s; not written", what, why);
}

static void file_write(struct live_file *f, const char *text)
{
	if (f->dfd < 0 || !text)
		return;
	if (livedir_replace(f->dfd, f->name, text, strlen(text), f->mode) == 0) {
		f->failed = false;
		return;
	}
	if (!f->failed)
		warn_msg("cannot write %s/%s: %s", f->dir, f->name, strerror(errno));
	f->failed = true;
}

static void file_close(struct live_file *f)
{
	if (f->dfd >= 0) {
		if (unlinkat(f->dfd, f->name, 0) < 0 && errno != ENOENT)
			warn_msg("cannot remove %s/%s: %s", f->dir, f->name, strerror(errno));
		close(f->dfd);
	}
	f->dfd = -1;
	free(f->dir);
	free(f->name);
}

static void start_catalog(struct tp_live *l, const struct tp_options *o)
{
	l->catalog_every = -1;
	if (!o->catalog_task_name)
		return;
	/* as resource_monitor: 30 s by default, never below the interval */
	l->catalog_every = o->catalog_interval > 0 ? o->catalog_interval : 30;
	if (l->catalog_every < o->interval)
		l->catalog_every = o->interval;
	l->catalog_last = -1e9;
	l->cat_task = o->catalog_task_name;
	l->cat_project = o->catalog_project ? o->catalog_project : o->catalog_task_name;
	l->owner = getenv("USER") ? getenv("USER") : "unknown";
	catalog_uuid(l->uuid);
}

struct tp_live *live_open(const struct tp_options *o, double start, pid_t root)
{
	struct tp_live *l;

	if (!o->live && !o->metrics_dir && !o->influxdb && !o->catalog_task_name)
		return NULL;
	l = xcalloc(1, sizeof(*l));
	l->run.dfd = l->prom.dfd = -1;
	l->last = -1;
	meta_init(l, o, start, root);
	if (o->live) {
		char *dir = livedir_path();

		const char *env = getenv("TPMON_RUNTIME_DIR");

		if (dir)
			file_open(&l->run, dir, xasprintf("%d%s", (int)l->m.pid, LIVEDIR_SUFFIX), 0600,
				  true, !(env && *env), "runtime directory");
		/* the files of killed tpmons go; a reader knows them anyway */
		if (l->run.dfd >= 0) {
			unsigned n = liveread_sweep(l->run.dfd);

			debug_msg("runtime directory: %u stale files removed", n);
		}
		free(dir);
	}
	if (o->metrics_dir)
		file_open(&l->prom, o->metrics_dir, xasprintf("tpmon-%d.prom", (int)l->m.pid), 0644,
			  false, false, "--metrics-dir");
	start_catalog(l, o);
	if (o->influxdb || o->catalog_task_name) {
		const char *proto = getenv("CATALOG_UPDATE_PROTOCOL");
		const char *hosts = o->catalog ? o->catalog :
				    getenv("CATALOG_HOST") ? getenv("CATALOG_HOST") :
				    "catalog.cse.nd.edu,backup-catalog.cse.nd.edu";
		char *url = o->influxdb ? influx_write_url(o->influxdb) : NULL;
		char why[512];

		l->sender = sender_new(url, o->catalog_task_name ? hosts : NULL,
				       proto && !strcmp(proto, "udp"), why, sizeof(why));
		if (!l->sender)
			warn_msg("note: %s; nothing sent", why);
		l->influx = sender_influx_on(l->sender);
		free(url);
	}
	return l;
}

static double rate(double now, double before, double dt)
{
	return dt > 0 && now >= before ? (now - before) / dt : -1;
}

static void publish(struct tp_live *l, const struct tp_live_point *p)
{
	double now = clock_wall();
	struct tp_live_rates rt = { -1, -1, -1 };
	double dt = p->t - l->prev_t;
	char *text;

	if (l->last >= 0) {
		rt.read = rate((double)p->read_bytes, (double)l->prev.read_bytes, dt);
		rt.written = rate((double)p->written_bytes, (double)l->prev.written_bytes, dt);
		if (p->net_known && l->prev.net_known)
			rt.net = rate((double)(p->received_bytes + p->sent_bytes),
				      (double)(l->prev.received_bytes + l->prev.sent_bytes), dt);
	}
	if (l->run.dfd >= 0) {
		text = publish_text(&l->m, p, &rt, now);
		file_write(&l->run, text);
		free(text);
	}
	if (l->prom.dfd >= 0) {
		text = prom_text(&l->m, p);
		file_write(&l->prom, text);
		free(text);
	}
	if (l->influx)
		sender_influx(l->sender, influx_line(&l->m, p, now));
	l->prev = *p;
	l->prev.state = NULL;
	l->prev_t = p->t;
	l->last = p->t;
}

void live_sample(struct tp_live *l, const struct tp_live_point *p)
{
	if (!l || (l->last >= 0 && p->t - l->last < LIVE_EVERY))
		return;
	publish(l, p);
}

bool live_catalog_due(const struct tp_live *l, double t)
{
	return l && l->sender && l->catalog_every > 0 && t - l->catalog_last >= l->catalog_every;
}

void live_catalog(struct tp_live *l, double t, const char *json)
{
	char *text;

	if (!l || !l->sender || l->catalog_every <= 0)
		return;
	l->catalog_last = t;
	text = catalog_text(json, l->uuid, l->owner, l->cat_task, l->cat_project);
	if (text)
		sender_catalog(l->sender, text);
}

void live_final(struct tp_live *l, const struct tp_live_point *p)
{
	if (l)
		publish(l, p);
}

void live_close(struct tp_live *l)
{
	if (!l)
		return;
	file_close(&l->run);
	file_close(&l->prom);
	sender_end(l->sender);
	free(l->task);
	free(l->host);
	free(l);
}
