/* plots.c: (first landing) not yet drawn. */
#include "error.h"
#include "report/plots.h"

int rp_plots_write(const char *dir, const struct rp_store *st,
		   const struct rp_cat *c, size_t n)
{
	(void)st; (void)c; (void)n;
	error_msg("report: --plots %s: not implemented yet", dir);
	return -1;
}

int rp_out_html(const char *path, const struct rp_store *st,
		const struct rp_cat *c, size_t n)
{
	(void)st; (void)c; (void)n;
	error_msg("report: --html %s: not implemented yet", path);
	return -1;
}
