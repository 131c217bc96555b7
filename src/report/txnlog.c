/* SPDX-License-Identifier: MIT */
/* txnlog.c: Work Queue / TaskVine transaction logs.  The lines read are
 *   TIME PID TASK ID WAITING CATEGORY ALLOC {...}            (Work Queue)
 *   TIME PID TASK ID READY CATEGORY ALLOC ATTEMPT {...}      (TaskVine)
 *   TIME PID TASK ID RUNNING WORKER ALLOC {...}
 *   TIME PID TASK ID RETRIEVED RESULT EXIT_CODE {LIMITS} {MEASURED}
 *   TIME PID TASK ID DONE RESULT EXIT_CODE [{LIMITS} {MEASURED}]
 * Work Queue writes the measurement on both RETRIEVED and DONE, TaskVine
 * on RETRIEVED only; a DONE that follows a RETRIEVED is not a new task. */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>
#include "report/rsummary.h"
#include "report/txnlog.h"
#include "xmalloc.h"

struct tinfo {
	long id;
	char *category;
	char *host;
	double given[RP_G__COUNT];	/* from the RUNNING line; NAN unknown */
	bool retrieved;		/* a RETRIEVED line not yet followed by DONE */
	bool used;
};

/* Per-task state by id: open addressing, linear probing, at most half
 * full, so that a hostile id costs one slot, not an array up to it. */
struct log {
	struct tinfo *slot;
	size_t cap, n;		/* cap: a power of two */
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

static struct tinfo *info_of(struct log *lg, long id)
{
	struct tinfo *t;

	if (2 * (lg->n + 1) > lg->cap)
		grow(lg);
	t = find_slot(lg->slot, lg->cap, id);
	if (!t->used) {
		int g;

		t->used = true;
		t->id = id;
		for (g = 0; g < RP_G__COUNT; g++)
			t->given[g] = NAN;
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

/* The resources allocated to a task, from the JSON at @rest. */
static void read_given(struct tinfo *ti, const char *rest)
{
	json_t *box = json_loads(rest, JSON_DISABLE_EOF_CHECK, NULL);
	struct rp_task tmp;
	int g;

	if (!json_is_object(box)) {
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
static int add_task(struct rp_store *st, const char *path, struct tinfo *ti,
		    char *rest)
{
	char *result = word(&rest), *code = word(&rest);
	json_t *limits, *measured;
	json_error_t err;
	struct rp_task *t;

	if (!result || !code)
		return 0;
	limits = json_loads(rest, JSON_DISABLE_EOF_CHECK, &err);
	if (!limits)
		return 0;
	measured = json_loads(rest + err.position, JSON_DISABLE_EOF_CHECK, &err);
	if (!json_is_object(measured)) {
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
		if (ti && first)
			replace(&ti->host, first);
		if (ti && first && word(&rest))
			read_given(ti, rest);
	} else if (strcmp(state, "RETRIEVED") == 0) {
		added = add_task(st, path, ti, rest);
		if (ti)
			ti->retrieved = added > 0;
	} else if (strcmp(state, "DONE") == 0) {
		if (ti && ti->retrieved)
			ti->retrieved = false;
		else
			added = add_task(st, path, ti, rest);
	}
	return added;
}

long rp_txnlog_read(struct rp_store *st, FILE *f, const char *path)
{
	struct log lg = { NULL, 0, 0 };
	char *line = NULL, *rest, *time_s, *pid_s, *kind;
	size_t cap = 0;
	long tasks = 0, lines = 0;

	while (getline(&line, &cap, f) > 0) {
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
		if (strcmp(kind, "TASK") == 0)
			tasks += task_line(st, path, &lg, rest);
	}
	free(line);
	log_free(&lg);
	return lines > 0 ? tasks : -1;
}
