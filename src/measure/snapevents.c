/* SPDX-License-Identifier: MIT */
/* snapevents.c: --snapshot-events.  The configuration is parsed once (jansson);
 * then each poll stat()s every watched file, reads the complete lines
 * appended since the last poll, and counts the events that fired.  The
 * semantics are resource_monitor's (rmonitor_file_watch.c), read from its
 * source, with two of its slips left out (see doc/cctools.md): "count"
 * bounds every kind of event, and a line is matched once it is complete. */
#include <errno.h>
#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "basic/messages.h"
#include "measure/snapevents.h"
#include "basic/xmalloc.h"

enum tp_snapevents_kind { TP_SNAPEVENTS_CREATE, TP_SNAPEVENTS_DELETE, TP_SNAPEVENTS_TRUNCATE, TP_SNAPEVENTS_PATTERN };

struct tp_snapevents_event {
	char *label;
	enum tp_snapevents_kind kind;
	regex_t re;			/* TP_SNAPEVENTS_PATTERN */
	long max_count;			/* -1: no bound */
	long total;			/* fired so far */
	long cycle;			/* fired in this poll */
};

struct tp_snapevents_file {
	char *path;
	bool from_start, from_start_if_truncated, delete_if_found;
	bool has_pattern;
	struct tp_snapevents_event *events;
	size_t nevents;
	/* what the last poll saw */
	bool exists;
	off_t position;			/* where the next unread line starts */
	off_t last_size;
	ino_t last_ino;
};

struct tp_snapevents {
	struct tp_snapevents_file *files;
	size_t nfiles;
};

/* --- parsing ---------------------------------------------------------- */

static int get_bool(json_t *obj, const char *key, bool dflt, bool *out,
		    const char *file, char *err, size_t errlen)
{
	json_t *v = json_object_get(obj, key);

	*out = dflt;
	if (!v)
		return 0;
	if (!json_is_boolean(v)) {
		snprintf(err, errlen, "%s: \"%s\" is not a boolean", file, key);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

static bool label_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return false;
	return true;
}

/* Copies of a subexpression that glibc's regcomp() may make: it copies a
 * repeated piece once per repetition ("a+" is "aa*", "x{n}" is n copies),
 * so repetitions multiply ("A++++..." took 2 GB in fuzz-snapevents).  The
 * product of every '+' (2) and interval (its larger count + 1) is bounded,
 * and two repetition operators in a row (undefined in POSIX EREs) are
 * refused. */
#define TP_PATTERN_COPIES 10000.0

/* Skip a bracket expression starting at @p ('['); returns its ']' or the
 * end of the string. */
static const char *skip_bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']')
		p++;
	return p;
}

/* The larger count of the interval at @p ('{'), 0 when none is readable;
 * @end is set to its '}' (or the end). */
static double interval_max(const char *p, const char **end)
{
	double n = 0, cur = 0;

	for (p++; *p && *p != '}'; p++) {
		if (*p >= '0' && *p <= '9')
			cur = cur * 10 + (*p - '0');
		else if (*p == ',')
			cur = 0;
		if (cur > n)
			n = cur;
	}
	*end = *p ? p : p - 1;
	return n;
}

static bool pattern_too_costly(const char *p)
{
	double copies = 1;
	bool after_repeat = false;

	for (; *p; p++) {
		bool repeat = *p == '+' || *p == '*' || *p == '?' || *p == '{';
		if (repeat && after_repeat)
			return true;
		if (*p == '+')
			copies *= 2;
		else if (*p == '{')
			copies *= interval_max(p, &p) + 1;
		else if (*p == '[')
			p = skip_bracket(p);
		else if (*p == '\\' && p[1])
			p++;
		if (!*p || copies > TP_PATTERN_COPIES)
			return copies > TP_PATTERN_COPIES;
		after_repeat = repeat;
	}
	return false;
}

/* Compile the pattern @pat of event @label into @re. */
static int compile_pattern(regex_t *re, const char *pat, const char *label, const char *file,
			   char *err, size_t errlen)
{
	int rc;

	if (pattern_too_costly(pat)) {
		snprintf(err, errlen, "%s: event %s: pattern too costly to compile (stacked "
			 "repetitions, or repetitions multiplying past %.0f copies)", file, label,
			 TP_PATTERN_COPIES);
		return -1;
	}
	rc = regcomp(re, pat, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char why[128];

		regerror(rc, re, why, sizeof(why));
		snprintf(err, errlen, "%s: event %s: bad pattern: %s", file, label, why);
		return -1;
	}
	return 0;
}

/* One element of "events".  Exactly one trigger, as resource_monitor
 * requires.  ("pattern" is taken for "on-pattern": Work Queue's and
 * TaskVine's documentation spell it so.) */
static int parse_event(json_t *j, struct tp_snapevents_event *e, const char *file,
		       char *err, size_t errlen)
{
	json_t *label = json_object_get(j, "label"), *count = json_object_get(j, "count");
	json_t *pat = json_object_get(j, "on-pattern");
	bool c, d, t;
	int n;

	if (!json_is_object(j)) {
		snprintf(err, errlen, "%s: an element of \"events\" is not an object", file);
		return -1;
	}
	if (!pat)
		pat = json_object_get(j, "pattern");
	if (!json_is_string(label) || !label_ok(json_string_value(label))) {
		snprintf(err, errlen, "%s: every event needs a \"label\" made of A-Z a-z 0-9 _ -", file);
		return -1;
	}
	if (get_bool(j, "on-create", false, &c, file, err, errlen) < 0 ||
	    get_bool(j, "on-delete", false, &d, file, err, errlen) < 0 ||
	    get_bool(j, "on-truncate", false, &t, file, err, errlen) < 0)
		return -1;
	if (pat && !json_is_string(pat)) {
		snprintf(err, errlen, "%s: \"on-pattern\" is not a string", file);
		return -1;
	}
	if (count && !json_is_integer(count)) {
		snprintf(err, errlen, "%s: \"count\" is not an integer", file);
		return -1;
	}
	n = (int)c + (int)d + (int)t + (pat != NULL);
	if (n != 1) {
		snprintf(err, errlen, "%s: event %s: give exactly one of on-create, on-delete, "
			 "on-truncate and on-pattern", file, json_string_value(label));
		return -1;
	}
	e->kind = c ? TP_SNAPEVENTS_CREATE : d ? TP_SNAPEVENTS_DELETE : t ? TP_SNAPEVENTS_TRUNCATE : TP_SNAPEVENTS_PATTERN;
	e->max_count = count ? (long)json_integer_value(count) : -1;
	if (e->max_count < 0)
		e->max_count = -1;
	if (pat && compile_pattern(&e->re, json_string_value(pat), json_string_value(label),
				   file, err, errlen) < 0)
		return -1;
	e->label = xstrdup(json_string_value(label));
	return 0;
}

static int parse_file(const char *path, json_t *spec, struct tp_snapevents_file *f,
		      char *err, size_t errlen)
{
	json_t *events = json_object_get(spec, "events"), *ev;
	size_t i;

	f->path = xstrdup(path);
	if (!json_is_object(spec)) {
		snprintf(err, errlen, "%s: expected { \"events\": [ ... ] }", path);
		return -1;
	}
	if (get_bool(spec, "from-start", false, &f->from_start, path, err, errlen) < 0 ||
	    get_bool(spec, "from-start-if-truncated", true, &f->from_start_if_truncated,
		     path, err, errlen) < 0 ||
	    get_bool(spec, "delete-if-found", false, &f->delete_if_found, path, err, errlen) < 0)
		return -1;
	if (!json_is_array(events) || json_array_size(events) == 0) {
		snprintf(err, errlen, "%s: \"events\" must be a non-empty array", path);
		return -1;
	}
	f->events = xcalloc(json_array_size(events), sizeof(*f->events));
	json_array_foreach(events, i, ev) {
		if (parse_event(ev, &f->events[i], path, err, errlen) < 0)
			return -1;
		f->nevents = i + 1;
		if (f->events[i].kind == TP_SNAPEVENTS_PATTERN)
			f->has_pattern = true;
	}
	return 0;
}

/* A message is one printable line: jansson quotes the text near an error
 * (a raw newline inside a string, say), and a file name or label may hold
 * an escaped control character; each such byte becomes '?'. */
static void one_line(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			*msg = '?';
}

static struct tp_snapevents *parse_text(const char *text, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr), *spec;
	struct tp_snapevents *w;
	const char *path;

	if (!root) {
		snprintf(err, errlen, "line %d: %s", jerr.line, jerr.text);
		return NULL;
	}
	if (!json_is_object(root) || json_object_size(root) == 0) {
		snprintf(err, errlen, "expected { \"FILE\": { \"events\": [ ... ] }, ... }");
		json_decref(root);
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->files = xcalloc(json_object_size(root), sizeof(*w->files));
	json_object_foreach(root, path, spec) {
		if (!*path) {
			snprintf(err, errlen, "an empty file name");
			goto fail;
		}
		w->nfiles++;
		if (parse_file(path, spec, &w->files[w->nfiles - 1], err, errlen) < 0)
			goto fail;
	}
	json_decref(root);
	return w;
fail:
	json_decref(root);
	snapevents_free(w);
	return NULL;
}

struct tp_snapevents *snapevents_parse(const char *text, char *err, size_t errlen)
{
	struct tp_snapevents *w = parse_text(text, err, errlen);

	if (!w && errlen > 0)
		one_line(err);
	return w;
}

struct tp_snapevents *snapevents_load(const char *path, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "re");
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	struct tp_snapevents *w;
	char local[512];

	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (len + 4096 + 1 > cap) {
			cap = (len + 4096 + 1) * 2;
			text = xreallocarray(text, cap, 1);
		}
		n = fread(text + len, 1, cap - len - 1, fp);
		len += n;
	} while (n > 0);
	text[len] = '\0';
	fclose(fp);
	w = snapevents_parse(text, local, sizeof(local));
	if (!w)
		snprintf(err, errlen, "%s: %s", path, local);
	free(text);
	return w;
}

/* --- polling ---------------------------------------------------------- */

static bool event_active(const struct tp_snapevents_event *e)
{
	return e->max_count < 0 || e->total < e->max_count;
}

static bool file_active(const struct tp_snapevents_file *f)
{
	size_t i;

	for (i = 0; i < f->nevents; i++)
		if (event_active(&f->events[i]))
			return true;
	return false;
}

static void fire(struct tp_snapevents_file *f, enum tp_snapevents_kind kind)
{
	size_t i;

	for (i = 0; i < f->nevents; i++) {
		struct tp_snapevents_event *e = &f->events[i];

		if (e->kind == kind && event_active(e)) {
			e->cycle++;
			e->total++;
		}
	}
}

static void forget(struct tp_snapevents_file *f)
{
	f->exists = false;
	f->position = 0;
	f->last_size = 0;
	f->last_ino = 0;
}

void snapevents_start(struct tp_snapevents *w)
{
	size_t i;

	for (i = 0; i < w->nfiles; i++) {
		struct tp_snapevents_file *f = &w->files[i];
		struct stat st;

		forget(f);
		if (stat(f->path, &st) < 0)
			continue;
		f->exists = true;
		f->last_ino = st.st_ino;
		f->last_size = st.st_size;
		if (!f->from_start)
			f->position = st.st_size;
	}
}

static void match_line(struct tp_snapevents_file *f, const char *line)
{
	size_t i;

	for (i = 0; i < f->nevents; i++) {
		struct tp_snapevents_event *e = &f->events[i];

		if (e->kind == TP_SNAPEVENTS_PATTERN && event_active(e) &&
		    regexec(&e->re, line, 0, NULL, 0) == 0) {
			e->cycle++;
			e->total++;
		}
	}
}

/* Match the complete lines from f->position on; a last line without its
 * newline is left for the next poll (the task may be writing it). */
static void read_lines(struct tp_snapevents_file *f)
{
	FILE *fp = fopen(f->path, "re");
	char *line = NULL;
	size_t cap = 0;

	if (!fp)
		return;
	if (fseeko(fp, f->position, SEEK_SET) == 0) {
		for (;;) {
			ssize_t n = getline(&line, &cap, fp);

			if (n <= 0 || line[n - 1] != '\n')
				break;
			line[n - 1] = '\0';
			match_line(f, line);
			f->position += n;
		}
	}
	free(line);
	fclose(fp);
}

static void poll_file(struct tp_snapevents_file *f)
{
	struct stat st;
	size_t i;

	for (i = 0; i < f->nevents; i++)
		f->events[i].cycle = 0;
	if (!file_active(f))
		return;
	if (stat(f->path, &st) < 0) {
		if (f->exists)
			fire(f, TP_SNAPEVENTS_DELETE);
		forget(f);
		return;
	}
	if (!f->exists) {
		fire(f, TP_SNAPEVENTS_CREATE);
		forget(f);
		f->exists = true;
	} else if (st.st_size < f->last_size || st.st_ino != f->last_ino) {
		fire(f, TP_SNAPEVENTS_TRUNCATE);
		f->position = f->from_start_if_truncated ? 0 : st.st_size;
	}
	f->last_size = st.st_size;
	f->last_ino = st.st_ino;
	if (f->has_pattern)
		read_lines(f);
	if (f->delete_if_found) {
		unlink(f->path);
		forget(f);
	}
}

/* Append "label(n)" for every event of @f that fired in this poll. */
static void add_labels(const struct tp_snapevents_file *f, char **label)
{
	size_t i;

	for (i = 0; i < f->nevents; i++) {
		const struct tp_snapevents_event *e = &f->events[i];
		char *s;

		if (!e->cycle)
			continue;
		s = *label ? xasprintf("%s,%s(%ld)", *label, e->label, e->cycle) :
			     xasprintf("%s(%ld)", e->label, e->cycle);
		free(*label);
		*label = s;
	}
}

char *snapevents_poll(struct tp_snapevents *w)
{
	char *label = NULL;
	size_t i;

	for (i = 0; i < w->nfiles; i++) {
		poll_file(&w->files[i]);
		add_labels(&w->files[i], &label);
	}
	if (label)
		debug_msg("snapshot events: %s", label);
	return label;
}

void snapevents_free(struct tp_snapevents *w)
{
	size_t i, j;

	if (!w)
		return;
	for (i = 0; i < w->nfiles; i++) {
		struct tp_snapevents_file *f = &w->files[i];

		for (j = 0; j < f->nevents; j++) {
			if (f->events[j].kind == TP_SNAPEVENTS_PATTERN)
				regfree(&f->events[j].re);
			free(f->events[j].label);
		}
		free(f->events);
		free(f->path);
	}
	free(w->files);
	free(w);
}
