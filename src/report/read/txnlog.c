/* SPDX-License-Identifier: MIT */
/* txnlog.c: Work Queue / TaskVine transaction logs.  The lines read are
 *   TIME PID TASK ID WAITING CATEGORY ALLOC {...}            (Work Queue)
 *   TIME PID TASK ID READY CATEGORY ALLOC ATTEMPT {...}      (TaskVine)
 *   TIME PID TASK ID RUNNING WORKER ALLOC {...}
 *   TIME PID TASK ID RETRIEVED RESULT EXIT_CODE {LIMITS} {MEASURED}
 *   TIME PID TASK ID DONE RESULT EXIT_CODE [{LIMITS} {MEASURED}]
 * Work Queue writes the measurement on both RETRIEVED and DONE, TaskVine
 * on RETRIEVED only; a DONE that follows a RETRIEVED is not a new task.
 * A log may be hostile: lines longer than RP_LINE_MAX and records whose
 * measures cannot be read are skipped and counted, with one warning for
 * the file; the per-task table holds at most RP_TASKS_MAX ids. */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>
#include "basic/messages.h"
#include "report/read/rsummary.h"
#include "report/read/txnlog.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

struct tinfo {
	long id;
	char *category;
	char *host;
	double given[RP_G__COUNT];	/* from the RUNNING line; NAN unknown */
	double running_at;	/* the last RUNNING line's time (s); NAN none */
	bool retrieved;		/* a RETRIEVED line not yet followed by DONE */
	bool used;
};

/* Per-task state by id: open addressing, linear probing, at most half
 * full, so that a hostile id costs one slot, not an array up to it. */
struct log {
	struct tinfo *slot;
	size_t cap, n;		/* cap: a power of two */
	long long_lines;	/* lines over RP_LINE_MAX, skipped */
	long bad;		/* records with unreadable measures, skipped */
	long line;		/* the number of the line being read */
	long first_bad;		/* the line of the first skipped record */
	char why[128];		/* and why it was skipped */
	double now;		/* the time of the line being read (s); NAN */
};

static size_t hash_id(long id, size_t cap)
{
	unsigned long long h = (unsigned long long)id * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 17) & (cap - 1);
}

static struct tinfo *find_slot(struct tinfo *slot, size_t cap, long id)
{
	size_t i = hash_id(id, cap);

	while (slot[i].used && slot[i].id != id)
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static void grow(struct log *lg)
{
	size_t cap = lg->cap ? 2 * lg->cap : 1024, i;
	struct tinfo *slot = xcalloc(cap, sizeof(*slot));

	for (i = 0; i < lg->cap; i++)
		if (lg->slot[i].used)
			*find_slot(slot, cap, lg->slot[i].id) = lg->slot[i];
	free(lg->slot);
	lg->slot = slot;
	lg->cap = cap;
}

/* The state of task @id, or NULL when the table is full of other ids. */
static struct tinfo *info_of(struct log *lg, long id)
{
	struct tinfo *t;

	if (2 * (lg->n + 1) > lg->cap && lg->n < RP_TASKS_MAX)
		grow(lg);
	t = find_slot(lg->slot, lg->cap, id);
	if (!t->used && 2 * (lg->n + 1) > lg->cap)
		return NULL;
	if (!t->used) {
		int g;

		t->used = true;
		t->id = id;
		for (g = 0; g < RP_G__COUNT; g++)
			t->given[g] = NAN;
		t->running_at = NAN;
		lg->n++;
	}
	return t;
}

static void log_free(struct log *lg)
{
	size_t i;

	for (i = 0; i < lg->cap; i++) {
		free(lg->slot[i].category);
		free(lg->slot[i].host);
	}
	free(lg->slot);
}

/* Next blank-separated word of *@p (NUL-terminated in place), or NULL. */
static char *word(char **p)
{
	char *s = *p, *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	e = s;
	while (*e && *e != ' ' && *e != '\t' && *e != '\n')
		e++;
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

static void replace(char **dst, const char *s)
{
	free(*dst);
	*dst = xstrdup(s);
}

/* exit_type of a result: what the summary would have said. */
static char *exit_type_of(const char *result)
{
	char *s;
	size_t i;

	if (strcmp(result, "SUCCESS") == 0)
		return xstrdup("normal");
	if (strcmp(result, "RESOURCE_EXHAUSTION") == 0)
		return xstrdup("limits");
	s = xstrdup(result);
	for (i = 0; s[i]; i++)
		s[i] = (char)tolower((unsigned char)s[i]);
	return s;
}

/* Count a record skipped at the current line, and say why (the first). */
static void bad_record(struct log *lg, const char *why)
{
	if (lg->bad++ == 0) {
		lg->first_bad = lg->line;
		snprintf(lg->why, sizeof(lg->why), "%s", why);
	}
}

/* The resources allocated to a task, from the JSON at @rest. */
static void read_given(struct log *lg, struct tinfo *ti, const char *rest)
{
	json_t *box = json_loads(rest, JSON_DISABLE_EOF_CHECK, NULL);
	struct rp_task tmp;
	char why[128];
	int g;

	if (!json_is_object(box)) {
		json_decref(box);
		return;
	}
	if (rp_summary_check(box, why, sizeof(why)) < 0) {
		bad_record(lg, why);
		json_decref(box);
		return;
	}
	rp_task_init(&tmp);
	rp_summary_fill(&tmp, box);
	for (g = 0; g < RP_G__COUNT; g++)
		ti->given[g] = tmp.v[rp_given_res(g)];
	rp_task_clear(&tmp);
	json_decref(box);
}

/* RESULT EXIT_CODE {LIMITS} {MEASURED} at @rest: one task.  Returns 1 when
 * a task was added, 0 when the line has no measurement. */
static int add_task(struct rp_store *st, const char *path, struct log *lg,
		    struct tinfo *ti, char *rest)
{
	char *result = word(&rest), *code = word(&rest), why[128];
	json_t *limits, *measured;
	json_error_t err;
	struct rp_task *t;

	if (!result || !code || st->n >= RP_TASKS_MAX)
		return 0;
	limits = json_loads(rest, JSON_DISABLE_EOF_CHECK, &err);
	if (!limits)
		return 0;
	measured = json_loads(rest + err.position, JSON_DISABLE_EOF_CHECK, &err);
	if (!json_is_object(measured) || rp_summary_check(measured, why, sizeof(why)) < 0) {
		if (json_is_object(measured))
			bad_record(lg, why);
		json_decref(limits);
		json_decref(measured);
		return 0;
	}
	t = rp_store_add(st, path);
	rp_store_set_kind(st, t, RP_K_TXNLOG);
	rp_summary_fill(t, measured);
	if (ti && ti->category)
		replace(&t->category, ti->category);
	if (ti && ti->host)
		replace(&t->host, ti->host);
	if (ti)
		memcpy(t->given, ti->given, sizeof(t->given));
	/* no start and end in the measurement (monitoring off): the task ran
	 * from its RUNNING line to this one, as the log says */
	if (ti && isnan(t->started) && isnan(t->ended) && lg->now >= ti->running_at) {
		t->started = ti->running_at;
		t->ended = lg->now;
	}
	free(t->exit_type);
	t->exit_type = exit_type_of(result);
	t->exit_status = strtol(code, NULL, 10);
	rp_task_classify(t);
	json_decref(limits);
	json_decref(measured);
	return 1;
}

static long task_line(struct rp_store *st, const char *path, struct log *lg,
		      char *rest)
{
	char *id_s = word(&rest), *state = word(&rest), *first;
	struct tinfo *ti;
	long added = 0;

	if (!id_s || !state)
		return 0;
	ti = info_of(lg, strtol(id_s, NULL, 10));
	if (strcmp(state, "WAITING") == 0 || strcmp(state, "READY") == 0) {
		first = word(&rest);
		if (ti && first)
			replace(&ti->category, first);
	} else if (strcmp(state, "RUNNING") == 0) {
		first = word(&rest);
		if (ti)
			ti->running_at = lg->now;
		if (ti && first)
			replace(&ti->host, first);
		if (ti && first && word(&rest))
			read_given(lg, ti, rest);
	} else if (strcmp(state, "RETRIEVED") == 0) {
		added = add_task(st, path, lg, ti, rest);
		if (ti)
			ti->retrieved = added > 0;
	} else if (strcmp(state, "DONE") == 0) {
		if (ti && ti->retrieved)
			ti->retrieved = false;
		else
			added = add_task(st, path, lg, ti, rest);
	}
	return added;
}

/* The next line of @f into @buf (@cap bytes), without its newline; lines
 * longer than RP_LINE_MAX are skipped and counted.  0 at the end. */
static int next_line(FILE *f, char *buf, size_t cap, struct log *lg)
{
	for (;;) {
		size_t n;

		if (!fgets(buf, (int)cap, f))
			return 0;
		lg->line++;
		n = strlen(buf);
		if (n > 0 && buf[n - 1] == '\n') {
			buf[n - 1] = '\0';
			return 1;
		}
		if (n + 1 < cap)
			return 1;	/* the last line, without a newline */
		/* too long: drop the rest of it */
		while (fgets(buf, (int)cap, f) && (!buf[0] || buf[strlen(buf) - 1] != '\n'))
			;
		lg->long_lines++;
	}
}

/* One warning for what was skipped in @path. */
static void warn_skipped(const struct log *lg, const char *path)
{
	char *p, *w, lines[64] = "";

	if (!lg->long_lines && !lg->bad)
		return;
	p = safetext_clip(path, 400);
	w = safetext_clip(lg->why, 200);
	if (lg->long_lines)
		snprintf(lines, sizeof(lines), "%ld line%s longer than %d MB", lg->long_lines,
			 lg->long_lines == 1 ? "" : "s", RP_LINE_MAX >> 20);
	if (lg->bad) {
		char records[64];

		snprintf(records, sizeof(records), "%s%ld task record%s", lines[0] ? " and " : "",
			 lg->bad, lg->bad == 1 ? "" : "s");
		error_msg("warning: %s: skipped %s%s (the first at line %ld: %s)", p, lines,
			  records, lg->first_bad, w);
	} else {
		error_msg("warning: %s: skipped %s", p, lines);
	}
	free(p);
	free(w);
}

/* A line's TIME, microseconds since the epoch, in seconds; NAN when it is
 * not a plausible one (1973 to 5138). */
static double log_time(const char *s)
{
	char *end;
	double us = strtod(s, &end);

	return *end == '\0' && us >= 1e14 && us <= 1e17 ? us / 1e6 : NAN;
}

long rp_txnlog_read(struct rp_store *st, FILE *f, const char *path)
{
	struct log lg;
	size_t cap = (size_t)RP_LINE_MAX + 2;
	char *line = xmalloc(cap), *rest, *time_s, *pid_s, *kind;
	long tasks = 0, lines = 0;

	memset(&lg, 0, sizeof(lg));
	while (next_line(f, line, cap, &lg)) {
		rest = line;
		if (line[0] == '#')
			continue;
		time_s = word(&rest);
		pid_s = word(&rest);
		kind = word(&rest);
		if (!time_s || !pid_s || !kind || !isdigit((unsigned char)time_s[0]) ||
		    !isdigit((unsigned char)pid_s[0]))
			continue;
		lines++;
		lg.now = log_time(time_s);
		if (strcmp(kind, "TASK") == 0)
			tasks += task_line(st, path, &lg, rest);
	}
	free(line);
	log_free(&lg);
	if (lines > 0)
		warn_skipped(&lg, path);
	return lines > 0 ? tasks : -1;
}
