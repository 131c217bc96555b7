/* SPDX-License-Identifier: MIT */
/* cgrun_scope.c: the host table's row for a user with no delegated
 * cgroup on a cgroup v2 host: a scope of the user's systemd with
 * Delegate=yes (sdbus.h), asked for over sd-bus, then the v2 row's run
 * made in it.  Its other calls are v2's (cgrun_scope_host, cgrun_v2.c). */
#include <stdio.h>
#include <string.h>
#include "cgroup/cgroup.h"
#include "cgroup/cghost.h"
#include "cgroup/cgrun.h"
#include "cgroup/sdbus.h"

/* How long the user's systemd may take to answer and start the scope, the
 * connection included: a few ms on a quiet host, but a loaded one (or a
 * VM under emulation) took over 2 s.  systemd-run waits 25 s; a bus that
 * is not there fails at once, so only a systemd that is there but slow
 * costs this wait. */
#define SCOPE_TIMEOUT_MS 10000

int cgrun_scope_open(struct tp_cgrun *c, const char *path, char *why, size_t size)
{
	char cg[8192], no[256];

	if ((cgroup_controllers("/sys/fs/cgroup", "cgroup.controllers") & TP_CG_NEEDED) != TP_CG_NEEDED ||
	    cgroup_read("/proc/self", "cgroup", cg, sizeof(cg)) < 0) {
		why[0] = '\0';	/* not a cgroup v2 host: nothing to say */
		return -1;
	}
	if (sdbus_wanted(cg, no, sizeof(no)) < 0 || sdbus_scope(SCOPE_TIMEOUT_MS, no, sizeof(no)) < 0)
		return cgrun_why(why, size, "no systemd scope: %s", no);
	if (cgrun_v2_open(c, path, why, size) < 0)
		return -1;
	c->scoped = true;
	return 0;
}
