/* report.c: report_main(): options -> read inputs -> group -> analyse ->
 * outputs. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "report/analysis.h"
#include "report/output.h"
#include "report/plots.h"
#include "report/reader.h"
#include "report/report.h"
#include "report/ropts.h"
#include "xmalloc.h"

static int outputs(const struct rp_options *o, const struct rp_store *st,
		   const struct rp_group *g, const struct rp_cat *c, size_t n)
{
	bool to_stdout = (o->json && !strcmp(o->json, "-")) ||
			 (o->csv && !strcmp(o->csv, "-"));
	int status = 0;

	if (!to_stdout)
		rp_out_text(stdout, c, n);
	if (o->json && rp_out_json(o->json, c, n) < 0)
		status = 1;
	if (o->csv && rp_out_csv(o->csv, st, g, n) < 0)
		status = 1;
	if (o->plots && rp_plots_write(o->plots, st, c, n) < 0)
		status = 1;
	if (o->html && rp_out_html(o->html, st, c, n) < 0)
		status = 1;
	return status;
}

int report_main(int argc, char **argv)
{
	struct rp_options o;
	struct rp_store st;
	struct rp_group *g;
	struct rp_cat *c;
	size_t n, i;
	int r, status = 0;

	r = rp_options_parse(&o, argc, argv);
	if (r != 0)
		return r > 0 ? 0 : 1;
	rp_store_init(&st);
	for (i = 0; i < (size_t)o.ninputs; i++)
		if (rp_read_input(&st, o.inputs[i]) < 0)
			status = 1;
	if (status == 0 && st.n == 0) {
		error_msg("report: no task could be read from the inputs");
		status = 1;
	}
	if (status != 0) {
		rp_store_free(&st);
		return status;
	}
	g = rp_store_group(&st, o.by, &n);
	c = xreallocarray(NULL, n, sizeof(*c));
	for (i = 0; i < n; i++)
		rp_analyse(&st, &g[i], o.max, &c[i]);
	status = outputs(&o, &st, g, c, n);
	free(c);
	rp_groups_free(g, n);
	rp_store_free(&st);
	return status;
}
