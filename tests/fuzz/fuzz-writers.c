/* SPDX-License-Identifier: MIT */
/* fuzz-writers.c: libFuzzer harness for the writers of untrusted text
 * (issue 18): random bytes through the shown form (safetext.c), a gnuplot
 * script line (gp_text, and gp_file for file names), HTML text (html_text), CSV's UTF-8 repair
 * (safetext_utf8), JSON (jsontext_new), and the SVG check of the page
 * (html_svg_inert).  Each output is judged by a strict checker written
 * here, not by the writer's own code: the gnuplot line must be exactly
 * `set title "` + octal escapes + `"` with nothing else from the input,
 * and decode to the shown form (a file name: to the input itself); HTML text must hold no markup character
 * and decode to the shown form; the shown form must be valid UTF-8 with
 * no control, DEL, C1 or bidi control and be its own shown form; an SVG
 * the check passes must hold no script, handler or javascript: URL.
 * The emitters' escapes (issue 28) are decoded as their languages read
 * them and must give back the input: the Groovy string (only \\ and \'
 * escapes, no bare quote or newline) read as a Java regular expression
 * (\c is c), the YAML and Python strings (\xNN or a safe set), the
 * shell comment's %XX.  The command line (shquote.c) is read back as a
 * POSIX shell reads single quotes, double-quoted quotes and plain words,
 * and must give back its words.
 * Aborts on any breach. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>
#include "basic/jsontext.h"
#include "report/gnuplot/gnuplot.h"
#include "report/write/html.h"
#include "report/write/sizing_out.h"
#include "basic/safetext.h"
#include "basic/shquote.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Is @s valid UTF-8 (strict) without C0/C1 controls, DEL or bidi
 * controls?  A decoder of its own, not safetext's. */
static int shown_ok(const unsigned char *s)
{
	while (*s) {
		unsigned cp;
		size_t n, i;

		if (*s < 0x80)
			n = 1, cp = *s;
		else if (*s >= 0xc2 && *s <= 0xdf)
			n = 2, cp = *s & 0x1f;
		else if (*s >= 0xe0 && *s <= 0xef)
			n = 3, cp = *s & 0x0f;
		else if (*s >= 0xf0 && *s <= 0xf4)
			n = 4, cp = *s & 0x07;
		else
			return 0;
		for (i = 1; i < n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i] & 0x3f);
		}
		if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || cp == 0x61c ||
		    cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			return 0;
		s += n;
	}
	return 1;
}

static char *written(void (*put)(FILE *, const char *), const char *prefix, const char *s,
		     const char *suffix)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fputs(prefix, f);
	put(f, s);
	fputs(suffix, f);
	fclose(f);
	return buf;
}

/* The gnuplot line: @prefix `"` (\ooo)* `"` newline, and nothing else;
 * what it decodes to must be @shown. */
static void check_gnuplot(const char *line, const char *prefix, const char *shown)
{
	const char *p = line + strlen(prefix) + 1;
	size_t o = 0, len = strlen(shown);

	if (strncmp(line, prefix, strlen(prefix)) || line[strlen(prefix)] != '"')
		abort();
	while (*p == '\\') {
		int v;

		if (p[1] < '0' || p[1] > '3' || p[2] < '0' || p[2] > '7' || p[3] < '0' || p[3] > '7')
			abort();
		v = (p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0');
		if (v == 0 || o >= len || (unsigned char)shown[o] != v)
			abort();
		o++;
		p += 4;
	}
	if (o != len || strcmp(p, "\"\n"))
		abort();
}

/* HTML text: no < > " ' and no & but as one of the five references;
 * decoded, @shown. */
static void check_html(const char *text, const char *shown)
{
	static const char *const refs[][2] = {
		{ "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" }, { "&#39;", "'" },
	};
	const char *p = text;
	size_t o = 0, len = strlen(shown), i;

	while (*p) {
		char c = *p;
		size_t n = 1;

		if (c == '<' || c == '>' || c == '"' || c == '\'')
			abort();
		if (c == '&') {
			for (i = 0; i < 5 && strncmp(p, refs[i][0], strlen(refs[i][0])); i++)
				;
			if (i == 5)
				abort();
			c = refs[i][1][0];
			n = strlen(refs[i][0]);
		}
		if (o >= len || shown[o] != c)
			abort();
		o++;
		p += n;
	}
	if (o != len)
		abort();
}

/* An SVG the check passed must hold nothing active (a second, cruder
 * look, case ignored): no comment or declaration (HTML ends "<!-->"
 * early), no element that is not drawing, and in each tag no attribute
 * named on... and no javascript: outside or inside a quoted value. */
static void check_svg(const char *svg)
{
	static const char *const never[] = {
		"<script", "<foreignobject", "<iframe", "<img", "<a ", "<a>", "<style", "<!", "<?",
		"<object", "<embed", "<link", "<meta", "<base", "<form",
	};
	const char *p;
	size_t i;

	for (p = svg; *p; p++) {
		char q = 0;

		if (*p != '<')
			continue;
		for (i = 0; i < sizeof(never) / sizeof(never[0]); i++)
			if (!strncasecmp(p, never[i], strlen(never[i])))
				abort();
		/* the tag, quotes followed */
		for (p++; *p && (q || *p != '>'); p++) {
			if (!strncasecmp(p, "javascript:", 11))
				abort();
			if (q) {
				if (*p == q)
					q = 0;
			} else if (*p == '"' || *p == '\'') {
				q = *p;
			} else if (isspace((unsigned char)*p) && !strncasecmp(p + 1, "on", 2)) {
				const char *r = p + 3;

				while (isalpha((unsigned char)*r))
					r++;
				while (isspace((unsigned char)*r))
					r++;
				if (*r == '=')
					abort();
			}
		}
		if (!*p)
			abort();	/* an unclosed tag passed */
	}
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* @out is @open, then bytes of @safe or @esc and two hex digits, then
 * @close and nothing else; it decodes to @s. */
static void check_hex(const char *out, const char *open, const char *safe, const char *esc,
		      const char *close, const char *s)
{
	size_t n = strlen(open), m = strlen(close), len = strlen(out), e = strlen(esc), i;
	const char *p;

	if (len < n + m || strncmp(out, open, n) || strcmp(out + len - m, close))
		abort();
	for (p = out + n, i = 0; p < out + len - m; i++) {
		if (strncmp(p, esc, e) == 0) {
			if (hexval(p[e]) < 0 || hexval(p[e + 1]) < 0 ||
			    (unsigned char)s[i] != hexval(p[e]) * 16 + hexval(p[e + 1]))
				abort();
			p += e + 2;
		} else if (*p && strchr(safe, *p)) {
			if (s[i] != *p)
				abort();
			p++;
		} else
			abort();
	}
	if (s[i])
		abort();
}

/* The Groovy single-quoted string's value read as a Java regex matches
 * exactly @s: decode the string (\\ and \' only), then the regex
 * (\c is c; no other metacharacter bare). */
static void check_groovy(const char *out, const char *s)
{
	size_t len = strlen(out), i, n = 0;
	char *v = malloc(len + 1);
	const char *p;

	if (!v || len < 2 || out[0] != '\'' || out[len - 1] != '\'')
		abort();
	for (p = out + 1; p < out + len - 1; p++) {
		if (*p == '\'' || *p == '\n' || (unsigned char)*p < 0x20)
			abort();
		if (*p == '\\') {
			if (p[1] != '\\' && p[1] != '\'')
				abort();
			p++;
		}
		v[n++] = *p;
	}
	v[n] = '\0';
	for (p = v, i = 0; *p; p++, i++) {
		if (*p == '\\')
			p++;
		else if (strchr(".[]{}()*+?^$|!-", *p))
			abort();
		if (!*p || s[i] != *p)
			abort();
	}
	if (s[i])
		abort();
	free(v);
}

/* One word of shquote_argv()'s output at *@p, read as sh reads it, must
 * be @want; *@p moves past it and its blank. */
static void check_shword(const char **p, const char *want)
{
	const char *q = *p;
	size_t i = 0;

	while (*q && *q != ' ') {
		if (*q == '\'') {
			for (q++; *q && *q != '\''; q++)
				if (want[i++] != *q)
					abort();
			if (!*q++)
				abort();
		} else if (!strncmp(q, "\"'\"", 3)) {
			if (want[i++] != '\'')
				abort();
			q += 3;
		} else if (strchr("\"\\$`*?[~#&;|<>(){}!\t\n", *q) || want[i++] != *q) {
			abort();
		} else {
			q++;
		}
	}
	if (want[i] || q == *p)
		abort();
	*p = *q ? q + 1 : q;
}

static void check_shquote(const char *s)
{
	char *argv[] = { (char *)s, (char *)"x", (char *)s, NULL };
	char *out = shquote_argv(argv);
	const char *p = out;
	size_t i;

	for (i = 0; argv[i]; i++)
		check_shword(&p, argv[i]);
	if (*p)
		abort();
	free(out);
}

static void check_emitters(const char *s)
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char safe[128], *out;
	size_t len = 0;
	FILE *f;

	out = NULL;
	f = open_memstream(&out, &len);
	if (!f)
		abort();
	if (rp_groovy_regex(f, s) == 0) {
		fclose(f);
		check_groovy(out, s);
	} else {
		fclose(f);
		if (len || rp_printable_ascii(s))
			abort();
	}
	free(out);
	snprintf(safe, sizeof(safe), "%s _.:=-+/,", alnum);
	out = written(rp_yaml_string, "", s, "");
	check_hex(out, "\"", safe, "\\x", "\"", s);
	free(out);
	snprintf(safe, sizeof(safe), "%s _.:-", alnum);
	out = written(rp_python_bytes, "", s, "");
	check_hex(out, "b\"", safe, "\\x", "\"", s);
	free(out);
	snprintf(safe, sizeof(safe), "%s._+-", alnum);
	out = written(rp_percent, "# job: ", s, "\n");
	check_hex(out, "# job: ", safe, "%", "\n", s);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *shown, *again, *clip, *out, *utf8, why[128];
	size_t max = (size % 61) + 3;
	json_t *j;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	shown = safetext_dup(s);
	if (!shown_ok((const unsigned char *)shown) || !safetext_is_plain(shown))
		abort();
	again = safetext_dup(shown);
	if (strcmp(again, shown))
		abort();
	clip = safetext_clip(s, max);
	if (strlen(clip) > max || !shown_ok((const unsigned char *)clip))
		abort();

	out = written(gp_text, "set title ", s, "\n");
	check_gnuplot(out, "set title ", shown);
	free(out);
	out = written(gp_file, "set output ", s, "\n");
	check_gnuplot(out, "set output ", s);
	free(out);
	out = written(html_text, "", s, "");
	check_html(out, shown);
	free(out);

	utf8 = safetext_utf8(s);
	j = json_stringn(utf8, strlen(utf8));
	if (!j)
		abort();
	json_decref(j);
	j = jsontext_new(s);
	if (!j)
		abort();
	json_decref(j);

	if (html_svg_inert(s, why, sizeof(why)))
		check_svg(s);
	check_emitters(s);
	check_shquote(s);

	free(utf8);
	free(clip);
	free(again);
	free(shown);
	free(s);
	return 0;
}
