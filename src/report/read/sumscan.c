/* SPDX-License-Identifier: MIT */
/* sumscan.c: a summary's text scanned once (sumscan.h).  A strict JSON
 * grammar (RFC 8259, as jansson reads it); every form it does not handle
 * itself makes it decline, never guess. */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "basic/figtable.h"
#include "basic/sumkeys.h"
#include "report/read/rsummary.h"
#include "report/read/sumscan.h"

#define DEPTH_MAX 64

/* The keys kept: the resources (RP_RES__COUNT of them, by rtask.c's
 * table), then these, then the marks of a summary that are none of the
 * above (monitor_version). */
enum {
	K_START = RP_RES__COUNT, K_END, K_CATEGORY, K_COMMAND, K_HOST, K_EXIT_TYPE,
	K_EXIT_STATUS, K_MONITOR_VERSION, K_PARTIAL, K_ENDING, K_NOTES, K_RETRY, K_INPUT_SIZE, K_JOB,
	K__COUNT
};

static const enum tp_key other_keys[K__COUNT - RP_RES__COUNT] = {
	TP_KEY_START, TP_KEY_END, TP_KEY_CATEGORY, TP_KEY_COMMAND, TP_KEY_HOST,
	TP_KEY_EXIT_TYPE, TP_KEY_EXIT_STATUS, TP_KEY_MONITOR_VERSION, TP_KEY_PARTIAL,
	TP_KEY_ENDING, TP_KEY_NOTES, TP_KEY_RETRY,
	TP_KEY_RETRY,	/* K_INPUT_SIZE: a figure, named by key_name() */
	TP_KEY_JOB,
};

/* What a kept key held. */
struct val {
	bool seen;
	bool is_str;		/* a string itself (in str) */
	bool has_num;		/* a number, or an array whose first element is one */
	bool is_int;		/* the number itself (not in an array) is an integer */
	bool is_true;		/* the literal true */
	bool declined;		/* a form only jansson's path reads (notes or a
				 * retry given) */
	const char *cause, *detail;	/* ending's strings */
	double num;
	long long ival;
	const char *str;	/* the string itself, or an array's second element */
};

struct scan {
	char *p, *end;
};

static const char *key_name(int k)
{
	if (k == K_INPUT_SIZE)	/* a figure beyond the report's resources */
		return fig_info(TP_FIG_INPUT_SIZE)->name;
	return k < RP_RES__COUNT ? rp_res_fig(k)->name : key_info(other_keys[k - RP_RES__COUNT])->name;
}

static void ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' ||
				 *s->p == '\t'))
		s->p++;
}

/* The string at s->p (a '"'), unescaped in place and NUL-terminated into
 * *@out.  -1 on a control character, a byte beyond ASCII, a \u escape or
 * no end. */
static int string(struct scan *s, const char **out)
{
	char *w = ++s->p;

	*out = w;
	while (s->p < s->end) {
		unsigned char c = (unsigned char)*s->p++;

		if (c == '"') {
			*w = '\0';
			return 0;
		}
		if (c < 0x20 || c >= 0x80)
			return -1;
		if (c == '\\') {
			const char *esc = "\"\"\\\\//b\bf\fn\nr\rt\t", *e;

			if (s->p == s->end || *s->p == '\0')
				return -1;
			for (e = esc; *e && *e != *s->p; e += 2)
				;
			if (!*e)
				return -1;
			c = (unsigned char)e[1];
			s->p++;
		}
		*w++ = (char)c;
	}
	return -1;
}

static bool digit(const struct scan *s)
{
	return s->p < s->end && *s->p >= '0' && *s->p <= '9';
}

/* A number at s->p, JSON's grammar: an integer as jansson reads it (a
 * long long; -0 is 0), a real through strtod().  -1 when it is none, has
 * more than 18 digits (an integer) or overflows (a real). */
static int number(struct scan *s, struct val *v)
{
	char *start = s->p;
	bool real = false;

	if (*s->p == '-')
		s->p++;
	if (!digit(s))
		return -1;
	if (*s->p++ != '0')
		while (digit(s))
			s->p++;
	if (s->p < s->end && *s->p == '.') {
		s->p++, real = true;
		if (!digit(s))
			return -1;
		while (digit(s))
			s->p++;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++, real = true;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (!digit(s))
			return -1;
		while (digit(s))
			s->p++;
	}
	v->has_num = true;
	v->is_int = !real;
	if (real) {
		v->num = strtod(start, NULL);
		return isinf(v->num) ? -1 : 0;
	}
	if (s->p - start > 18)
		return -1;
	v->ival = strtoll(start, NULL, 10);
	v->num = (double)v->ival;
	return 0;
}

static int literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return -1;
	s->p += n;
	return 0;
}

static int value(struct scan *s, int depth, struct val *v);

/* An object member's key and its ':' (and the blanks after it). */
static int member_key(struct scan *s, const char **key)
{
	if (s->p == s->end || *s->p != '"' || string(s, key) < 0)
		return -1;
	ws(s);
	if (s->p == s->end || *s->p++ != ':')
		return -1;
	ws(s);
	return 0;
}

/* The members or elements after '{' or '[' up to the closing @close;
 * with @v, an array's first two elements are kept in it. */
static int members(struct scan *s, int depth, char close, struct val *v)
{
	const char *key;
	int i = 0;

	if (depth > DEPTH_MAX)
		return -1;
	s->p++;
	ws(s);
	if (s->p < s->end && *s->p == close) {
		s->p++;
		return 0;
	}
	for (;; i++) {
		struct val el = { 0 };

		if (close == '}' && member_key(s, &key) < 0)
			return -1;
		if (value(s, depth + 1, &el) < 0)
			return -1;
		if (v && i == 0 && el.has_num && el.str == NULL)
			v->has_num = true, v->num = el.num;
		if (v && i == 1 && !el.has_num)
			v->str = el.str;
		ws(s);
		if (s->p == s->end)
			return -1;
		if (*s->p == close) {
			s->p++;
			return 0;
		}
		if (*s->p++ != ',')
			return -1;
		ws(s);
	}
}

/* Any value at s->p; a number or a string kept in @v (a nested array's
 * or object's content is not). */
static int value(struct scan *s, int depth, struct val *v)
{
	if (s->p == s->end)
		return -1;
	switch (*s->p) {
	case '"':
		return string(s, &v->str);
	case '{':
		return members(s, depth, '}', NULL);
	case '[':
		return members(s, depth, ']', NULL);
	case 't':
		v->is_true = true;
		return literal(s, "true");
	case 'f':
		return literal(s, "false");
	case 'n':
		return literal(s, "null");
	default:
		return number(s, v);
	}
}

/* The kept keys' names and lengths, looked up once (a summary's thirty
 * keys, each against the kept ones, a million times over). */
static const char *kept_name[K__COUNT];
static size_t kept_len[K__COUNT];
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;

static void kept_init(void)
{
	int k;

	for (k = 0; k < K__COUNT; k++) {
		kept_name[k] = key_name(k);
		kept_len[k] = strlen(kept_name[k]);
	}
}

/* The kept key @key (@len bytes) is, or -1. */
static int kept(const char *key, size_t len)
{
	int k;

	for (k = 0; k < K__COUNT; k++)
		if (kept_len[k] == len && kept_name[k][0] == key[0] &&
		    memcmp(key, kept_name[k], len) == 0)
			return k;
	return -1;
}

/* `ending`'s object: its cause and detail kept when they are strings. */
static int ending_value(struct scan *s, struct val *v)
{
	const char *key;

	s->p++;
	ws(s);
	if (s->p < s->end && *s->p == '}') {
		s->p++;
		return 0;
	}
	for (;;) {
		struct val el = { 0 };

		if (member_key(s, &key) < 0 || value(s, 2, &el) < 0)
			return -1;
		if (el.str && !el.has_num && strcmp(key, "cause") == 0)
			v->cause = el.str;
		else if (el.str && !el.has_num && strcmp(key, "detail") == 0)
			v->detail = el.str;
		ws(s);
		if (s->p == s->end)
			return -1;
		if (*s->p == '}') {
			s->p++;
			return 0;
		}
		if (*s->p++ != ',')
			return -1;
		ws(s);
	}
}

/* A kept key's value: a number or a string as value() keeps it; an
 * array's first element (when a number) and second (when a string);
 * `ending`'s object; `notes` other than [] and `retry` other than null
 * decline (read by jansson). */
static int kept_value(struct scan *s, struct val *v, int k)
{
	if (k == K_ENDING && s->p < s->end && *s->p == '{')
		return ending_value(s, v);
	if (k == K_NOTES && s->p < s->end && *s->p == '[') {
		char *open = s->p;

		if (value(s, 1, v) < 0)
			return -1;
		v->declined = s->p - open > 2;	/* not "[]" */
		return 0;
	}
	if (k == K_RETRY) {
		v->declined = s->p < s->end && *s->p != 'n';	/* not null */
		return value(s, 1, v);
	}
	if (s->p < s->end && *s->p == '[') {
		struct val el = { 0 };

		if (members(s, 1, ']', &el) < 0)
			return -1;
		v->has_num = el.has_num;
		v->num = el.num;
		v->str = el.str;
		v->is_int = false;
		return 0;
	}
	v->is_str = s->p < s->end && *s->p == '"';
	return value(s, 1, v);
}

/* The top-level object into @vals.  -1 on any fault. */
static int top(struct scan *s, struct val *vals)
{
	const char *key;

	ws(s);
	if (s->p == s->end || *s->p++ != '{')
		return -1;
	ws(s);
	if (s->p < s->end && *s->p == '}')
		s->p++;
	else
		for (;;) {
			struct val skip = { 0 };
			int k;

			if (member_key(s, &key) < 0)
				return -1;
			k = kept(key, strlen(key));
			if (k >= 0 && vals[k].seen)
				return -1;	/* jansson keeps the last: left to it */
			if (k >= 0 ? kept_value(s, &vals[k], k) < 0 : value(s, 1, &skip) < 0)
				return -1;
			if (k >= 0)
				vals[k].seen = true;
			ws(s);
			if (s->p == s->end)
				return -1;
			if (*s->p == '}') {
				s->p++;
				break;
			}
			if (*s->p++ != ',')
				return -1;
			ws(s);
		}
	ws(s);
	return s->p == s->end ? 0 : -1;
}

/* Is @vals a summary (a mark present) with readable measures?  The
 * measures converted into @t. */
static int measures(struct rp_task *t, const struct val *vals)
{
	char why[128];
	bool mark = false;
	int k, r;

	for (k = 0; k < K__COUNT && !mark; k++)
		for (r = 0; vals[k].seen && r < RP_SUMMARY_NMARKS; r++)
			if (strcmp(kept_name[k], rp_summary_marks[r]) == 0)
				mark = true;
	if (!mark)
		return -1;
	for (r = 0; r < RP_RES__COUNT; r++) {
		const struct val *v = &vals[r];

		if (v->seen && rp_summary_measure(rp_res_info(r), v->has_num, v->num,
						  v->is_str ? NULL : v->str, &t->v[r],
						  why, sizeof(why)) < 0)
			return -1;
	}
	return 0;
}

static char *kept_string(const struct val *v)
{
	return v->seen && v->is_str ? rp_summary_strdup(v->str) : NULL;
}

static double kept_time(const struct val *v)
{
	return rp_summary_time(v->seen && v->has_num, v->num, v->is_str ? NULL : v->str);
}

int rp_sumscan_fill(struct rp_task *t, char *text, size_t len)
{
	struct val vals[K__COUNT];
	struct scan s = { text, text + len };

	pthread_once(&kept_once, kept_init);
	memset(vals, 0, sizeof(vals));
	if (top(&s, vals) < 0 || vals[K_NOTES].declined || vals[K_RETRY].declined ||
	    measures(t, vals) < 0)
		return -1;
	t->started = kept_time(&vals[K_START]);
	t->ended = kept_time(&vals[K_END]);
	t->category = kept_string(&vals[K_CATEGORY]);
	t->command = kept_string(&vals[K_COMMAND]);
	t->host = kept_string(&vals[K_HOST]);
	t->job = kept_string(&vals[K_JOB]);
	t->exit_type = kept_string(&vals[K_EXIT_TYPE]);
	if (vals[K_EXIT_STATUS].seen && vals[K_EXIT_STATUS].is_int)
		t->exit_status = (long)vals[K_EXIT_STATUS].ival;
	t->partial = vals[K_PARTIAL].is_true;
	if (vals[K_INPUT_SIZE].seen)
		t->input_mb = rp_summary_input_mb(vals[K_INPUT_SIZE].has_num,
						  vals[K_INPUT_SIZE].num,
						  vals[K_INPUT_SIZE].is_str ? NULL :
						  vals[K_INPUT_SIZE].str);
	if (vals[K_ENDING].cause)
		t->cause = rp_summary_strdup(vals[K_ENDING].cause);
	if (vals[K_ENDING].detail)
		t->detail = rp_summary_strdup(vals[K_ENDING].detail);
	rp_task_classify(t);
	return 0;
}
