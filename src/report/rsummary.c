/* SPDX-License-Identifier: MIT */
/* rsummary.c: summary fields -> struct rp_task. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "report/rsummary.h"
#include "units.h"
#include "xmalloc.h"

/* A resource's value from [value, unit] or a bare number; NAN if unknown. */
static double resource_value(const json_t *j, const struct rp_res_info *ri)
{
	const json_t *num = j;
	const char *unit = NULL;
	double v, out;
	char why[64];

	if (json_is_array(j)) {
		num = json_array_get(j, 0);
		unit = json_string_value(json_array_get(j, 1));
	}
	if (!json_is_number(num))
		return NAN;
	v = json_number_value(num);
	if (!unit || strcasecmp(unit, ri->unit) == 0)
		return isfinite(v) ? v : NAN;
	if (units_convert(ri->kind, v, unit, &out, why, sizeof(why)) < 0)
		return NAN;
	return out;
}

/* A time since the epoch, [value, "s"] or [value, "us"] (older cctools)
 * or a bare number of seconds; NAN when missing or not a plausible time. */
static double time_value(const json_t *j)
{
	const json_t *num = json_is_array(j) ? json_array_get(j, 0) : j;
	const char *unit = json_is_array(j) ? json_string_value(json_array_get(j, 1)) : NULL;
	double v;

	if (!json_is_number(num))
		return NAN;
	v = json_number_value(num);
	if (unit && strcmp(unit, "us") == 0)
		v /= 1e6;
	else if (unit && strcmp(unit, "s") != 0)
		return NAN;
	return v > 0 && v < 1e11 ? v : NAN;
}

static void set_string(char **dst, const json_t *j)
{
	const char *s = json_string_value(j);

	if (!s)
		return;
	free(*dst);
	*dst = xstrdup(s);
}

int rp_summary_fill(struct rp_task *t, const json_t *root)
{
	const json_t *status;
	int r;

	if (!json_is_object(root))
		return -1;
	for (r = 0; r < RP_RES__COUNT; r++) {
		const json_t *j = json_object_get(root, rp_res_info(r)->name);
		double v = j ? resource_value(j, rp_res_info(r)) : NAN;

		if (!isnan(v))
			t->v[r] = v;
	}
	t->started = time_value(json_object_get(root, "start"));
	t->ended = time_value(json_object_get(root, "end"));
	set_string(&t->category, json_object_get(root, "category"));
	set_string(&t->command, json_object_get(root, "command"));
	set_string(&t->host, json_object_get(root, "host"));
	set_string(&t->exit_type, json_object_get(root, "exit_type"));
	status = json_object_get(root, "exit_status");
	if (json_is_integer(status))
		t->exit_status = (long)json_integer_value(status);
	rp_task_classify(t);
	return 0;
}
