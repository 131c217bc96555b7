/* SPDX-License-Identifier: MIT */
/* resources.c: the limitable resources, as rows of the table of figures
 * (figtable.c), and lookup by name. */
#include <stdio.h>
#include "basic/editdist.h"
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

/* The names -L takes: the resources, then "end". */
static void limit_names(const char *names[TP_RES__COUNT + 1])
{
	int r;

	for (r = 0; r < TP_RES__COUNT; r++)
		names[r] = res_info((enum tp_res)r)->name;
	names[TP_RES__COUNT] = "end";
}

const char *res_nearest(const char *name)
{
	const char *names[TP_RES__COUNT + 1];

	limit_names(names);
	return editdist_nearest(name, names, TP_RES__COUNT + 1);
}

void res_list(char *buf, size_t size)
{
	const char *names[TP_RES__COUNT + 1];
	size_t used = 0, i;

	limit_names(names);
	buf[0] = '\0';
	for (i = 0; i < TP_RES__COUNT + 1 && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", names[i]);
}
