/* SPDX-License-Identifier: MIT */
/* lostnote.c: the guard's note (lostnote.h).  The last checkpoint, if
 * any, keeps its figures, each named in lower_bounds ("partial" stays
 * true: they are the figures of a moment before the end); without one,
 * the note holds the run's identity and times only.  Its ending's cause
 * is "monitor_lost", with the guard's SIGKILL and the guard as sender
 * when the task was still running, and the task's end unknown when it
 * was not.  The report counts such a run as ended, not as running.  In
 * cctools mode TEMPLATE.summary is the note's cctools view, made as any
 * summary's is (cctools.c). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/figtable.h"
#include "basic/outfile.h"
#include "basic/xmalloc.h"
#include "measure/endcause.h"
#include "output/cctools.h"
#include "output/lostnote.h"
#include "output/summary.h"

/* A checkpoint is far smaller; a file larger is not one. */
#define CHECKPOINT_MAX (64L << 20)

/* The JSON object at @path if it is this user's regular file, else NULL. */
static json_t *load(const char *path)
{
	int fd = outfile_open_own(path, CHECKPOINT_MAX);
	json_t *root;

	if (fd < 0)
		return NULL;
	root = json_loadfd(fd, JSON_REJECT_DUPLICATES, NULL);
	close(fd);
	if (root && !json_is_object(root)) {
		json_decref(root);
		root = NULL;
	}
	return root;
}

static json_t *seconds(double v)
{
	return json_pack("[f, s]", round(v * 1e6) / 1e6, "s");
}

/* The value of a [value, "unit"] field @key of @root, or NAN. */
static double figure_value(const json_t *root, const char *key)
{
	const json_t *v = json_array_get(json_object_get(root, key), 0);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The exit and the times: the end is the guard's kill when there was
 * one, else the checkpoint's (the task ended later, unseen). */
static void mark_exit(json_t *root, const struct tp_lost *l, bool had_checkpoint)
{
	double start = figure_value(root, "start");

	json_object_set_new(root, "exit_type", l->killed ? json_string("signal") : json_null());
	json_object_set_new(root, "exit_status", json_null());
	if (l->killed)
		json_object_set_new(root, "signal", json_integer(SIGKILL));
	else
		json_object_del(root, "signal");
	if (!l->killed && json_object_get(root, "end"))
		return;
	if (!isfinite(start))
		start = l->started;
	json_object_set_new(root, "start", seconds(start));
	json_object_set_new(root, "end", seconds(l->ended));
	/* without a checkpoint, "start" is tpmon's, a few ms before the
	 * task's: no wall time is made of it */
	json_object_set_new(root, "wall_time", had_checkpoint && l->ended >= start ?
			    seconds(l->ended - start) : json_null());
}

/* Is @key in array @a? */
static bool listed(const json_t *a, const char *key)
{
	const json_t *e;
	size_t i;

	json_array_foreach(a, i, e)
		if (json_is_string(e) && !strcmp(json_string_value(e), key))
			return true;
	return false;
}

/* A checkpoint's figures after the guard's end: peaks and totals are
 * lower bounds now (the task may have used more after it), but the wall
 * time the guard set and the machine's cores; means, values of a moment
 * and the usage made of the whole run are unknown (null). */
static void mark_figures(json_t *root, const struct tp_lost *l)
{
	json_t *lb = json_object_get(root, "lower_bounds"), *v;
	const char *key;
	void *tmp;
	int f;

	if (!json_is_array(lb)) {
		lb = json_array();
		json_object_set_new(root, "lower_bounds", lb);
	}
	json_object_foreach_safe(root, tmp, key, v) {
		enum tp_fig_agg agg;

		if (!json_is_array(v) || json_array_size(v) != 2 ||
		    !json_is_number(json_array_get(v, 0)) ||
		    !strcmp(key, "start") || !strcmp(key, "end"))
			continue;
		f = fig_by_name(key);
		if (f == TP_FIG_MACHINE_CPUS || (f == TP_RES_WALL_TIME && l->killed))
			continue;
		agg = f >= 0 ? fig_info((enum tp_fig)f)->agg : TP_AGG_NOW;
		if (agg == TP_AGG_PEAK || agg == TP_AGG_TOTAL) {
			if (!listed(lb, key))
				json_array_append_new(lb, json_string(key));
		} else {
			json_object_set_new(root, key, json_null());
		}
	}
}

static json_t *ending(const struct tp_lost *l, bool had_checkpoint)
{
	char detail[768];
	int n;

	if (l->killed)
		n = snprintf(detail, sizeof(detail),
			     "tpmon (pid %d) was gone before the task ended, without finishing its run; "
			     "its guard (pid %d) killed what was left of the task (SIGKILL) and removed "
			     "the run's cgroups", (int)l->monitor, (int)l->guard);
	else
		n = snprintf(detail, sizeof(detail),
			     "tpmon (pid %d) was gone without finishing its run, after the task had "
			     "ended: how the task ended is not known; its guard (pid %d) removed the "
			     "run's cgroups", (int)l->monitor, (int)l->guard);
	if (n > 0 && (size_t)n < sizeof(detail))
		snprintf(detail + n, sizeof(detail) - (size_t)n, "%s", had_checkpoint ?
			 ". The figures are those of its last checkpoint: lower bounds" :
			 ". It had written no checkpoint: its figures are unknown");
	return json_pack("{s:s, s:o, s:o, s:s}", "cause", endcause_name(TP_END_MONITOR_LOST),
			 "signal", l->killed ? json_integer(SIGKILL) : json_null(),
			 "sender", l->killed ? json_pack("{s:i, s:I, s:s}", "pid", (int)l->guard, "uid",
							 (json_int_t)geteuid(), "command", "tpmon-guard") :
			 json_null(), "detail", detail);
}

static int write_root(const struct tp_options *o, const char *path, const json_t *root)
{
	char *text_nl = summary_dump(root, o->pprint);
	int r = outfile_write(path, text_nl, strlen(text_nl));

	free(text_nl);
	return r;
}

/* A checkpoint, or nothing yet: the run's identity and the exit. */
static json_t *note_of(const struct tp_options *o, json_t *checkpoint, const struct tp_lost *l)
{
	json_t *root = checkpoint ? checkpoint : summary_identity(o);

	if (!checkpoint)
		summary_tag(root, o);
	mark_exit(root, l, checkpoint != NULL);
	return root;
}

int lostnote_write(const struct tp_options *o, const struct tp_lost *l)
{
	char *full_path = summary_full_path(o), *path = summary_path(o);
	json_t *full = load(full_path), *view;
	bool had = full != NULL;
	int r = 0;

	if (full && !json_is_true(json_object_get(full, "partial"))) {
		json_decref(full);	/* tpmon wrote its final summary */
		goto out;
	}
	full = note_of(o, full, l);
	if (had)
		mark_figures(full, l);
	json_object_set_new(full, "partial", json_true());
	json_object_set_new(full, "ending", ending(l, had));
	json_object_set_new(full, "retry", json_null());
	json_object_set_new(full, "notes", json_array());
	r = write_root(o, full_path, full);
	if (strcmp(path, full_path) != 0) {
		view = cctools_view(full, o);
		r |= write_root(o, path, view);
		json_decref(view);
	}
	json_decref(full);
out:
	free(full_path);
	free(path);
	return r;
}
