/* SPDX-License-Identifier: MIT */
/* cctools.c: the cctools view of a summary.  The names are those of
 * cctools' rmsummary parser (dttools/src/rmsummary.c, the same in cctools
 * 8.0 and the current source): resources as [number, "unit"], a few
 * strings and integers, and the objects limits_exceeded and peak_times,
 * whose members are resources again. */
#include <stdlib.h>
#include <string.h>
#include "basic/figtable.h"
#include "output/cctools.h"

/* strings and integers the parser reads, and the strings resource_monitor
 * writes that it skips without a word */
static const char *const meta[] = {
	"category", "command", "exit_type", "taskid", "task_id", "snapshot_name",
	"signal", "exit_status", "last_error", "snapshots_count",
	"executable_type", "monitor_version", "host",
};

static bool listed(const char *key, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(key, names[i]))
			return true;
	return false;
}

#define LISTED(key, names) listed(key, names, sizeof(names) / sizeof(names[0]))

/* An object of resources only (limits_exceeded, peak_times). */
static json_t *resources_only(const json_t *obj)
{
	json_t *out = json_object();
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)obj, key, v)
		if (fig_cctools_resource(key) && json_is_array(v))
			json_object_set(out, key, v);
	return out;
}

static bool verbatim_key(const struct tp_options *o, const char *key)
{
	size_t i;

	for (i = 0; i < o->nverbatim; i++)
		if (!strcmp(o->verbatim[i].key, key))
			return true;
	return false;
}

/* The member @key of @full as the parser may see it, or NULL to leave out. */
static json_t *member(const char *key, json_t *v, const struct tp_options *o)
{
	if (fig_cctools_resource(key)) {
		int r = res_by_name(key);

		/* without the disk walk, resource_monitor writes 0 */
		if (!o->disk && json_is_null(v) && (r == TP_RES_DISK || r == TP_RES_TOTAL_FILES))
			return json_pack("[i, s]", 0, res_info(r)->unit);
		return json_is_array(v) || json_is_null(v) ? json_incref(v) : NULL;
	}
	if (!strcmp(key, "limits_exceeded") || !strcmp(key, "peak_times"))
		return json_is_object(v) ? resources_only(v) : json_is_null(v) ? json_incref(v) : NULL;
	if (!strcmp(key, "snapshots") && json_is_array(v)) {
		json_t *out = json_array();
		size_t i;
		json_t *snap;

		json_array_foreach(v, i, snap)
			if (json_is_object(snap))
				json_array_append_new(out, cctools_view(snap, o));
		return out;
	}
	if (LISTED(key, meta) || verbatim_key(o, key))
		return json_is_string(v) || json_is_integer(v) || json_is_null(v) ?
		       json_incref(v) : NULL;
	return NULL;
}

json_t *cctools_view(const json_t *full, const struct tp_options *o)
{
	json_t *out = json_object();
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)full, key, v) {
		json_t *m = member(key, v, o);

		if (m)
			json_object_set_new(out, key, m);
	}
	return out;
}
