/* SPDX-License-Identifier: MIT */
/* ropts.h: the options of `tpmon report`. */
#ifndef TPMON_REPORT_ROPTS_H
#define TPMON_REPORT_ROPTS_H

#include "report/analyse/analysis.h"
#include "report/read/store.h"
#include "report/sizing/sizing.h"

struct rp_options {
	enum rp_by by;
	double max[RP_A__COUNT];	/* --max, < 0 when not given */
	const char *csv, *json, *plots, *html, *timeline;	/* borrowed from argv */
	const char *cache;		/* --cache, borrowed from argv */
	char **inputs;			/* borrowed from argv */
	int ninputs;
	int jobs;			/* --jobs, 0: one thread a core */
	struct rp_sizing_opts sizing;	/* --recommend, --margin, --emit */
};

/* Parse `report`'s @argc/@argv (argv[0] is "report").  Returns 0, 1 after
 * --help, or -1 after an error message. */
int rp_options_parse(struct rp_options *o, int argc, char **argv);

#endif
