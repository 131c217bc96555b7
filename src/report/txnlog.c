/* txnlog.c: Work Queue / TaskVine transaction logs.  The lines read are
 *   TIME PID TASK ID WAITING CATEGORY ALLOC {...}            (Work Queue)
 *   TIME PID TASK ID READY CATEGORY ALLOC ATTEMPT {...}      (TaskVine)
 *   TIME PID TASK ID RUNNING WORKER ALLOC {...}
 *   TIME PID TASK ID RETRIEVED RESULT EXIT_CODE {LIMITS} {MEASURED}
 *   TIME PID TASK ID DONE RESULT EXIT_CODE [{LIMITS} {MEASURED}]
 * Work Queue writes the measurement on both RETRIEVED and DONE, TaskVine
 * on RETRIEVED only; a DONE that follows a RETRIEVED is not a new task. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>
#include "report/rsummary.h"
#include "report/txnlog.h"
#include "xmalloc.h"

/* Task ids above this keep no per-task state (category, host). */
#define MAX_TRACKED_ID 50000000L

struct tinfo {
	char *category;
	char *host;
	bool retrieved;		/* a RETRIEVED line not yet followed by DONE */
};

struct log {
	struct tinfo *info;
	long cap;
};

static struct tinfo *info_of(struct log *lg, long id)
{
	if (id < 0 || id > MAX_TRACKED_ID)
		return NULL;
	if (id >= lg->cap) {
		long n = lg->cap ? lg->cap : 1024;

		while (n <= id)
			n *= 2;
		lg->info = xreallocarray(lg->info, (size_t)n, sizeof(*lg->info));
		memset(lg->info + lg->cap, 0, (size_t)(n - lg->cap) * sizeof(*lg->info));
		lg->cap = n;
	}
	return &lg->info[id];
}

static void log_free(struct log *lg)
{
	long i;

	for (i = 0; i < lg->cap; i++) {
		free(lg->info[i].category);
		free(lg->info[i].host);
	}
	free(lg->info);
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
	rp_summary_fill(t, measured);
	if (ti && ti->category)
		replace(&t->category, ti->category);
	if (ti && ti->host)
		replace(&t->host, ti->host);
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
	struct log lg = { NULL, 0 };
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
