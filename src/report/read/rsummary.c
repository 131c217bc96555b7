/* SPDX-License-Identifier: MIT */
/* rsummary.c: a summary's text -> a checked JSON object -> struct rp_task:
 * the check that it is a summary and that its measures are readable at
 * all, and its fields. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "basic/figtable.h"
#include "report/read/rsummary.h"
#include "basic/units.h"
#include "basic/xmalloc.h"

int rp_summary_measure(const struct rp_res_info *ri, bool has_num, double num,
		       const char *unit, double *out, char *why, size_t whylen)
{
	char reason[96];

	*out = NAN;
	if (!has_num)
		return 0;
	/* the report's own unit, in any case ("mb"), converts by 1 */
	if (unit && strcasecmp(unit, fig_info(ri->fig)->unit) == 0)
		unit = NULL;
	if (units_convert(ri->kind, num, unit, out, reason, sizeof(reason)) < 0) {
		*out = NAN;
		snprintf(why, whylen, "%s: %s", fig_info(ri->fig)->name, reason);
		return -1;
	}
	/* another unit ("s" for a figure kept in us) came in the kind's base
	 * unit: back to the figure's */
	if (unit)
		*out /= fig_base_factor(ri->fig);
	return 0;
}

/* A resource's value from [value, unit] or a bare number (JSON), through
 * rp_summary_measure(). */
static int resource_value(const json_t *j, const struct rp_res_info *ri, double *out,
			  char *why, size_t whylen)
{
	const json_t *num = j;
	const char *unit = NULL;

	if (json_is_array(j)) {
		num = json_array_get(j, 0);
		unit = json_string_value(json_array_get(j, 1));
	}
	return rp_summary_measure(ri, json_is_number(num), json_number_value(num), unit,
				  out, why, whylen);
}

int rp_summary_check(const json_t *root, char *why, size_t whylen)
{
	int r;

	for (r = 0; r < RP_RES__COUNT; r++) {
		const json_t *j = json_object_get(root, rp_res_fig(r)->name);
		double v;

		if (j && resource_value(j, rp_res_info(r), &v, why, whylen) < 0)
			return -1;
	}
	return 0;
}

/* Does @root look like a resource summary (and not any JSON object)? */
const char *const rp_summary_marks[RP_SUMMARY_NMARKS] = {
	"wall_time", "exit_type", "command", "memory", "cores",
	"monitor_version", "start",
};

static bool is_summary(const json_t *root)
{
	size_t i;

	for (i = 0; i < RP_SUMMARY_NMARKS; i++)
		if (json_object_get(root, rp_summary_marks[i]))
			return true;
	return false;
}

json_t *rp_summary_parse(const char *text, size_t len, char *why, size_t whylen)
{
	json_error_t err;
	json_t *root = json_loadb(text, len, 0, &err);

	if (!root) {
		snprintf(why, whylen, "not a readable summary (%s, line %d)", err.text, err.line);
		return NULL;
	}
	if (!json_is_object(root) || !is_summary(root))
		snprintf(why, whylen, "not a resource summary");
	else if (rp_summary_check(root, why, whylen) == 0)
		return root;
	json_decref(root);
	return NULL;
}

char *rp_summary_strdup(const char *s)
{
	size_t n = strlen(s);
	char *d;

	if (n <= RP_STRING_MAX)
		return xstrdup(s);
	n = RP_STRING_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

double rp_summary_time(bool has_num, double v, const char *unit)
{
	if (!has_num)
		return NAN;
	if (unit && strcmp(unit, "us") == 0)
		v /= 1e6;
	else if (unit && strcmp(unit, "s") != 0)
		return NAN;
	return v > 0 && v < 1e11 ? v : NAN;
}

/* A time from [value, unit] or a bare number (JSON). */
static double time_value(const json_t *j)
{
	const json_t *num = json_is_array(j) ? json_array_get(j, 0) : j;
	const char *unit = json_is_array(j) ? json_string_value(json_array_get(j, 1)) : NULL;

	return rp_summary_time(json_is_number(num), json_number_value(num), unit);
}

static void set_string(char **dst, const json_t *j)
{
	const char *s = json_string_value(j);

	if (!s)
		return;
	free(*dst);
	*dst = rp_summary_strdup(s);
}

/* The summary's end time, and why the task ended: `ending` {cause,
 * detail, ...} in newer summaries (absent or null in older ones). */
static void end_fields(struct rp_task *t, const json_t *end, const json_t *ending)
{
	t->ended = time_value(end);
	if (!json_is_object(ending))
		return;
	set_string(&t->cause, json_object_get(ending, "cause"));
	set_string(&t->detail, json_object_get(ending, "detail"));
}

/* The summary's retry, {"resource": "memory", "value": [N, "MB"]} or
 * wall_time's [S, "s"] (absent or null: none), into the task's retry. */
static void retry_fields(struct rp_task *t, const json_t *retry)
{
	const char *res = json_string_value(json_object_get(retry, "resource"));
	const json_t *val = json_object_get(retry, "value");
	enum rp_res r;
	char why[128];
	double v;

	if (!res)
		return;
	if (strcmp(res, "memory") == 0)
		r = RP_MEMORY;
	else if (strcmp(res, "wall_time") == 0)
		r = RP_WALL_TIME;
	else
		return;
	if (!val || resource_value(val, rp_res_info(r), &v, why, sizeof(why)) < 0 ||
	    !(v > 0))
		return;
	if (r == RP_MEMORY)
		t->retry_memory = v;
	else
		t->retry_wall_time = v;
}

double rp_summary_input_mb(bool has_num, double num, const char *unit)
{
	char why[128];
	double v;

	if (rp_summary_measure(rp_res_info(RP_BYTES_READ), has_num, num, unit, &v, why,
			       sizeof(why)) < 0 || !(v >= 0))
		return NAN;
	return v;
}

/* The summary's input_size, [N, "MB"] or a number of MB (absent, null
 * or unreadable: unknown), into the task's input_mb. */
static void input_field(struct rp_task *t, const json_t *j)
{
	const json_t *num = json_is_array(j) ? json_array_get(j, 0) : j;
	const char *unit = json_is_array(j) ? json_string_value(json_array_get(j, 1)) : NULL;

	t->input_mb = rp_summary_input_mb(json_is_number(num), json_number_value(num), unit);
}

/* The most notes of one summary read (a hostile file may hold more). */
#define NOTES_MAX 32

/* @list with @sep and @item appended, a new string (@list is freed). */
static char *append(char *list, const char *sep, const char *item)
{
	char *r = list ? xasprintf("%s%s%s", list, sep, item) : xstrdup(item);

	free(list);
	return r;
}

/* The summary's notes, [{code, text}, ...]: their count, their codes and
 * their texts, each list one bounded string. */
static void notes_fields(struct rp_task *t, const json_t *notes)
{
	char *codes = NULL, *texts = NULL;
	size_t i;

	for (i = 0; i < json_array_size(notes) && i < NOTES_MAX; i++) {
		const json_t *n = json_array_get(notes, i);
		const char *code = json_string_value(json_object_get(n, "code"));
		const char *text = json_string_value(json_object_get(n, "text"));
		char *one = xasprintf("%s: %s", code ? code : "?", text ? text : "");

		codes = append(codes, ", ", code ? code : "?");
		texts = append(texts, "; ", one);
		free(one);
	}
	if (!codes)
		return;
	t->nnotes = json_array_size(notes);
	free(t->notes);
	free(t->notes_text);
	t->notes = rp_summary_strdup(codes);
	t->notes_text = rp_summary_strdup(texts);
	free(codes);
	free(texts);
}

int rp_summary_fill(struct rp_task *t, const json_t *root)
{
	const json_t *status;
	char why[128];
	int r;

	if (!json_is_object(root))
		return -1;
	for (r = 0; r < RP_RES__COUNT; r++) {
		const json_t *j = json_object_get(root, rp_res_fig(r)->name);
		double v = NAN;

		if (j)
			resource_value(j, rp_res_info(r), &v, why, sizeof(why));
		if (!isnan(v))
			t->v[r] = v;
	}
	t->started = time_value(json_object_get(root, "start"));
	end_fields(t, json_object_get(root, "end"), json_object_get(root, "ending"));
	notes_fields(t, json_object_get(root, "notes"));
	retry_fields(t, json_object_get(root, "retry"));
	input_field(t, json_object_get(root, fig_info(TP_FIG_INPUT_SIZE)->name));
	t->partial = json_is_true(json_object_get(root, "partial"));
	set_string(&t->category, json_object_get(root, "category"));
	set_string(&t->command, json_object_get(root, "command"));
	set_string(&t->host, json_object_get(root, "host"));
	set_string(&t->job, json_object_get(root, "job"));
	set_string(&t->exit_type, json_object_get(root, "exit_type"));
	status = json_object_get(root, "exit_status");
	if (json_is_integer(status))
		t->exit_status = (long)json_integer_value(status);
	rp_task_classify(t);
	return 0;
}
