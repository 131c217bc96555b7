/* SPDX-License-Identifier: MIT */
/* point.c: the base-unit names that the live formats give the
 * figures (point.h), taken from the table of figures (basic/figtable.h)
 * for the runtime file and the Prometheus textfile alike. */
#include <stddef.h>
#include "live/point.h"
#include "basic/figtable.h"

bool live_by_table(enum tp_fig f)
{
	return fig_info(f)->place == TP_FIGP_KERNEL && fig_info(f)->live;
}

const char *live_base_name(int r, double *factor)
{
	const struct tp_fig_info *fi;

	if (r < 0 || r >= TP_FIG__COUNT)
		return NULL;
	fi = fig_info((enum tp_fig)r);
	*factor = fi->live_factor;
	return fi->live;
}
