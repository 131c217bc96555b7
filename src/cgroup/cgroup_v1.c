/* SPDX-License-Identifier: MIT */
/* cgroup_v1.c: cgroup v1 files (cgroup_v1.h): which hierarchy holds a
 * controller, the v1 controllers' figures, and the freezer, with plain
 * system calls and no allocation (the guard calls them after fork()). */
#include <errno.h>
#include <string.h>
#include <time.h>
#include "cgroup/cgroup_v1.h"

static const char *const names[TP_CG1__COUNT] = {
	[TP_CG1_MEMORY] = "memory",
	[TP_CG1_PIDS] = "pids",
	[TP_CG1_CPUACCT] = "cpuacct",
	[TP_CG1_FREEZER] = "freezer",
};

const char *cgroup_v1_name(enum tp_cg1 which)
{
	return which < TP_CG1__COUNT ? names[which] : "?";
}

/* Does "a,b,c" (@n bytes) list @name? */
static bool lists(const char *list, size_t n, const char *name)
{
	size_t len = strlen(name);

	while (n > 0) {
		const char *comma = memchr(list, ',', n);
		size_t item = comma ? (size_t)(comma - list) : n;

		if (item == len && !strncmp(list, name, len))
			return true;
		if (!comma)
			break;
		n -= item + 1;
		list = comma + 1;
	}
	return false;
}

int cgroup_v1_parse_self(const char *buf, const char *name, char *out, size_t size)
{
	const char *p = buf;

	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *c1 = memchr(p, ':', n), *c2;

		/* "ID:CONTROLLERS:PATH" */
		c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - p)) : NULL;
		if (c2 && lists(c1 + 1, (size_t)(c2 - c1 - 1), name)) {
			size_t len = n - (size_t)(c2 + 1 - p);

			if (len == 0 || c2[1] != '/' || len >= size)
				return -1;
			memcpy(out, c2 + 1, len);
			out[len] = '\0';
			return 0;
		}
		p += n;
		if (*p)
			p++;
	}
	return -1;
}

/* Read the single value @name of @dir into *@v; sets @bit on success. */
static void value(const char *dir, const char *name, uint64_t *v, unsigned *known,
		  unsigned bit)
{
	char buf[64];

	if (dir[0] && cgroup_read(dir, name, buf, sizeof(buf)) >= 0 &&
	    cgroup_parse_value(buf, v) == 0)
		*known |= bit;
}

static void cpuacct(const char *dir, struct tp_cg_figures *f)
{
	uint64_t ns = 0, user = 0, sys = 0;
	unsigned k = 0;

	value(dir, "cpuacct.usage", &ns, &k, 1);
	value(dir, "cpuacct.usage_user", &user, &k, 2);
	value(dir, "cpuacct.usage_sys", &sys, &k, 4);
	if (k != 7)
		return;
	f->usage_usec = ns / 1000;
	f->user_usec = user / 1000;
	f->system_usec = sys / 1000;
	f->known |= TP_CGF_CPU;
}

void cgroup_v1_figures(const char dirs[][4096], struct tp_cg_figures *f)
{
	const char *mem = dirs[TP_CG1_MEMORY];
	char buf[512];

	value(mem, "memory.usage_in_bytes", &f->mem_current, &f->known, TP_CGF_MEM_CURRENT);
	/* a fresh cgroup per run: its high-water mark is the run's */
	value(mem, "memory.max_usage_in_bytes", &f->mem_peak, &f->known, TP_CGF_MEM_PEAK);
	/* oom_kill in memory.oom_control (4.13); failcnt: the limit hit */
	if (mem[0] && cgroup_read(mem, "memory.oom_control", buf, sizeof(buf)) >= 0 &&
	    cgroup_parse_key(buf, "oom_kill", &f->oom_kill) == 0 &&
	    cgroup_read(mem, "memory.failcnt", buf, sizeof(buf)) >= 0 &&
	    cgroup_parse_value(buf, &f->mem_max_events) == 0) {
		f->oom = f->oom_kill;
		f->known |= TP_CGF_MEM_EVENTS;
	}
	value(dirs[TP_CG1_PIDS], "pids.current", &f->pids_current, &f->known, TP_CGF_PIDS);
	if (!(f->known & TP_CGF_CPU) && dirs[TP_CG1_CPUACCT][0])
		cpuacct(dirs[TP_CG1_CPUACCT], f);
}

int cgroup_v1_freeze(const char *dir, bool frozen, int wait_ms)
{
	struct timespec ts = { 0, 1000000 };
	char buf[32];
	int i;

	if (cgroup_write(dir, "freezer.state", frozen ? "FROZEN" : "THAWED") < 0)
		return -1;
	/* FREEZING until every task is in the refrigerator */
	for (i = 0; frozen && i < wait_ms; i++) {
		if (cgroup_read(dir, "freezer.state", buf, sizeof(buf)) < 0)
			return -1;
		if (!strncmp(buf, "FROZEN", 6))
			return 0;
		nanosleep(&ts, NULL);
	}
	if (frozen) {
		errno = EBUSY;
		return -1;
	}
	return 0;
}
