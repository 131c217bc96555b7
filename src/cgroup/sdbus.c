/* SPDX-License-Identifier: MIT */
/* sdbus.c: a transient systemd scope with Delegate=yes for tpmon, asked
 * of the user's systemd through sd-bus (see sdbus.h).  libsystemd is
 * loaded with dlopen(); the few functions used are declared here, as
 * sd-bus(3) documents them, so building needs no libsystemd-dev. */
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cgroup/sdbus.h"
#include "basic/messages.h"

typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_slot sd_bus_slot;
/* as sd-bus lays it out; tpmon reads name and message only */
typedef struct {
	const char *name;
	const char *message;
	int need_free;	/* cppcheck-suppress unusedStructMember */
} sd_bus_error;
typedef int (*sd_bus_handler)(sd_bus_message *m, void *userdata, sd_bus_error *err);

struct sd_api {
	void *dl;
	int (*open_user)(sd_bus **);
	int (*new_call)(sd_bus *, sd_bus_message **, const char *, const char *,
			const char *, const char *);
	int (*append)(sd_bus_message *, const char *, ...);
	int (*open_container)(sd_bus_message *, char, const char *);
	int (*close_container)(sd_bus_message *);
	int (*call_async)(sd_bus *, sd_bus_slot **, sd_bus_message *, sd_bus_handler, void *,
			  uint64_t);
	int (*read)(sd_bus_message *, const char *, ...);
	int (*add_match_async)(sd_bus *, sd_bus_slot **, const char *, sd_bus_handler,
			       sd_bus_handler, void *);
	int (*is_method_error)(sd_bus_message *, const char *);
	const sd_bus_error *(*get_error)(sd_bus_message *);
	int (*process)(sd_bus *, sd_bus_message **);
	int (*wait)(sd_bus *, uint64_t);
	void (*close)(sd_bus *);
	sd_bus *(*unref)(sd_bus *);
	sd_bus_message *(*msg_unref)(sd_bus_message *);
};

/* The call's answer, and what JobRemoved said of its job. */
struct job_wait {
	const struct sd_api *api;
	char job[256];		/* the job's object path, "" until the reply */
	char error[256];	/* the reply's error, or "" */
	bool done;		/* JobRemoved came for the job, or an error */
	char result[32];	/* "done", "failed", ... */
};

static int sd_load(struct sd_api *a, char *why, size_t whysize)
{
	static const char *const names[] = {
		"sd_bus_open_user", "sd_bus_message_new_method_call", "sd_bus_message_append",
		"sd_bus_message_open_container", "sd_bus_message_close_container",
		"sd_bus_call_async", "sd_bus_message_read", "sd_bus_add_match_async",
		"sd_bus_message_is_method_error", "sd_bus_message_get_error", "sd_bus_process",
		"sd_bus_wait", "sd_bus_close", "sd_bus_unref", "sd_bus_message_unref",
	};
	void **slot[] = {
		(void **)&a->open_user, (void **)&a->new_call, (void **)&a->append,
		(void **)&a->open_container, (void **)&a->close_container,
		(void **)&a->call_async, (void **)&a->read, (void **)&a->add_match_async,
		(void **)&a->is_method_error, (void **)&a->get_error, (void **)&a->process,
		(void **)&a->wait, (void **)&a->close, (void **)&a->unref, (void **)&a->msg_unref,
	};
	size_t i;

	a->dl = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
	if (!a->dl) {
		snprintf(why, whysize, "cannot load libsystemd: %s", dlerror());
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		*slot[i] = dlsym(a->dl, names[i]);
		if (!*slot[i]) {
			snprintf(why, whysize, "libsystemd has no %s (too old)", names[i]);
			dlclose(a->dl);
			a->dl = NULL;
			return -1;
		}
	}
	return 0;
}

int sdbus_in_batch_cgroup(const char *cgtext)
{
	static const char *const marks[] = { "slurm", "condor", "pbs", "/job_" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++)
		if (strstr(cgtext, marks[i]))
			return 1;
	return 0;
}

int sdbus_wanted(const char *cgtext, char *why, size_t whysize)
{
	static const char *const batch_env[] = { "SLURM_JOB_ID", "PBS_JOBID", "_CONDOR_JOB_AD" };
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char bus[4096];
	size_t i;

	if (getuid() == 0)
		return snprintf(why, whysize, "root: no user scope"), -1;
	for (i = 0; i < ARRAY_SIZE(batch_env); i++)
		if (getenv(batch_env[i]))
			return snprintf(why, whysize, "in a batch job (%s): a scope would escape "
					"its cgroup", batch_env[i]), -1;
	if (sdbus_in_batch_cgroup(cgtext))
		return snprintf(why, whysize, "in a batch job's cgroup: a scope would escape it"), -1;
	if (getenv("DBUS_SESSION_BUS_ADDRESS"))
		return 0;
	if (!rt || rt[0] != '/' || snprintf(bus, sizeof(bus), "%s/bus", rt) >= (int)sizeof(bus) ||
	    access(bus, F_OK) < 0)
		return snprintf(why, whysize, "no user bus"), -1;
	return 0;
}

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct job_wait *w = userdata;
	const char *path = NULL, *unit = NULL, *result = NULL;
	uint32_t id;

	(void)err;
	if (w->api->read(m, "uoss", &id, &path, &unit, &result) < 0 || !path || !result)
		return 0;
	if (w->job[0] && !strcmp(path, w->job)) {
		w->done = true;
		snprintf(w->result, sizeof(w->result), "%s", result);
	}
	return 0;
}

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct job_wait *w = userdata;
	const char *job = NULL;

	(void)err;
	if (w->api->is_method_error(m, NULL) > 0) {
		const sd_bus_error *e = w->api->get_error(m);

		snprintf(w->error, sizeof(w->error), "%s",
			 e && e->message ? e->message : e && e->name ? e->name : "an error");
		w->done = true;
	} else if (w->api->read(m, "o", &job) < 0 || !job) {
		snprintf(w->error, sizeof(w->error), "a reply without a job");
		w->done = true;
	} else {
		snprintf(w->job, sizeof(w->job), "%s", job);
	}
	return 0;
}

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The StartTransientUnit call for scope @name with tpmon's pid.  0 or a
 * negative errno. */
static int build_call(const struct sd_api *a, sd_bus *bus, const char *name,
		      sd_bus_message **m)
{
	int r = a->new_call(bus, m, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
			    "org.freedesktop.systemd1.Manager", "StartTransientUnit");

	if (r >= 0)
		r = a->append(*m, "ss", name, "fail");
	if (r >= 0)
		r = a->open_container(*m, 'a', "(sv)");
	if (r >= 0)
		r = a->append(*m, "(sv)", "PIDs", "au", 1, (uint32_t)getpid());
	if (r >= 0)
		r = a->append(*m, "(sv)", "Delegate", "b", 1);
	if (r >= 0)
		r = a->append(*m, "(sv)", "Description", "s", "tpmon: a cgroup of its own");
	if (r >= 0)
		r = a->close_container(*m);
	if (r >= 0)
		r = a->append(*m, "a(sa(sv))", 0);
	return r < 0 ? r : 0;
}

/* Wait until @w's job is removed or @deadline (usec).  0 when done. */
static int wait_job(const struct sd_api *a, sd_bus *bus, struct job_wait *w, uint64_t deadline)
{
	while (!w->done) {
		uint64_t t = now_usec();
		int r = a->process(bus, NULL);

		if (r < 0)
			return r;
		if (r > 0)
			continue;
		if (t >= deadline)
			return -ETIMEDOUT;
		r = a->wait(bus, deadline - t);
		if (r < 0 && r != -EINTR)
			return r;
	}
	return 0;
}

/* The call and the wait on an open @bus, all asynchronous (the
 * connection's authentication too), so that nothing waits past
 * @deadline.  0, or -1 with @why. */
static int ask(const struct sd_api *a, sd_bus *bus, const char *name, uint64_t deadline,
	       char *why, size_t whysize)
{
	sd_bus_message *m = NULL;
	struct job_wait w;
	uint64_t t = now_usec();
	int r;

	memset(&w, 0, sizeof(w));
	w.api = a;
	r = a->add_match_async(bus, NULL, "type='signal',sender='org.freedesktop.systemd1',"
			       "interface='org.freedesktop.systemd1.Manager',member='JobRemoved',"
			       "path='/org/freedesktop/systemd1'", on_job_removed, NULL, &w);
	if (r >= 0)
		r = build_call(a, bus, name, &m);
	if (r >= 0)
		r = a->call_async(bus, NULL, m, on_reply, &w, deadline > t ? deadline - t : 1);
	if (r >= 0)
		r = wait_job(a, bus, &w, deadline);
	a->msg_unref(m);
	if (r < 0)
		snprintf(why, whysize, "systemd's StartTransientUnit: %s%s", strerror(-r),
			 r == -ETIMEDOUT ? " (no answer in time)" : "");
	else if (w.error[0])
		snprintf(why, whysize, "systemd's StartTransientUnit: %s", w.error);
	else if (strcmp(w.result, "done") != 0)
		snprintf(why, whysize, "systemd's job for %s ended %s", name, w.result);
	return r < 0 || w.error[0] || strcmp(w.result, "done") != 0 ? -1 : 0;
}

int sdbus_scope(int timeout_ms, char *why, size_t whysize)
{
	struct sd_api a;
	sd_bus *bus = NULL;
	char name[64];
	uint64_t deadline = now_usec() + (uint64_t)timeout_ms * 1000u;
	struct timespec ts;
	int r;

	memset(&a, 0, sizeof(a));
	if (sd_load(&a, why, whysize) < 0)
		return -1;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(name, sizeof(name), "tpmon-%d-%lx.scope", (int)getpid(),
		 (unsigned long)ts.tv_nsec & 0xffffffu);
	/* libsystemd stays loaded once used: its caches outlive the bus */
	r = a.open_user(&bus);
	if (r < 0) {
		snprintf(why, whysize, "cannot reach the user bus: %s", strerror(-r));
		return -1;
	}
	r = ask(&a, bus, name, deadline, why, whysize);
	/* closed, not flushed: a flush of what a silent bus never read
	 * waits for libsystemd's own timeout (90 s), past the deadline */
	a.close(bus);
	a.unref(bus);
	if (r == 0)
		debug_msg("cgroup: systemd gave tpmon the scope %s", name);
	return r;
}
