/* SPDX-License-Identifier: MIT */
/* cgrun_v2.c: a run's cgroups on a cgroup v2 with the memory and pids
 * controllers (cghost.h): where the run may go (tpmon's own cgroup, its
 * parent, --cgroup=PATH), the run's cgroups with tpmon in the monitor
 * leaf, the limits, the kill, the teardown and the sweep of dead runs. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cgroup/cgroup.h"
#include "cgroup/cghost.h"
#include "cgroup/cgrun.h"
#include "cgroup/cghome.h"
#include "basic/messages.h"

/* the controllers a run hands to its task, where the base has them */
#define WANTED (TP_CG_CPU | TP_CG_MEMORY | TP_CG_PIDS | TP_CG_IO)

enum { GUARD_WAIT_MS = 2000 };

static bool writable(const char *dir, const char *file)
{
	char p[TP_CGRUN_PATH];

	if (!file)
		return access(dir, W_OK) == 0;
	return cgroup_join(p, sizeof(p), dir, file) == 0 && access(p, W_OK) == 0;
}

/* The hierarchy's real root has no cgroup.type: only it may hold
 * processes and hand controllers down at once. */
static bool is_real_root(const char *dir)
{
	char p[TP_CGRUN_PATH];

	return cgroup_join(p, sizeof(p), dir, "cgroup.type") == 0 &&
	       access(p, F_OK) < 0 && errno == ENOENT;
}

/* Processes in @dir other than @self; -1 when unreadable. */
static int others_in(const char *dir, pid_t self)
{
	char buf[8192];
	const char *p;
	int n = 0;

	if (cgroup_read(dir, "cgroup.procs", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; *p;) {
		long pid = strtol(p, NULL, 10);

		/* 0: a process of another pid namespace, which this one
		 * cannot see (tpmon in a container): another all the same */
		if (pid >= 0 && pid != self && (pid > 0 || *p == '0'))
			n++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return n;
}

static bool systemd_unit(const char *dir)
{
	const char *base = strrchr(dir, '/');
	size_t n;

	base = base ? base + 1 : dir;
	n = strlen(base);
	return (n > 6 && !strcmp(base + n - 6, ".slice")) ||
	       (n > 6 && !strcmp(base + n - 6, ".scope")) ||
	       (n > 8 && !strcmp(base + n - 8, ".service"));
}

/* May tpmon empty @dir (its own cgroup) and make its run inside? */
static int own_usable(const char *dir, char *why, size_t size)
{
	int others;

	if (!writable(dir, NULL) || !writable(dir, "cgroup.procs") ||
	    !writable(dir, "cgroup.subtree_control"))
		return cgrun_why(why, size, "%s is not writable by uid %d (no delegated cgroup)",
			       dir, (int)getuid());
	if (getuid() != 0 && !cghome_owned(dir))
		return cgrun_why(why, size, "%s is writable but not delegated to uid %d "
			       "(not its owner)", dir, (int)getuid());
	if ((cgroup_controllers(dir, "cgroup.controllers") & TP_CG_NEEDED) != TP_CG_NEEDED)
		return cgrun_why(why, size, "%s does not offer the memory and pids controllers", dir);
	if (is_real_root(dir))
		return 0;
	others = others_in(dir, getpid());
	if (others != 0)
		return cgrun_why(why, size, "%s holds %d other process%s: tpmon needs a cgroup of its own",
			       dir, others, others == 1 ? "" : "es");
	return 0;
}

/* May tpmon make its run in @dir (tpmon is not in it), as it is? */
static int beside_usable(const char *dir, char *why, size_t size)
{
	if (!writable(dir, NULL) || !writable(dir, "cgroup.procs"))
		return cgrun_why(why, size, "%s is not writable by uid %d", dir, (int)getuid());
	if (getuid() != 0 && !cghome_owned(dir))
		return cgrun_why(why, size, "%s is not delegated to uid %d", dir, (int)getuid());
	if ((cgroup_controllers(dir, "cgroup.subtree_control") & TP_CG_NEEDED) != TP_CG_NEEDED &&
	    (cgroup_controllers(dir, "cgroup.controllers") & TP_CG_NEEDED) != TP_CG_NEEDED)
		return cgrun_why(why, size, "%s does not offer the memory and pids controllers", dir);
	return 0;
}

static void parent_of(const char *dir, char *out, size_t size)
{
	const char *slash = strrchr(dir, '/');
	size_t n = slash ? (size_t)(slash - dir) : 0;

	if (n >= size)
		n = size - 1;
	memcpy(out, dir, n);
	out[n] = '\0';
}

/* A parent that a user's job was given: owned by the user (never root)
 * and holding no process itself, as HTCondor's per-job .slice. */
static bool delegated_parent(const char *dir)
{
	char buf[16];

	return getuid() != 0 && cghome_owned(dir) &&
	       cgroup_read(dir, "cgroup.procs", buf, sizeof(buf)) == 0;
}

/* Where the run goes: BASE in @c.  Returns 1 when BASE is tpmon's own
 * cgroup (tpmon empties it), 2 when it is a delegated parent (tpmon hands
 * its controllers down), 0 when tpmon is not inside, -1 with @why. */
static int choose_base(struct tp_cgrun *c, const char *path, char *why, size_t size)
{
	char parent[TP_CGRUN_PATH], why2[512];

	if (path) {
		if (path[0] != '/')
			return cgrun_why(why, size, "--cgroup=%s: expected an absolute path", path);
		if (strncmp(path, c->mount, strlen(c->mount)) == 0 &&
		    (path[strlen(c->mount)] == '/' || !path[strlen(c->mount)]))
			snprintf(c->base, sizeof(c->base), "%s", path);
		else if (snprintf(c->base, sizeof(c->base), "%s%s", c->mount, path) >= (int)sizeof(c->base))
			return cgrun_why(why, size, "--cgroup=%s: path too long", path);
		while (strlen(c->base) > strlen(c->mount) && c->base[strlen(c->base) - 1] == '/')
			c->base[strlen(c->base) - 1] = '\0';
		if (access(c->base, F_OK) < 0)
			return cgrun_why(why, size, "--cgroup=%s: %s", path, strerror(errno));
		if (!strcmp(c->base, c->origin))
			return own_usable(c->base, why, size) < 0 ? -1 : 1;
		return beside_usable(c->base, why, size) < 0 ? -1 : 0;
	}
	if (own_usable(c->origin, why, size) == 0) {
		snprintf(c->base, sizeof(c->base), "%s", c->origin);
		return 1;
	}
	/* beside tpmon's cgroup, where its parent already hands the
	 * controllers down: the root, or an enclosing tpmon's task */
	if (!strcmp(c->origin, c->mount))
		return -1;
	parent_of(c->origin, parent, sizeof(parent));
	if (delegated_parent(parent)) {
		/* HTCondor's job slice, chowned to the job's user */
		if (beside_usable(parent, why, size) < 0)
			return -1;
		snprintf(c->base, sizeof(c->base), "%s", parent);
		debug_msg("cgroup: %s is delegated to uid %d: the run beside tpmon's cgroup",
			  parent, (int)getuid());
		return 2;
	}
	if (strcmp(parent, c->mount) != 0 && systemd_unit(parent))
		return -1;	/* systemd's own: not to be written into */
	if ((cgroup_controllers(parent, "cgroup.subtree_control") & TP_CG_NEEDED) != TP_CG_NEEDED ||
	    beside_usable(parent, why2, sizeof(why2)) < 0)
		return -1;
	snprintf(c->base, sizeof(c->base), "%s", parent);
	return 0;
}

static int v2_find(struct tp_cgrun *c, const char *path, char *why, size_t size)
{
	char rel[TP_CGRUN_PATH];
	char *text = cgrun_read_text("/proc/self/mountinfo");
	int r;

	r = text ? cgroup_parse_mount(text, c->mount, sizeof(c->mount)) : -1;
	free(text);
	if (r < 0)
		return cgrun_why(why, size, "no cgroup v2 file system is mounted");
	text = cgrun_read_text("/proc/self/cgroup");
	r = text ? cgroup_parse_self(text, rel, sizeof(rel)) : -1;
	free(text);
	if (r < 0)
		return cgrun_why(why, size, "tpmon is in no cgroup v2 hierarchy");
	if (snprintf(c->origin, sizeof(c->origin), "%s%s", c->mount,
		     strcmp(rel, "/") ? rel : "") >= (int)sizeof(c->origin))
		return cgrun_why(why, size, "cgroup path too long");
	/* first of all: on a cgroup v1 or hybrid machine the controllers
	 * live elsewhere, and nothing is made */
	if ((cgroup_controllers(c->mount, "cgroup.controllers") & TP_CG_NEEDED) != TP_CG_NEEDED)
		return cgrun_why(why, size, "the memory and pids controllers are not on cgroup v2 "
			       "here (%s; a cgroup v1 or hybrid hierarchy holds them)", c->mount);
	return choose_base(c, path, why, size);
}

static int join_run(struct tp_cgrun *c)
{
	char name[64];

	cgrun_run_name(name, sizeof(name));
	if (cgroup_join(c->run, sizeof(c->run), c->base, name) < 0 ||
	    cgroup_join(c->monitor, sizeof(c->monitor), c->run, "monitor") < 0 ||
	    cgroup_join(c->task, sizeof(c->task), c->run, "task") < 0 ||
	    cgroup_join(c->leaf, sizeof(c->leaf), c->task, "main") < 0)
		return -1;
	return 0;
}

/* Wait until @dir holds no process but @self (the guard leaving). */
static void wait_alone(const char *dir, pid_t self)
{
	struct timespec ts = { 0, 2000000 };
	int i;

	for (i = 0; i < GUARD_WAIT_MS / 2 && others_in(dir, self) > 0; i++)
		nanosleep(&ts, NULL);
}

/* Undo whatever part of the run exists: used on setup failures, at the
 * end by tpmon, and by the guard.  Async-signal-safe but for wait_alone's
 * strtol. */
static void v2_teardown(const struct tp_cgrun *c, pid_t self)
{
	if (!c->run[0])
		return;		/* nothing was made */
	if (c->task[0] && access(c->task, F_OK) == 0) {
		cgroup_kill(c->task, TP_CG_KILL_WAIT_MS, c->kill_file);
		cgroup_remove(c->task, TP_CG_REMOVE_WAIT_MS);
	}
	wait_alone(c->monitor, self);
	/* tpmon's own cgroup again as it was, so tpmon may go back */
	cgroup_disable(c->run, cgroup_controllers(c->run, "cgroup.subtree_control"));
	if (c->base_added)
		cgroup_disable(c->base, c->base_added);
	cgroup_enter(c->origin, self);
	cgroup_remove(c->run, TP_CG_REMOVE_WAIT_MS);
}

static int make_run(struct tp_cgrun *c, bool own, char *why, size_t size)
{
	unsigned have;

	if (join_run(c) < 0)
		return cgrun_why(why, size, "cgroup path too long");
	if (mkdir(c->run, 0755) < 0 || mkdir(c->monitor, 0755) < 0)
		return cgrun_why(why, size, "cannot create %s: %s", c->monitor, strerror(errno));
	/* tpmon goes into its leaf only where it may come back: a job's
	 * scope in a delegated slice may belong to root */
	if (writable(c->origin, "cgroup.procs")) {
		if (cgroup_enter(c->monitor, 0) < 0)
			return cgrun_why(why, size, "cannot move tpmon into %s: %s",
				       c->monitor, strerror(errno));
		c->in_monitor = true;
	}
	if (own) {
		have = cgroup_controllers(c->base, "cgroup.subtree_control");
		c->base_added = cgroup_controllers(c->base, "cgroup.controllers") & WANTED & ~have;
		if (cgroup_enable(c->base, c->base_added) < 0) {
			int e = errno;

			c->base_added = 0;
			return cgrun_why(why, size, "cannot hand controllers down in %s: %s",
				       c->base, strerror(e));
		}
	}
	have = cgroup_controllers(c->run, "cgroup.controllers") & WANTED;
	if (cgroup_enable(c->run, have) < 0 || mkdir(c->task, 0755) < 0 ||
	    cgroup_enable(c->task, cgroup_controllers(c->task, "cgroup.controllers") & WANTED) < 0 ||
	    mkdir(c->leaf, 0755) < 0)
		return cgrun_why(why, size, "cannot set up %s: %s", c->task, strerror(errno));
	c->controllers = cgroup_controllers(c->task, "cgroup.controllers");
	if ((c->controllers & TP_CG_NEEDED) != TP_CG_NEEDED)
		return cgrun_why(why, size, "%s lacks the memory or pids controller", c->task);
	/* TPMON_CGROUP_NO_KILL_FILE=1 takes the way of kernels before
	 * 5.14 (freeze and kill each process), to test it on a newer one */
	c->kill_file = cgroup_can_kill(c->task) && !getenv("TPMON_CGROUP_NO_KILL_FILE");
	return 0;
}

static int v2_limit(const struct tp_cgrun *c, uint64_t mem_bytes, uint64_t pids)
{
	int r = 0;

	if (mem_bytes != TP_CG_MAX) {
		r |= cgrun_set(c->task, "memory.max", cgrun_mem_limit(mem_bytes));
		/* no swap file, or no swap accounting: nothing to hold */
		if (cgroup_write(c->task, "memory.swap.max", "0") < 0 && errno != ENOENT)
			r |= cgrun_set(c->task, "memory.swap.max", 0);
		r |= cgrun_set(c->task, "memory.oom.group", 1);
	}
	if (pids != TP_CG_MAX)
		r |= cgrun_set(c->task, "pids.max", pids);
	return r ? -1 : 0;
}

/* Remove the runs beside @c that dead tpmons left: a run's layout (or
 * its mark alone, cgrun_is_run_mark()), this user's, settled, and its
 * monitor leaf empty by the kernel's cgroup.events (which counts
 * processes no pid namespace can hide).  Killed without freezing, within
 * what is left of @deadline.  Returns how many. */
static int v2_sweep(const struct tp_cgrun *c, uint64_t deadline)
{
	static const char *const layout[] = { "monitor", "task", NULL };
	char run[TP_CGRUN_PATH], mon[TP_CGRUN_PATH];
	uint64_t finish;
	DIR *d = opendir(c->base);
	struct dirent *e;
	bool whole;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && cgrun_ms_left(deadline) > 0) {
		if (!cgrun_run_named(e->d_name) ||
		    cgroup_join(run, sizeof(run), c->base, e->d_name) < 0 ||
		    !strcmp(run, c->run) ||
		    cgroup_join(mon, sizeof(mon), run, "monitor") < 0 ||
		    !cgrun_settled(run))
			continue;
		/* the monitor leaf alone: what a tpmon or a sweep killed as
		 * it removed the run left (the leaf goes last), nothing to
		 * kill */
		whole = cgrun_is_run(run, layout);
		if (!whole && !cgrun_is_run_mark(run))
			continue;
		/* a live tpmon (or its guard) is always in its monitor leaf */
		if (cgroup_populated(mon) != 0)
			continue;
		finish = cgrun_now_ms() + TP_CG_SWEEP_RUN_MS;
		if ((!whole || cgroup_kill_unfrozen(run, cgrun_ms_left(finish)) == 0) &&
		    cgrun_remove_run(run, cgrun_ms_left(finish)) == 0) {
			debug_msg("cgroup: swept %s", run);
			n++;
		}
	}
	closedir(d);
	return n;
}

int cgrun_v2_open(struct tp_cgrun *c, const char *path, char *why, size_t size)
{
	int own = v2_find(c, path, why, size);

	if (own < 0)
		return -1;
	if (make_run(c, own >= 1, why, size) < 0)
		return -1;
	c->name = c->task + strlen(c->mount);
	c->procs = c->task;
	c->leaves[0] = c->leaf;
	snprintf(c->layout, sizeof(c->layout), "cgroup v2");
	return 0;
}

static int v2_kill(const struct tp_cgrun *c, int wait_ms)
{
	return cgroup_kill(c->task, wait_ms, c->kill_file);
}

static void v2_figures(const struct tp_cgrun *c, struct tp_cg_figures *f)
{
	cgroup_figures(c->task, f);
}

/* The scope's row (cgrun_scope.c opens it): v2's calls, in the scope. */
const struct tp_cg_host cgrun_scope_host = {
	.name = "cgroup v2 in a systemd scope",
	.needs = TP_CG_ALLOW_SCOPE,
	.open = cgrun_scope_open,
	.teardown = v2_teardown,
	.kill = v2_kill,
	.limit = v2_limit,
	.figures = v2_figures,
	.sweep = v2_sweep,
};

const struct tp_cg_host cgrun_v2_host = {
	.name = "cgroup v2",
	.open = cgrun_v2_open,
	.teardown = v2_teardown,
	.kill = v2_kill,
	.limit = v2_limit,
	.figures = v2_figures,
	.sweep = v2_sweep,
};
