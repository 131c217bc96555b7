/* SPDX-License-Identifier: MIT */
/* out_lines.c: a group's requests on the input size (--recommend=input)
 * in the terminal report: each line fitted, or why the group fell back
 * to max. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include "report/write/sizing_out.h"

static void line_text(FILE *f, const char *what, const char *unit, const struct rp_line *l)
{
	if (!l->on) {
		fprintf(f, "    %s: max (fallback): %s (", what, l->why ? l->why : "no usable task");
		if (!isnan(l->rho))
			fprintf(f, "rho %.2f, ", l->rho);
		fprintf(f, "%zu task%s)\n", l->n, l->n == 1 ? "" : "s");
		return;
	}
	fprintf(f, "    %s on input: %.4g %s/MB x input + %.4g %s, +%g%%,\n", what, l->slope,
		unit, l->icpt, unit, l->margin * 100);
	fprintf(f, "      within [%" PRId64 ", %" PRId64 "] %s (rho %.2f, %zu tasks)\n",
		l->lo, l->hi, unit, l->rho, l->n);
}

void rp_sizing_text_lines(FILE *f, const struct rp_rec *r)
{
	line_text(f, "memory", "MB", &r->line[RP_L_MEMORY]);
	line_text(f, "wall time", "s", &r->line[RP_L_WALL_TIME]);
}
