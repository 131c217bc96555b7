/* SPDX-License-Identifier: MIT */
/* limitset.c: limit specifications from JSON objects, resource_monitor's
 * "res: value" text and files, and their evaluation against measured
 * values.  Every parser works on a copy so that a rejected spec leaves the
 * caller's limits untouched; every message is one printable line. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "basic/messages.h"
#include "config/limitset.h"
#include "basic/units.h"

/* Longest value or name quoted in a message, and longest origin. */
#define SHOW_MAX 40
#define ORIGIN_MAX 200

/* Limit files are a few lines; refuse to slurp anything big. */
#define LIMITS_FILE_MAX (1024 * 1024)

/* Where a spec comes from, for the prefix of messages. */
struct where {
	char origin[ORIGIN_MAX + 8];
	int line;		/* 0: do not show a line number */
	char *err;
	size_t errlen;
};

/* Copy at most @max bytes of @s into @dst, printable ASCII only, with
 * "..." when cut.  @dst must hold @max + 4 bytes. */
static void show(char *dst, const char *s, size_t max)
{
	size_t i;

	for (i = 0; i < max && s[i]; i++)
		dst[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	if (s[i]) {
		memcpy(dst + i, "...", 3);
		i += 3;
	}
	dst[i] = '\0';
}

static void where_init(struct where *w, const char *origin, char *err,
		       size_t errlen)
{
	show(w->origin, origin, ORIGIN_MAX);
	w->line = 0;
	w->err = err;
	w->errlen = errlen;
}

static void fail(const struct where *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Write "origin[:line]: message" into the caller's error buffer. */
static void fail(const struct where *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!w->err || w->errlen == 0)
		return;
	if (w->line > 0)
		n = snprintf(w->err, w->errlen, "%s:%d: ", w->origin, w->line);
	else
		n = snprintf(w->err, w->errlen, "%s: ", w->origin);
	if (n < 0 || (size_t)n >= w->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(w->err + n, w->errlen - n, fmt, ap);
	va_end(ap);
}

/* An unknown resource @name (@shown as printable): the nearest name,
 * and every name. */
static void unknown_resource(const struct where *w, const char *name, const char *shown)
{
	const char *near = res_nearest(name);
	char names[400];

	res_list(names, sizeof(names));
	if (near)
		fail(w, "unknown resource \"%s\"; did you mean \"%s\"? (resources: %s)", shown,
		     near, names);
	else
		fail(w, "unknown resource \"%s\" (resources: %s)", shown, names);
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

/* The largest memory limit, in MB: 2^63 bytes less 1 MiB, a whole
 * number of pages that the kernel's memory.max and v1
 * memory.limit_in_bytes hold as written (they keep at most 2^63 - 1
 * bytes, in pages), and that tpmon turns into bytes exactly. */
#define MEMORY_MAX_MB 8796093022207.0

/* The range of a positive limit of @r, in its summary unit: at least one
 * unit of the last decimal the summary shows (0.001 MB, 0.000001 s,
 * 0.001 cores, 1 proc), memory at least a page (the kernel holds pages);
 * at most UNITS_MAX, memory at most MEMORY_MAX_MB. */
static void limit_range(enum tp_res r, double *min, double *max)
{
	*min = pow(10, -res_info(r)->decimals);
	*max = UNITS_MAX;
	if (r == TP_RES_MEMORY) {
		double page = (double)sysconf(_SC_PAGESIZE) / 1048576.0;

		if (page > *min)
			*min = page;
		*max = MEMORY_MAX_MB;
	}
}

/* @v as a person writes it: "8796093022207", "0.00390625", "0.001". */
static void show_bound(char *buf, size_t len, double v)
{
	size_t n;

	if (v == floor(v)) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	snprintf(buf, len, "%.10f", v);
	n = strlen(buf);
	while (n > 1 && buf[n - 1] == '0')
		buf[--n] = '\0';
}

/* Say in @why what range @r accepts, after a value outside it: @rc is
 * UNITS_TOO_SMALL or UNITS_TOO_LARGE, @what the reason so far. */
static void explain_range(enum tp_res r, int rc, const char *what,
			  char *why, size_t whylen)
{
	char said[64], bound[48];
	double min, max;

	limit_range(r, &min, &max);
	snprintf(said, sizeof(said), "%s", what);
	show_bound(bound, sizeof(bound), rc == UNITS_TOO_SMALL ? min : max);
	if (rc == UNITS_TOO_SMALL)
		snprintf(why, whylen, "must be at least %s %s", bound,
			 res_info(r)->unit);
	else
		snprintf(why, whylen, "%s: at most %s %s", said, bound,
			 res_info(r)->unit);
}

/* Is @v acceptable as a limit of @r, once converted?  Zero means "none
 * allowed" and only makes sense for some resources; a positive value is
 * within limit_range().  0, or a units.h code with the reason in @why. */
static int check_limit(enum tp_res r, double v, char *why, size_t whylen)
{
	double min, max;
	int rc = 0;

	if (v == 0 && !res_info(r)->zero_ok) {
		snprintf(why, whylen, "must be positive");
		return UNITS_BAD;
	}
	limit_range(r, &min, &max);
	if (v > 0 && v < min)
		rc = UNITS_TOO_SMALL;
	else if (v > max)
		rc = UNITS_TOO_LARGE;
	if (rc)
		explain_range(r, rc, "too large", why, whylen);
	return rc;
}

/* A units.h result for @r: out of range ones say the range. */
static int units_result(enum tp_res r, int rc, char *why, size_t whylen)
{
	if (rc == UNITS_TOO_SMALL || rc == UNITS_TOO_LARGE)
		explain_range(r, rc, why, why, whylen);
	return rc;
}

static void explain_negative(const struct tp_fig_info *info, char *why,
			     size_t whylen)
{
	snprintf(why, whylen, "%s",
		 info->zero_ok ? "must not be negative" : "must be positive");
}

/* The summary unit of a count or of cores ("5 procs", [2, "cores"]) is
 * accepted as no unit; sizes and times know "MB" and "s" already. */
static bool is_summary_unit(const struct tp_fig_info *info, const char *unit)
{
	return strcasecmp(unit, info->unit) == 0;
}

/* Parse a value written as text ("2G", "90s", "5 procs") for @r. */
static int parse_value_text(enum tp_res r, const char *text, double *out,
			    char *why, size_t whylen)
{
	const struct tp_fig_info *info = res_info(r);
	char buf[64];
	size_t n = strlen(text);
	double v;
	int rc;

	/* Drop a trailing summary unit word of cores and counts. */
	if (info->kind == TP_UNIT_CORES || info->kind == TP_UNIT_COUNT) {
		size_t end = n, start;

		while (end > 0 && isspace((unsigned char)text[end - 1]))
			end--;
		start = end;
		while (start > 0 && isalpha((unsigned char)text[start - 1]))
			start--;
		if (start > 0 && end - start < sizeof(buf) && start < sizeof(buf)) {
			memcpy(buf, text + start, end - start);
			buf[end - start] = '\0';
			if (is_summary_unit(info, buf)) {
				memcpy(buf, text, start);
				buf[start] = '\0';
				text = buf;
			}
		}
	}
	while (isspace((unsigned char)*text))
		text++;
	if (*text == '-' && units_parse(info->kind, text + 1, &v, NULL, 0) != UNITS_BAD) {
		explain_negative(info, why, whylen);
		return -1;
	}
	rc = units_parse(info->kind, text, out, why, whylen);
	if (rc < 0)
		return units_result(r, rc, why, whylen);
	return check_limit(r, *out, why, whylen);
}

/* Parse a number with an optional separate unit (JSON 2048, [1, "GB"]). */
static int parse_value_number(enum tp_res r, double v, const char *unit,
			      double *out, char *why, size_t whylen)
{
	const struct tp_fig_info *info = res_info(r);
	int rc;

	if (v < 0 || signbit(v)) {
		explain_negative(info, why, whylen);
		return -1;
	}
	if (unit && is_summary_unit(info, unit))
		unit = NULL;
	rc = units_convert(info->kind, v, unit, out, why, whylen);
	if (rc < 0)
		return units_result(r, rc, why, whylen);
	return check_limit(r, *out, why, whylen);
}

/* Parse a JSON value: a number, a string with a unit, or [value, "unit"]. */
static int parse_value_json(enum tp_res r, json_t *v, double *out, char *why,
			    size_t whylen)
{
	if (json_is_number(v))
		return parse_value_number(r, json_number_value(v), NULL, out,
					  why, whylen);
	if (json_is_string(v))
		return parse_value_text(r, json_string_value(v), out, why,
					whylen);
	if (json_is_array(v) && json_array_size(v) == 2 &&
	    json_is_number(json_array_get(v, 0)) &&
	    json_is_string(json_array_get(v, 1)))
		return parse_value_number(r,
					  json_number_value(json_array_get(v, 0)),
					  json_string_value(json_array_get(v, 1)),
					  out, why, whylen);
	snprintf(why, whylen, "expected a number, a string such as \"2G\" "
		 "or [value, \"unit\"]");
	return -1;
}

/* One "resource: value" entry of the text form, already trimmed. */
/* "end: EPOCH_SECONDS", the absolute deadline of Work Queue's
 * specify_end_time (a plain number of seconds, "s" allowed after it). */
static int parse_end_number(struct tp_limits *l, double v, const char *shown,
			    const struct where *w)
{
	if (!isfinite(v) || v <= 0) {
		fail(w, "end: %s: expected seconds since the epoch", shown);
		return -1;
	}
	if (v < 1 || v > UNITS_MAX) {
		fail(w, "end: %s: must be from 1 to %.0f s since the epoch",
		     shown, UNITS_MAX);
		return -1;
	}
	l->end_set = true;
	l->end = v;
	return 0;
}

static int parse_end_text(struct tp_limits *l, const char *value, const struct where *w)
{
	char shown[SHOW_MAX + 4], *rest;
	double v;

	show(shown, value, SHOW_MAX);
	errno = 0;
	v = strtod(value, &rest);
	while (isspace((unsigned char)*rest))
		rest++;
	if (*rest == 's')
		rest++;
	if (rest == value || *rest || errno)
		v = NAN;
	return parse_end_number(l, v, shown, w);
}

/* @given: the resources named so far in this text (one may not be named
 * twice: "memory: 5, memory: 6" is a mistake, not an override). */
static int parse_text_entry(struct tp_limits *l, char *entry,
			    const struct where *w, bool *given)
{
	char shown[SHOW_MAX + 4], why[128];
	char *colon = strchr(entry, ':'), *name, *value;
	const struct tp_fig_info *info;
	double v;
	int r;

	show(shown, entry, SHOW_MAX);
	if (!colon) {
		fail(w, "expected \"resource: value\", got \"%s\"", shown);
		return -1;
	}
	*colon = '\0';
	name = trim(entry);
	value = trim(colon + 1);
	if (*name == '\0') {
		fail(w, "missing resource name before \":\"");
		return -1;
	}
	show(shown, name, SHOW_MAX);
	if (!strcmp(name, "end"))
		return parse_end_text(l, value, w);
	r = res_by_name(name);
	if (r < 0 && res_cctools_only(name)) {
		warn_msg("note: %s: not limited by tpmon, ignored", shown);
		return 0;
	}
	if (r < 0) {
		unknown_resource(w, name, shown);
		return -1;
	}
	info = res_info(r);
	if (given[r]) {
		fail(w, "%s is given twice", info->name);
		return -1;
	}
	given[r] = true;
	if (*value == '\0') {
		fail(w, "%s: missing value", info->name);
		return -1;
	}
	if (parse_value_text(r, value, &v, why, sizeof(why)) < 0) {
		show(shown, value, SHOW_MAX);
		fail(w, "%s: %s: %s", info->name, shown, why);
		return -1;
	}
	l->set[r] = true;
	l->value[r] = v;
	return 0;
}

/* One line of the text form: a comment, blank, or comma-separated entries.
 * Adds the number of entries parsed to @count. */
static int parse_text_line(struct tp_limits *l, char *line,
			   const struct where *w, int *count, bool *given)
{
	char *entry = trim(line);

	if (*entry == '#')
		return 0;
	while (entry) {
		char *comma = strchr(entry, ',');

		if (comma)
			*comma = '\0';
		entry = trim(entry);
		if (*entry) {
			if (parse_text_entry(l, entry, w, given) < 0)
				return -1;
			(*count)++;
		}
		entry = comma ? comma + 1 : NULL;
	}
	return 0;
}

int limitset_parse_text(struct tp_limits *l, const char *text,
		      const char *origin, char *err, size_t errlen)
{
	struct tp_limits tmp = *l;
	struct where w;
	char *buf, *line;
	int count = 0, rc = 0, lineno = 1;
	bool numbered, given[TP_RES__COUNT] = { false };

	where_init(&w, origin, err, errlen);
	buf = strdup(text);
	if (!buf) {
		fail(&w, "out of memory");
		return -1;
	}
	/* Line numbers help in files, not in a one-line -L argument. */
	numbered = strchr(text, '\n') != NULL;
	for (line = buf; line && rc == 0; lineno++) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		w.line = numbered ? lineno : 0;
		rc = parse_text_line(&tmp, line, &w, &count, given);
		line = nl ? nl + 1 : NULL;
	}
	free(buf);
	if (rc == 0 && count == 0) {
		w.line = 0;
		fail(&w, "no limits given");
		rc = -1;
	}
	if (rc == 0)
		*l = tmp;
	return rc;
}

/* A JSON value as it reads in a message: numbers short ("1e+300", not
 * jansson's 17 digits), anything else as compact ASCII JSON. */
static void show_json(char shown[SHOW_MAX + 4], json_t *v)
{
	char *dump;

	if (json_is_number(v)) {
		char num[32];

		snprintf(num, sizeof(num), "%.15g", json_number_value(v));
		show(shown, num, SHOW_MAX);
		return;
	}
	dump = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
	show(shown, dump ? dump : "?", SHOW_MAX);
	free(dump);
}

/* Check one member of a JSON limits object and store it in @l. */
static int parse_json_member(struct tp_limits *l, const char *key, json_t *v,
			     const struct where *w)
{
	char shown[SHOW_MAX + 4], why[128];
	double value;
	int r = res_by_name(key);

	show(shown, key, SHOW_MAX);
	if (!strcmp(key, "end")) {
		json_t *num = json_is_array(v) ? json_array_get(v, 0) : v;

		if (json_is_string(num))
			return parse_end_text(l, json_string_value(num), w);
		show_json(shown, v);
		return parse_end_number(l, json_is_number(num) ? json_number_value(num) : NAN,
					shown, w);
	}
	if (r < 0 && res_cctools_only(key)) {
		warn_msg("note: %s: not limited by tpmon, ignored", shown);
		return 0;
	}
	if (r < 0) {
		unknown_resource(w, key, shown);
		return -1;
	}
	if (parse_value_json(r, v, &value, why, sizeof(why)) < 0) {
		show_json(shown, v);
		fail(w, "%s: %s: %s", res_info(r)->name, shown, why);
		return -1;
	}
	l->set[r] = true;
	l->value[r] = value;
	return 0;
}

int limitset_parse_json(struct tp_limits *l, const char *text, size_t len,
		      const char *origin, char *err, size_t errlen)
{
	struct tp_limits tmp = *l;
	struct where w;
	json_error_t jerr;
	json_t *root, *v;
	const char *key;
	int rc = 0;

	where_init(&w, origin, err, errlen);
	/* Duplicated keys are refused: jansson would keep only the last one
	 * and an invalid earlier value would pass unnoticed. */
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		char shown[sizeof(jerr.text) + 4];

		show(shown, jerr.text, sizeof(jerr.text) - 1);
		fail(&w, "invalid JSON at line %d, column %d: %s", jerr.line,
		     jerr.column, shown);
		return -1;
	}
	if (!json_is_object(root)) {
		fail(&w, "limits must be a JSON object");
		json_decref(root);
		return -1;
	}
	json_object_foreach(root, key, v) {
		rc = parse_json_member(&tmp, key, v, &w);
		if (rc < 0)
			break;
	}
	json_decref(root);
	if (rc == 0)
		*l = tmp;
	return rc;
}

/* Read all of @path into a NUL-terminated buffer the caller frees. */
static char *read_whole(const char *path, size_t *lenp, const struct where *w)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap + 1);
	int fd;

	if (!buf) {
		fail(w, "out of memory");
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fail(w, "%s", strerror(errno));
		free(buf);
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *bigger = cap < LIMITS_FILE_MAX ?
				realloc(buf, 2 * cap + 1) : NULL;

			if (!bigger) {
				fail(w, cap < LIMITS_FILE_MAX ? "out of memory" :
				     "too large for a limits file");
				goto fail;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail(w, "%s", strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return buf;
fail:
	close(fd);
	free(buf);
	return NULL;
}

/* Does @text (of @len bytes) look like a JSON object? */
static bool looks_like_json(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len && isspace((unsigned char)text[i]))
		i++;
	return i < len && text[i] == '{';
}

int limitset_parse_file(struct tp_limits *l, const char *path,
		      char *err, size_t errlen)
{
	struct where w;
	size_t len;
	char *text;
	const char *body;
	int rc;

	where_init(&w, path, err, errlen);
	text = read_whole(path, &len, &w);
	if (!text)
		return -1;
	/* a UTF-8 byte-order mark, as some editors write: not part of it */
	body = text;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		body += 3;
		len -= 3;
	}
	if (looks_like_json(body, len)) {
		rc = limitset_parse_json(l, body, len, path, err, errlen);
	} else if (memchr(body, '\0', len)) {
		fail(&w, "contains a NUL byte");
		rc = -1;
	} else {
		rc = limitset_parse_text(l, body, path, err, errlen);
	}
	free(text);
	return rc;
}

int limitset_parse_arg(struct tp_limits *l, const char *arg,
		     char *err, size_t errlen)
{
	const char *p = arg;
	struct stat st;
	struct where w;
	int stat_rc, stat_errno;

	stat_rc = stat(arg, &st);
	stat_errno = errno;
	if (stat_rc == 0 && S_ISREG(st.st_mode))
		return limitset_parse_file(l, arg, err, errlen);
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '{')
		return limitset_parse_json(l, arg, strlen(arg), "-L", err, errlen);
	/* "-L limits.json" with a typo in the name: say so, rather than
	 * complain that it is not "resource: value". */
	if (*p && !strchr(p, ':')) {
		char shown[ORIGIN_MAX + 4];

		where_init(&w, "-L", err, errlen);
		show(shown, arg, ORIGIN_MAX);
		fail(&w, "%s: %s, and not \"resource: value\"", shown,
		     stat_rc == 0 ? "not a regular file" :
		     strerror(stat_errno));
		return -1;
	}
	return limitset_parse_text(l, arg, "-L", err, errlen);
}

bool limitset_exceeded(const struct tp_limits *l, enum tp_res r, double value)
{
	return l->set[r] && value > l->value[r];
}
