/* SPDX-License-Identifier: MIT */
/* promfile.c: the Prometheus textfile target (--metrics-dir):
 * tpmon-PID.prom in that directory for node_exporter's textfile
 * collector, the text of prom.c, replaced at each point and removed at
 * the end. */
#include <stdio.h>
#include <stdlib.h>
#include "basic/xmalloc.h"
#include "live/livedir.h"
#include "live/livetarget.h"

struct promfile {
	struct tp_livefile f;
	const struct tp_live_meta *m;
};

static bool promfile_wanted(const struct tp_options *o)
{
	return o->metrics_dir != NULL;
}

static void *promfile_open(const struct tp_options *o, const struct tp_live_meta *m,
			   struct tp_livequeue **q, char *why, size_t whylen)
{
	struct promfile *pf = xcalloc(1, sizeof(*pf));
	char reason[512];

	if (livedir_file_open(&pf->f, o->metrics_dir, xasprintf("tpmon-%d.prom", (int)m->pid),
			      0644, false, reason, sizeof(reason)) < 0) {
		snprintf(why, whylen, "--metrics-dir: %s; not written", reason);
		free(pf);
		return NULL;
	}
	pf->m = m;
	return pf;
}

static void promfile_point(void *state, const struct tp_live_point *p,
			   const struct tp_live_rates *rt, double now)
{
	struct promfile *pf = state;
	char *text = prom_text(pf->m, p);

	if (text)
		livedir_file_write(&pf->f, text);
	free(text);
}

static void promfile_close(void *state)
{
	struct promfile *pf = state;

	livedir_file_close(&pf->f);
	free(pf);
}

const struct tp_live_target live_target_prom = {
	.name = "textfile",
	.wanted = promfile_wanted,
	.open = promfile_open,
	.point = promfile_point,
	.final = promfile_point,
	.close = promfile_close,
};
