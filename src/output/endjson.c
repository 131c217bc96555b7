/* SPDX-License-Identifier: MIT */
/* endjson.c: the summary's "ending" ({cause, signal, sender, detail}),
 * "retry" ({resource, value}) and "notes" ([{code, text}]).  cctools'
 * view leaves all three out (cctools.c keeps only what its parser
 * knows).  Strings go through jansson: a sender's command line with
 * quotes or control characters cannot break the JSON. */
#include <math.h>
#include "basic/jsontext.h"
#include "basic/figtable.h"
#include "measure/endnotes.h"
#include "output/endjson.h"

static json_t *sender(const struct tp_sender *s)
{
	if (!s->known)
		return json_null();
	return json_pack("{s:i, s:I, s:o}", "pid", (int)s->pid, "uid", (json_int_t)s->uid,
			 /* the sender was gone before it could be read */
			 "command", s->command[0] ? jsontext_new(s->command) : json_null());
}

static json_t *ending(const struct tp_summary *r)
{
	const char *cause = endcause_name(r->ending.cause);

	if (!cause)
		return json_null();
	return json_pack("{s:s, s:o, s:o, s:o}", "cause", cause, "signal",
			 r->ending.signal ? json_integer(r->ending.signal) : json_null(),
			 "sender", sender(&r->ending.sender), "detail", jsontext_new(r->ending.detail));
}

static json_t *retry(const struct tp_options *o, const struct tp_summary *r)
{
	struct tp_retry t;
	const struct tp_fig_info *ri;

	if (!endnotes_retry(r, &o->limits, &t))
		return json_null();
	ri = res_info(t.resource);
	return json_pack("{s:s, s:[I, s]}", "resource", ri->name, "value",
			 (json_int_t)llround(t.value), ri->unit);
}

static json_t *notes(const struct tp_options *o, const struct tp_summary *r)
{
	struct tp_note v[TP_NOTES_MAX];
	size_t i, n = endnotes_compute(r, &o->limits, v);
	json_t *a = json_array();

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:o}", "code", v[i].code,
						   "text", jsontext_new(v[i].text)));
	return a;
}

void endjson_add(json_t *root, const struct tp_options *o, const struct tp_summary *r)
{
	bool over = !r->partial && r->ending.cause != TP_END_UNKNOWN;

	json_object_set_new(root, "ending", over ? ending(r) : json_null());
	json_object_set_new(root, "retry", over ? retry(o, r) : json_null());
	json_object_set_new(root, "notes", over ? notes(o, r) : json_null());
}
