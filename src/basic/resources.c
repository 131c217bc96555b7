/* SPDX-License-Identifier: MIT */
/* resources.c: the limitable resources, as rows of the table of figures
 * (figtable.c), and lookup by name. */
#include "basic/figtable.h"
#include "basic/resources.h"

const struct tp_fig_info *res_info(enum tp_res r)
{
	return fig_info((enum tp_fig)r);
}

int res_by_name(const char *name)
{
	int f = fig_by_name(name);

	return f >= 0 && f < TP_RES__COUNT ? f : -1;
}

bool res_cctools_only(const char *name)
{
	return fig_cctools_resource(name) && res_by_name(name) < 0;
}
