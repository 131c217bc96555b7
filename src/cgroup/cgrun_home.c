/* SPDX-License-Identifier: MIT */
/* cgrun_home.c: the host table's last row, read only: no cgroup of
 * tpmon's own, but the one it starts in when it holds tpmon alone, as
 * Slurm's task cgroup under `srun tpmon -- TASK` (cghome.h).  Its figures
 * are the task's (tpmon's own taken out); nothing in it is ever written,
 * killed or swept. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cgroup/cghome.h"
#include "cgroup/cghost.h"
#include "cgroup/cgrun.h"

static int home_open(struct tp_cgrun *c, const char *path, char *why, size_t size)
{
	(void)path;
	c->home = cghome_open(why, size);
	if (!c->home)
		return -1;
	c->name = cghome_name(c->home);
	snprintf(c->layout, sizeof(c->layout), "tpmon's own cgroup, read only");
	return 0;
}

static void home_teardown(const struct tp_cgrun *c, pid_t self)
{
	(void)self;
	cghome_close(c->home);
}

/* Not tpmon's to kill or to limit. */
static int home_kill(const struct tp_cgrun *c, int wait_ms)
{
	(void)c;
	(void)wait_ms;
	errno = EPERM;
	return -1;
}

static int home_limit(const struct tp_cgrun *c, uint64_t mem_bytes, uint64_t pids)
{
	(void)c;
	(void)mem_bytes;
	(void)pids;
	errno = EPERM;
	return -1;
}

static void home_figures(const struct tp_cgrun *c, struct tp_cg_figures *f)
{
	cghome_figures(c->home, f);
}

static int home_sweep(const struct tp_cgrun *c, uint64_t deadline)
{
	(void)c;
	(void)deadline;
	return 0;
}

const struct tp_cg_host cgrun_home_host = {
	.name = "the home, read only",
	.needs = TP_CG_ALLOW_HOME,
	.read_only = true,
	.open = home_open,
	.teardown = home_teardown,
	.kill = home_kill,
	.limit = home_limit,
	.figures = home_figures,
	.sweep = home_sweep,
};
