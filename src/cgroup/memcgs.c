/* SPDX-License-Identifier: MIT */
/* memcgs.c: the memory cgroups around tpmon and their OOM-kill counters
 * (see memcgs.h).  v1: memory.oom_control and memory.limit_in_bytes under
 * the memory controller's mount; v2: memory.events and memory.max under
 * the cgroup2 mount.  A cgroup without the file (no memory controller
 * there) is skipped; one whose file cannot be read is named. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/xmalloc.h"
#include "cgroup/cgroup.h"
#include "cgroup/memcgs.h"
#include "kernel/mounts.h"
#include "kernel/proc.h"

struct memcg {
	char *dir;		/* its directory */
	char *name;		/* "v1 memory:/a/b", "v2:/a/b" */
	bool v1;
	bool readable;		/* its counter answered before */
	uint64_t before;
};

struct tp_memcgs {
	struct memcg *v;
	size_t n;
	bool vmstat;		/* /proc/vmstat's oom_kill answered */
	uint64_t vmstat_before;
	char unreadable[512];
};

int memcgs_parse_count(const char *buf, uint64_t *v)
{
	return cgroup_parse_key(buf, "oom_kill", v);
}

/* Read the counter of @c into @v: 1, 0 when the file is not there, -1. */
static int read_count(const struct memcg *c, uint64_t *v)
{
	char buf[1024];

	if (cgroup_read(c->dir, c->v1 ? "memory.oom_control" : "memory.events",
			buf, sizeof(buf)) < 0)
		return errno == ENOENT ? 0 : -1;
	return memcgs_parse_count(buf, v) == 0 ? 1 : 0;
}

/* The peak memory usage of @c in bytes (v1 memory.max_usage_in_bytes,
 * v2 memory.peak): 0, or -1 when it has none. */
static int read_peak(const struct memcg *c, uint64_t *v)
{
	char buf[64];

	if (cgroup_read(c->dir, c->v1 ? "memory.max_usage_in_bytes" : "memory.peak",
			buf, sizeof(buf)) < 0 || cgroup_parse_value(buf, v) < 0)
		return -1;
	return 0;
}

static void add(struct tp_memcgs *m, const char *dir, const char *name, bool v1)
{
	struct memcg c = { xstrdup(dir), xstrdup(name), v1, false, 0 };
	int r = read_count(&c, &c.before);

	if (r < 0 && !m->unreadable[0])
		snprintf(m->unreadable, sizeof(m->unreadable), "%s", c.name);
	if (r <= 0) {
		free(c.dir);
		free(c.name);
		return;
	}
	c.readable = true;
	m->v = xreallocarray(m->v, m->n + 1, sizeof(*m->v));
	m->v[m->n++] = c;
}

struct walk {
	const char *ctrl;
	void (*fn)(void *arg, const char *dir, const char *name, bool v1);
	void *arg;
	const char *v1path, *v2path;
};

/* @path (in the hierarchy) and each cgroup above it but the root, under
 * the mount at @point whose root is @root. */
static void walk_up(const struct walk *w, const char *point, const char *root,
		    const char *path, bool v1)
{
	size_t rl = strcmp(root, "/") ? strlen(root) : 0;
	char *p = xstrdup(path);

	/* not below the mount's root: not reachable from here */
	while ((!rl || !strncmp(p, root, rl)) && strlen(p) > rl && strcmp(p, "/")) {
		char *dir = xasprintf("%s%s", point, p + rl);
		char *name = xasprintf("%s%s:%s", v1 ? "v1 " : "v2", v1 ? w->ctrl : "", p);
		char *slash;

		w->fn(w->arg, dir, name, v1);
		free(dir);
		free(name);
		slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
	}
	free(p);
}

/* Is @ctrl one of the comma-separated names in @list? */
static bool has_token(const char *list, const char *ctrl)
{
	size_t n = strlen(ctrl);
	const char *p;

	for (p = list; (p = strstr(p, ctrl)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
	return false;
}

static int each_mount(const struct tp_mount *mt, void *arg)
{
	struct walk *w = arg;

	if (w->v1path && !strcmp(mt->fstype, "cgroup") && has_token(mt->super, w->ctrl)) {
		walk_up(w, mt->point, mt->root, w->v1path, true);
		w->v1path = NULL;
	} else if (w->v2path && !strcmp(mt->fstype, "cgroup2")) {
		walk_up(w, mt->point, mt->root, w->v2path, false);
		w->v2path = NULL;
	}
	return 0;
}

/* The path of controller @ctrl ("N:...,ctrl,...:/a/b") and the v2 path
 * ("0::/a/b") in /proc/self/cgroup text @buf, cut in place. */
static void self_paths(char *buf, const char *ctrl, const char **v1, const char **v2)
{
	char *line, *save = NULL;

	*v1 = *v2 = NULL;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		if (c2 == c1 + 1 && !strcmp(line, "0:"))
			*v2 = c2 + 1;
		else if (has_token(c1 + 1, ctrl))
			*v1 = c2 + 1;
	}
}

void memcgs_walk(const char *ctrl, void (*fn)(void *arg, const char *dir, const char *name,
					       bool v1), void *arg)
{
	struct walk w = { ctrl, fn, arg, NULL, NULL };
	char buf[4096];

	if (proc_read("/proc/self/cgroup", buf, sizeof(buf)) <= 0)
		return;
	self_paths(buf, ctrl, &w.v1path, &w.v2path);
	mounts_each(each_mount, &w);
}

static void add_memcg(void *m, const char *dir, const char *name, bool v1)
{
	add(m, dir, name, v1);
}

struct tp_memcgs *memcgs_open(const char *own)
{
	struct tp_memcgs *m = xcalloc(1, sizeof(*m));
	char vm[16384];

	if (own) {
		char *name = xasprintf("v2:%s", own);

		add(m, own, name, false);
		free(name);
	}
	memcgs_walk("memory", add_memcg, m);
	if (proc_read("/proc/vmstat", vm, sizeof(vm)) > 0 &&
	    memcgs_parse_count(vm, &m->vmstat_before) == 0)
		m->vmstat = true;
	return m;
}

/* The memory limit of @c in bytes: 0, or -1 when it has none. */
static int read_limit(const struct memcg *c, uint64_t *v)
{
	char buf[64];

	if (cgroup_read(c->dir, c->v1 ? "memory.limit_in_bytes" : "memory.max",
			buf, sizeof(buf)) < 0 || cgroup_parse_value(buf, v) < 0)
		return -1;
	/* v1 writes "no limit" as a page-rounded LONG_MAX */
	return *v == TP_CG_MAX || *v >= (UINT64_C(1) << 62) ? -1 : 0;
}

/* Within this of its limit, a cgroup's peak usage reached it (the
 * kernel charges pages in batches of 64). */
#define AT_LIMIT_SLACK (1u << 20)

/* Did @c's limit (@limit bytes, @has_limit) strike during the task: its
 * OOM-kill counter rose, or (@killed: the kernel killed something
 * meanwhile) its usage has reached its limit?  The v1 counter rises only
 * in the victim's own cgroup, never in the enclosing one whose limit it
 * hit (tpmon's run cgroup sits under it), so there the peak tells. */
static bool struck(const struct memcg *c, uint64_t limit, bool has_limit, bool killed)
{
	uint64_t now;

	if (read_count(c, &now) == 1 && now > c->before)
		return true;
	return killed && has_limit && limit > AT_LIMIT_SLACK &&
	       read_peak(c, &now) == 0 && now >= limit - AT_LIMIT_SLACK;
}

/* Did the machine's OOM-kill counter (every OOM kill) rise? */
static bool machine_killed(const struct tp_memcgs *m)
{
	char vm[16384];
	uint64_t now;

	return m->vmstat && proc_read("/proc/vmstat", vm, sizeof(vm)) > 0 &&
	       memcgs_parse_count(vm, &now) == 0 && now > m->vmstat_before;
}

void memcgs_check(const struct tp_memcgs *m, struct tp_oom_found *out)
{
	bool killed = machine_killed(m);
	size_t i;

	memset(out, 0, sizeof(*out));
	snprintf(out->unreadable, sizeof(out->unreadable), "%s", m->unreadable);
	/* the deepest first: a tie in limits names the innermost */
	for (i = 0; i < m->n; i++) {
		const struct memcg *c = &m->v[i];
		uint64_t limit;
		bool has_limit = read_limit(c, &limit) == 0;

		if (!struck(c, limit, has_limit, killed))
			continue;
		if (out->found && (!has_limit || (out->limit_known && out->limit <= limit)))
			continue;
		out->found = true;
		out->limit_known = has_limit;
		out->limit = has_limit ? limit : 0;
		snprintf(out->cgroup, sizeof(out->cgroup), "%s", c->name);
	}
	if (!out->found && killed)
		out->found = out->machine = true;
}

void memcgs_free(struct tp_memcgs *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++) {
		free(m->v[i].dir);
		free(m->v[i].name);
	}
	free(m->v);
	free(m);
}
