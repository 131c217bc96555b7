/* SPDX-License-Identifier: MIT */
/* cghome.c: the cgroups a user without root may use as they are found:
 * delegation by ownership, and the cgroup tpmon starts in, read only,
 * when it is tpmon's alone (see cghome.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cgroup/cgroup.h"
#include "kernel/proc.h"
#include "cgroup/cghome.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"

#define HOME_PATH 4096
#define TEXT_MAX (1024 * 1024)	/* /proc/self/mountinfo read at most */
#define ANCESTRY_MAX 256	/* parent links followed to find tpmon */

struct tp_cghome {
	char name[HOME_PATH];	/* for the summary */
	char v2[HOME_PATH];	/* tpmon's cgroup v2 directory, or "" */
	char mem1[HOME_PATH];	/* its v1 memory cgroup, or "" */
	char cpu1[HOME_PATH];	/* its v1 cpuacct cgroup, or "" */
	pid_t self;
	bool shared;
	struct tp_cg_figures base;	/* its CPU counters when tpmon came, */
	uint64_t self_usec, self_user, self_sys;	/* and tpmon's own then */
};

bool cghome_owned(const char *dir)
{
	static const char *const files[] = { "cgroup.procs", "cgroup.subtree_control" };
	char p[HOME_PATH];
	struct stat st;
	uid_t me = getuid();
	size_t i;

	if (stat(dir, &st) < 0 || st.st_uid != me)
		return false;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (cgroup_join(p, sizeof(p), dir, files[i]) < 0 ||
		    stat(p, &st) < 0 || st.st_uid != me)
			return false;
	return true;
}

/* Is @name an item of the comma-separated @list (of @len bytes)? */
static bool in_list(const char *list, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *p = list, *end = list + len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t l = comma ? (size_t)(comma - p) : (size_t)(end - p);

		if (l == n && !memcmp(p, name, n))
			return true;
		p += l + 1;
	}
	return false;
}

int cghome_parse_v1_path(const char *buf, const char *ctrl, char *out, size_t size)
{
	const char *line = buf;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);
		const char *c1 = memchr(line, ':', (size_t)(end - line));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;

		if (c2 && in_list(c1 + 1, (size_t)(c2 - c1 - 1), ctrl)) {
			size_t n = (size_t)(end - c2 - 1);

			if (n == 0 || n >= size || c2[1] != '/')
				return -1;
			memcpy(out, c2 + 1, n);
			out[n] = '\0';
			return 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -1;
}

/* Field @i (0-based, space-separated) of a mountinfo line: its start, and
 * its length in *@len; NULL when the line is shorter. */
static const char *field(const char *line, const char *end, int i, size_t *len)
{
	const char *p = line, *sp;

	for (; i > 0; i--) {
		sp = memchr(p, ' ', (size_t)(end - p));
		if (!sp)
			return NULL;
		p = sp + 1;
	}
	sp = memchr(p, ' ', (size_t)(end - p));
	*len = sp ? (size_t)(sp - p) : (size_t)(end - p);
	return p;
}

/* Does mountinfo line [@line, @end) mount v1 controller @ctrl from a root
 * at or above @path?  Then the directory of @path into @out. */
static int v1_line(const char *line, const char *end, const char *ctrl, const char *path,
		   char *out, size_t size)
{
	const char *dash = strstr(line, " - cgroup ");
	const char *root, *mnt, *opts;
	size_t rl = 0, ml = 0, ol = 0;

	if (!dash || dash >= end)
		return -1;
	opts = field(dash + 3, end, 2, &ol);
	root = field(line, end, 3, &rl);
	mnt = field(line, end, 4, &ml);
	if (!opts || !root || !mnt || !in_list(opts, ol, ctrl) || memchr(mnt, '\\', ml))
		return -1;
	if (rl == 1 && root[0] == '/')
		rl = 0;		/* the hierarchy's root */
	if (strncmp(path, root, rl) != 0 || (path[rl] != '/' && path[rl] != '\0'))
		return -1;
	if (ml + strlen(path + rl) + 1 > size)
		return -1;
	memcpy(out, mnt, ml);
	strcpy(out + ml, strcmp(path + rl, "/") ? path + rl : "");
	return 0;
}

int cghome_parse_v1_dir(const char *buf, const char *ctrl, const char *path,
			char *out, size_t size)
{
	const char *line = buf;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);

		if (v1_line(line, end, ctrl, path, out, size) == 0)
			return 0;
		line = nl ? nl + 1 : NULL;
	}
	return -1;
}

/* Is @pid tpmon (@self) or one of its descendants?  Orphans of the tree
 * come to tpmon, a subreaper, so a member's parent links lead to it.
 * A process gone meanwhile counts as ours: it cannot be told apart. */
static bool ours(pid_t pid, pid_t self)
{
	int i;

	for (i = 0; i < ANCESTRY_MAX; i++) {
		pid_t tgid, ppid;

		if (pid == self)
			return true;
		if (pid <= 1)
			return false;
		if (proc_read_status_ids(pid, &tgid, &ppid) < 0)
			return true;
		pid = ppid;
	}
	return false;
}

/* The first process in @dir's cgroup.procs that is not of tpmon's tree,
 * or 0 when there is none (or the file cannot be read: -1). */
static pid_t tenant(const char *dir, pid_t self)
{
	pid_t *v = NULL;
	size_t n, i;
	pid_t who = 0;
	char probe[8];

	if (cgroup_read(dir, "cgroup.procs", probe, sizeof(probe)) < 0)
		return -1;
	n = cgroup_members(dir, &v);
	for (i = 0; i < n && !who; i++)
		if (!ours(v[i], self))
			who = v[i];
	free(v);
	return who;
}

/* Keep @dir (into @slot) when it is not a hierarchy's root, tpmon may not
 * write it, and it holds tpmon alone. */
static void consider(char *slot, const char *dir, const char *rel, pid_t self)
{
	char p[HOME_PATH];

	if (!strcmp(rel, "/") || access(dir, F_OK) < 0)
		return;
	if (cgroup_join(p, sizeof(p), dir, "cgroup.procs") == 0 && access(p, W_OK) == 0)
		return;		/* writable: cgrun.c's business, not read only */
	if (tenant(dir, self) != 0)
		return;
	snprintf(slot, HOME_PATH, "%s", dir);
}

/* tpmon's v2 and v1 (memory, cpuacct) cgroups, where they are its own. */
static void find_dirs(struct tp_cghome *h, const char *cgtext, const char *mounts)
{
	char rel[HOME_PATH], dir[HOME_PATH], mnt[HOME_PATH];

	if (cgroup_parse_self(cgtext, rel, sizeof(rel)) == 0 &&
	    cgroup_parse_mount(mounts, mnt, sizeof(mnt)) == 0 &&
	    snprintf(dir, sizeof(dir), "%s%s", mnt, strcmp(rel, "/") ? rel : "") < (int)sizeof(dir)) {
		consider(h->v2, dir, rel, h->self);
		if (h->v2[0])
			snprintf(h->name, sizeof(h->name), "%s", rel);
	}
	if (cghome_parse_v1_path(cgtext, "memory", rel, sizeof(rel)) == 0 &&
	    cghome_parse_v1_dir(mounts, "memory", rel, dir, sizeof(dir)) == 0) {
		consider(h->mem1, dir, rel, h->self);
		if (h->mem1[0] && !h->name[0])
			snprintf(h->name, sizeof(h->name), "%s", rel);
	}
	if (cghome_parse_v1_path(cgtext, "cpuacct", rel, sizeof(rel)) == 0 &&
	    cghome_parse_v1_dir(mounts, "cpuacct", rel, dir, sizeof(dir)) == 0) {
		consider(h->cpu1, dir, rel, h->self);
		if (h->cpu1[0] && !h->name[0])
			snprintf(h->name, sizeof(h->name), "%s", rel);
	}
}

/* A v1 file of one number into *@v.  0, or -1. */
static int read_v1(const char *dir, const char *name, uint64_t *v)
{
	char buf[64];

	return dir[0] && cgroup_read(dir, name, buf, sizeof(buf)) > 0 &&
	       cgroup_parse_value(buf, v) == 0 ? 0 : -1;
}

/* The v1 counters where the v2 cgroup gave none. */
static void v1_figures(const struct tp_cghome *h, struct tp_cg_figures *f)
{
	uint64_t v;

	if (!(f->known & TP_CGF_CPU) && read_v1(h->cpu1, "cpuacct.usage", &v) == 0) {
		f->usage_usec = v / 1000;
		f->user_usec = read_v1(h->cpu1, "cpuacct.usage_user", &v) == 0 ? v / 1000 : 0;
		f->system_usec = read_v1(h->cpu1, "cpuacct.usage_sys", &v) == 0 ? v / 1000 : 0;
		f->known |= TP_CGF_CPU;
	}
	if (!(f->known & TP_CGF_MEM_PEAK) &&
	    read_v1(h->mem1, "memory.max_usage_in_bytes", &f->mem_peak) == 0)
		f->known |= TP_CGF_MEM_PEAK;
	if (!(f->known & TP_CGF_MEM_CURRENT) &&
	    read_v1(h->mem1, "memory.usage_in_bytes", &f->mem_current) == 0)
		f->known |= TP_CGF_MEM_CURRENT;
}

/* The cgroup's CPU counters alone into @f. */
static void read_cpu(const struct tp_cghome *h, struct tp_cg_figures *f)
{
	memset(f, 0, sizeof(*f));
	if (h->v2[0])
		cgroup_figures(h->v2, f);
	f->known &= TP_CGF_CPU;
	v1_figures(h, f);
}

static uint64_t less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* tpmon's CPU time so far: all, user, system (usec). */
static void self_cpu(uint64_t *all, uint64_t *user, uint64_t *sys)
{
	struct timespec ts;
	struct rusage ru;

	*all = *user = *sys = 0;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
		*all = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		*user = (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec;
		*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
	}
}

/* What the cgroup counted since tpmon came, less what tpmon used since
 * (tpmon was alone then): the task's CPU time.  The time tpmon's process
 * spent before it joined the cgroup (a shell, setpriv, slurmstepd's fork)
 * is in neither difference. */
static void take_out_self(const struct tp_cghome *h, struct tp_cg_figures *f)
{
	uint64_t all, user, sys;

	if (!(f->known & TP_CGF_CPU))
		return;
	self_cpu(&all, &user, &sys);
	f->usage_usec = less(less(f->usage_usec, h->base.usage_usec), less(all, h->self_usec));
	f->user_usec = less(less(f->user_usec, h->base.user_usec), less(user, h->self_user));
	f->system_usec = less(less(f->system_usec, h->base.system_usec), less(sys, h->self_sys));
}

struct tp_cghome *cghome_open(char *why, size_t whysize)
{
	struct tp_cghome *h = xcalloc(1, sizeof(*h));
	char *cgtext = xmalloc(TEXT_MAX), *mounts = xmalloc(TEXT_MAX);

	h->self = getpid();
	/* the ancestry of each member is read through /proc (ours()) */
	if (proc_init() < 0) {
		snprintf(why, whysize, "cannot open /proc");
		free(cgtext);
		free(mounts);
		free(h);
		return NULL;
	}
	if (cgroup_read("/proc/self", "cgroup", cgtext, TEXT_MAX) > 0 &&
	    cgroup_read("/proc/self", "mountinfo", mounts, TEXT_MAX) > 0)
		find_dirs(h, cgtext, mounts);
	free(cgtext);
	free(mounts);
	if (!h->v2[0] && !h->mem1[0] && !h->cpu1[0]) {
		snprintf(why, whysize, "tpmon's cgroup is not its own (other processes, or a root)");
		free(h);
		return NULL;
	}
	/* tpmon's own counters first: the cgroup's then are tpmon's alone */
	self_cpu(&h->self_usec, &h->self_user, &h->self_sys);
	read_cpu(h, &h->base);
	debug_msg("cgroup: read only, tpmon's own: v2 %s, v1 memory %s, v1 cpuacct %s",
		  h->v2[0] ? h->v2 : "-", h->mem1[0] ? h->mem1 : "-", h->cpu1[0] ? h->cpu1 : "-");
	return h;
}

/* Look for a tenant in each of the home's cgroups; once one is seen the
 * home stays shared. */
static void look_for_tenants(struct tp_cghome *h)
{
	const char *dirs[] = { h->v2, h->mem1, h->cpu1 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs) && !h->shared; i++) {
		pid_t who = dirs[i][0] ? tenant(dirs[i], h->self) : 0;

		if (who > 0) {
			h->shared = true;
			warn_msg("cgroup %s: process %d of another tree joined it: "
				 "its figures are not the task's alone", h->name, (int)who);
		}
	}
}

void cghome_figures(struct tp_cghome *h, struct tp_cg_figures *f)
{
	memset(f, 0, sizeof(*f));
	look_for_tenants(h);
	if (h->shared)
		return;
	if (h->v2[0])
		cgroup_figures(h->v2, f);
	v1_figures(h, f);
	take_out_self(h, f);
}

const char *cghome_name(const struct tp_cghome *h)
{
	return h->name;
}

bool cghome_shared(const struct tp_cghome *h)
{
	return h->shared;
}

void cghome_close(struct tp_cghome *h)
{
	free(h);
}
