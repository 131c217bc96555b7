/* SPDX-License-Identifier: MIT */
/* html.c: HTML text from untrusted strings, and a strict check of the
 * SVG pictures that the page inlines (html.h).  The check is a small
 * tokenizer of its own, stricter than XML: what it does not know, it
 * refuses. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "report/write/html.h"
#include "basic/safetext.h"

void html_text(FILE *f, const char *s)
{
	char *shown = safetext_dup(s), *p;

	for (p = shown; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*p, f);
		}
	}
	free(shown);
}

static const char *const svg_elements[] = {
	"svg", "g", "defs", "desc", "title", "path", "circle", "ellipse",
	"line", "polyline", "polygon", "rect", "text", "tspan", "use",
	"filter", "feFlood", "feComposite", "clipPath",
};

static int known_element(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(svg_elements) / sizeof(svg_elements[0]); i++)
		if (strlen(svg_elements[i]) == len && !strncmp(svg_elements[i], name, len))
			return 1;
	return 0;
}

static int name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == ':' || c == '.';
}

/* Does the attribute @name (@nlen bytes) = @value (@vlen) pass? */
static int attribute_ok(const char *name, size_t nlen, const char *value, size_t vlen,
			char *why, size_t whylen)
{
	const char *p, *colon = memchr(name, ':', nlen);

	/* a prefix only of gnuplot's namespaces (xlink:href, xml:space), one
	 * colon: a name such as wjavascript:idth passed before (fuzz-writers) */
	if (colon && ((!(colon - name == 5 && !strncmp(name, "xlink", 5)) &&
		       !(colon - name == 3 && !strncmp(name, "xml", 3)) &&
		       !(colon - name == 5 && !strncmp(name, "xmlns", 5))) ||
		      memchr(colon + 1, ':', nlen - (size_t)(colon - name) - 1))) {
		snprintf(why, whylen, "an attribute of another namespace (%.*s)", (int)nlen, name);
		return 0;
	}
	if (nlen >= 2 && !strncasecmp(name, "on", 2)) {
		snprintf(why, whylen, "an event handler attribute (%.*s)", (int)nlen, name);
		return 0;
	}
	if ((nlen == 4 && !strncasecmp(name, "href", 4)) ||
	    (nlen >= 5 && !strncasecmp(name + nlen - 5, ":href", 5))) {
		if (vlen == 0 || value[0] != '#') {
			snprintf(why, whylen, "a link out of the picture");
			return 0;
		}
	}
	for (p = value; p < value + vlen; p++) {
		if ((size_t)(value + vlen - p) >= 11 && !strncasecmp(p, "javascript:", 11)) {
			snprintf(why, whylen, "a javascript: URL");
			return 0;
		}
		if ((size_t)(value + vlen - p) >= 4 && !strncasecmp(p, "url(", 4) &&
		    ((size_t)(value + vlen - p) < 5 || p[4] != '#')) {
			snprintf(why, whylen, "a url() out of the picture");
			return 0;
		}
		if (*p == '<' || *p == '&') {
			snprintf(why, whylen, "a '%c' in an attribute", *p);
			return 0;
		}
	}
	return 1;
}

/* The attributes of the tag at *@p, up to and past its '>' (or "/>").
 * 1, or 0 with a reason. */
static int attributes(const char **pp, char *why, size_t whylen)
{
	const char *p = *pp;

	for (;;) {
		const char *name, *value;
		size_t nlen;
		char q;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '>' || (p[0] == '/' && p[1] == '>')) {
			*pp = p + (*p == '>' ? 1 : 2);
			return 1;
		}
		name = p;
		while (name_char(*p))
			p++;
		nlen = (size_t)(p - name);
		while (isspace((unsigned char)*p))
			p++;
		if (nlen == 0 || *p != '=') {
			snprintf(why, whylen, "a malformed tag");
			return 0;
		}
		p++;
		while (isspace((unsigned char)*p))
			p++;
		if (*p != '"' && *p != '\'') {
			snprintf(why, whylen, "an unquoted attribute value");
			return 0;
		}
		q = *p++;
		value = p;
		while (*p && *p != q)
			p++;
		if (!*p) {
			snprintf(why, whylen, "an unterminated attribute value");
			return 0;
		}
		if (!attribute_ok(name, nlen, value, (size_t)(p - value), why, whylen))
			return 0;
		p++;
	}
}

/* The deepest nesting a picture may have (gnuplot's: 4). */
#define SVG_DEPTH_MAX 64

/* A closing tag at @p (after "</"): its name must be @open's. */
static int closing_ok(const char **pp, const char *open, size_t olen, size_t len,
		      char *why, size_t whylen)
{
	const char *p = *pp;

	if (len != olen || strncmp(p, open, len)) {
		snprintf(why, whylen, "a closing tag that does not match");
		return 0;
	}
	p += len;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '>') {
		snprintf(why, whylen, "a malformed closing tag");
		return 0;
	}
	*pp = p + 1;
	return 1;
}

int html_svg_inert(const char *svg, char *why, size_t whylen)
{
	const char *p = svg, *open[SVG_DEPTH_MAX];
	size_t olen[SVG_DEPTH_MAX], len;
	int depth = 0, seen = 0;

	while ((p = strchr(p, '<'))) {
		const char *name;
		int closing;

		if (depth == 0 && seen) {
			snprintf(why, whylen, "something after </svg>");
			return 0;
		}
		closing = p[1] == '/';
		name = p + 1 + closing;
		for (len = 0; name_char(name[len]); len++)
			;
		if (!known_element(name, len)) {
			snprintf(why, whylen, "an element that is no drawing (<%.*s)",
				 (int)(len ? len : 1), len ? name : p + 1);
			return 0;
		}
		if (!seen && (closing || len != 3 || strncmp(name, "svg", 3))) {
			snprintf(why, whylen, "no <svg> element first");
			return 0;
		}
		seen = 1;
		p = name;
		if (closing) {
			if (depth == 0) {
				snprintf(why, whylen, "a closing tag too many");
				return 0;
			}
			if (!closing_ok(&p, open[depth - 1], olen[depth - 1], len, why, whylen))
				return 0;
			depth--;
			continue;
		}
		p += len;
		if (!attributes(&p, why, whylen))
			return 0;
		if (p[-2] == '/')
			continue;
		if (depth == SVG_DEPTH_MAX) {
			snprintf(why, whylen, "elements nested too deep");
			return 0;
		}
		open[depth] = name;
		olen[depth++] = len;
	}
	if (!seen || depth != 0) {
		snprintf(why, whylen, seen ? "an unclosed element" : "no <svg> element");
		return 0;
	}
	return 1;
}
