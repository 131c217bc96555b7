/* SPDX-License-Identifier: MIT */
/* emit.c: --emit=ENGINE:FILE and the writing of each file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/outfile.h"
#include "basic/messages.h"
#include "basic/safetext.h"
#include "report/write/output.h"
#include "report/write/sizing_out.h"

static const char *const engines[RP_E__COUNT] = {
	"nextflow", "snakemake", "slurm", "taskvine", "workqueue", "htcondor"
};

int rp_emit_parse(const char *arg, struct rp_sizing_opts *o, char *why, size_t len)
{
	const char *colon = strchr(arg, ':');
	size_t e;

	if (o->nemit == RP_EMIT_MAX) {
		snprintf(why, len, "more than %d files", RP_EMIT_MAX);
		return -1;
	}
	for (e = 0; colon && colon[1] && e < RP_E__COUNT; e++)
		if (strlen(engines[e]) == (size_t)(colon - arg) &&
		    strncmp(arg, engines[e], (size_t)(colon - arg)) == 0) {
			o->emit[o->nemit].engine = (enum rp_engine)e;
			o->emit[o->nemit].path = colon + 1;
			o->nemit++;
			return 0;
		}
	snprintf(why, len, "'%s' is not ENGINE:FILE with ENGINE nextflow, snakemake, "
		 "slurm, taskvine, workqueue or htcondor", arg);
	return -1;
}

bool rp_emit_smk_include(const char *path)
{
	size_t n = strlen(path);

	return (n > 4 && strcmp(path + n - 4, ".smk") == 0) ||
	       (n > 3 && strcmp(path + n - 3, ".py") == 0);
}

void rp_emit_left_out(FILE *f, const char *prefix, const struct rp_sizing *z,
		      const struct rp_cat *c,
		      const char *(*why)(const struct rp_rec *r, const char *name))
{
	size_t i;

	for (i = 0; i < z->ng; i++) {
		const char *w = why(&z->rec[0][i], c[i].group->name);

		if (!w)
			continue;
		fprintf(f, "%s left out: ", prefix);
		rp_percent(f, c[i].group->name);
		fprintf(f, ": %s\n", w);
	}
}

static int emit_one(const struct rp_emit *e, const struct rp_sizing *z,
		    const struct rp_cat *c, const double max[RP_A__COUNT])
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r = 0;

	if (!f) {
		error_msg("report: cannot write %s: %s", e->path, strerror(errno));
		return -1;
	}
	switch (e->engine) {
	case RP_E_NEXTFLOW: r = rp_emit_nextflow(f, z, c, max); break;
	case RP_E_SNAKEMAKE:
		r = rp_emit_smk_include(e->path) ? rp_emit_snakemake_input(f, z, c, max)
						  : rp_emit_snakemake(f, z, c);
		break;
	case RP_E_SLURM: r = rp_emit_slurm(f, z, c); break;
	case RP_E_TASKVINE: r = rp_emit_cctools(f, z, c, max, true); break;
	case RP_E_WORKQUEUE: r = rp_emit_cctools(f, z, c, max, false); break;
	case RP_E_HTCONDOR: r = rp_emit_htcondor(f, z, c, max); break;
	default: break;
	}
	if (fclose(f) != 0 || r < 0 || rp_write_file(e->path, buf, len) < 0) {
		error_msg("report: cannot write %s: %s", e->path, outfile_strerror(errno));
		r = -1;
	} else if (r == 0) {
		char *p = safetext_clip(e->path, 400);

		error_msg("report: warning: %s holds nothing usable: every group was left out%s "
			  "(its comments say why)", p, e->engine == RP_E_SNAKEMAKE ?
			  ", no group's name is a rule name with a usable task" : "");
		free(p);
	}
	free(buf);
	return r;
}

int rp_emit_all(const struct rp_sizing *z, const struct rp_cat *c,
		const double max[RP_A__COUNT])
{
	size_t i;
	int r = 0;

	for (i = 0; i < z->opts.nemit; i++) {
		int w = emit_one(&z->opts.emit[i], z, c, max);

		if (w < 0)
			r = -1;
		else if (w == 0 && r == 0)
			r = 1;
	}
	return r;
}
