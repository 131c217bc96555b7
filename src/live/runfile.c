/* SPDX-License-Identifier: MIT */
/* runfile.c: the runtime file target (on unless --no-live): PID.json in
 * the runtime directory (livedir.c), the text of publish.c, replaced at
 * each point and removed at the end; `tpmon top` reads it.  The files
 * that killed tpmons left there are removed when it opens. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "live/livedir.h"
#include "live/liveread.h"
#include "live/livetarget.h"

struct runfile {
	struct tp_livefile f;
	const struct tp_live_meta *m;
};

static bool runfile_wanted(const struct tp_options *o)
{
	return o->live;
}

static void *runfile_open(const struct tp_options *o, const struct tp_live_meta *m,
			  struct tp_livequeue **q, char *why, size_t whylen)
{
	char *dir = livedir_path();
	const char *env = getenv("TPMON_RUNTIME_DIR");
	struct runfile *r = xcalloc(1, sizeof(*r));
	char reason[512];
	unsigned stale;

	if (!dir || livedir_file_open(&r->f, dir, xasprintf("%d%s", (int)m->pid, LIVEDIR_SUFFIX),
				      0600, true, reason, sizeof(reason)) < 0) {
		int err = errno;

		/* a default runtime directory that cannot be made (a
		 * chroot without /run, a container) is no news; one that is
		 * not ours is */
		if (dir && ((env && *env) || err == EPERM))
			snprintf(why, whylen, "runtime directory: %s; not written", reason);
		else if (dir)
			debug_msg("runtime directory: %s; not written", reason);
		free(dir);
		free(r);
		return NULL;
	}
	free(dir);
	r->m = m;
	/* the files of killed tpmons go; a reader knows them anyway */
	stale = liveread_sweep(r->f.dfd);
	debug_msg("runtime directory: %u stale files removed", stale);
	return r;
}

static void runfile_point(void *state, const struct tp_live_point *p,
			  const struct tp_live_rates *rt, double now)
{
	struct runfile *r = state;
	char *text = publish_text(r->m, p, rt, now);

	if (text)
		livedir_file_write(&r->f, text);
	free(text);
}

static void runfile_close(void *state)
{
	struct runfile *r = state;

	livedir_file_close(&r->f);
	free(r);
}

const struct tp_live_target live_target_runfile = {
	.name = "runtime file",
	.wanted = runfile_wanted,
	.open = runfile_open,
	.point = runfile_point,
	.final = runfile_point,
	.close = runfile_close,
};
