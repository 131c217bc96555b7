/* SPDX-License-Identifier: MIT */
/* safetext.c: the shown form of untrusted text (safetext.h): one decoder
 * of UTF-8 and one list of what must not reach a terminal, a gnuplot
 * label or a page as it is. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "basic/safetext.h"
#include "basic/xmalloc.h"

/* The code point of the valid UTF-8 sequence at @s (strict: no overlong
 * form, no surrogate, at most U+10FFFF), its length in *@len; -1 when the
 * byte at @s starts no valid sequence. */
static int32_t utf8_next(const unsigned char *s, size_t *len)
{
	static const int32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	int32_t cp;
	size_t n, i;

	if (s[0] < 0x80) {
		*len = 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return -1;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* the NUL ends the loop here too */
			return -1;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = n;
	return cp;
}

static int is_bidi(int32_t cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The escape for control character @cp (< 0x80 or C1) into @buf. */
static void control_escape(char *buf, size_t size, int32_t cp)
{
	char c = 0;

	switch (cp) {
	case '\n': c = 'n'; break;
	case '\r': c = 'r'; break;
	case '\t': c = 't'; break;
	case '\b': c = 'b'; break;
	case '\a': c = 'a'; break;
	case '\f': c = 'f'; break;
	case '\v': c = 'v'; break;
	}
	if (c)
		snprintf(buf, size, "\\%c", c);
	else if (cp < 0x80)
		snprintf(buf, size, "\\x%02x", (unsigned)cp);
	else
		snprintf(buf, size, "\\u%04x", (unsigned)cp);
}

/* The shown form of the character at @s: copied (*@esc empty) or as an
 * escape in @esc; its length in the input in *@in. */
static void shown(const unsigned char *s, size_t *in, char *esc, size_t size)
{
	int32_t cp = utf8_next(s, in);

	esc[0] = '\0';
	if (cp < 0) {
		*in = 1;
		snprintf(esc, size, "\\x%02x", s[0]);
	} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
		control_escape(esc, size, cp);
	} else if (is_bidi(cp)) {
		snprintf(esc, size, "\\u%04x", (unsigned)cp);
	}
}

char *safetext_clip(const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0, in;
	/* each input byte gives at most 4 output bytes (\xHH) */
	char *buf = xmalloc(4 * len + 4), esc[16];

	if (max < 3)
		max = 3;
	while (*p) {
		size_t add;

		shown(p, &in, esc, sizeof(esc));
		add = esc[0] ? strlen(esc) : in;
		if (o + add > max || (p[in] && o + add > max - 3)) {
			/* does the rest fit whole?  else cut here with "..." */
			char *rest = safetext_dup((const char *)p);

			if (o + strlen(rest) <= max) {
				memcpy(buf + o, rest, strlen(rest));
				o += strlen(rest);
			} else {
				memcpy(buf + o, "...", 3);
				o += 3;
			}
			free(rest);
			break;
		}
		if (esc[0])
			memcpy(buf + o, esc, add);
		else
			memcpy(buf + o, p, in);
		o += add;
		p += in;
	}
	buf[o] = '\0';
	return buf;
}

char *safetext_dup(const char *s)
{
	return safetext_clip(s, SIZE_MAX);
}

void safetext_put(FILE *f, const char *s)
{
	char *v = safetext_dup(s);

	fputs(v, f);
	free(v);
}

char *safetext_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *buf = xmalloc(3 * strlen(s) + 1);
	size_t o = 0, in;

	while (*p) {
		if (utf8_next(p, &in) < 0) {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			in = 1;
		} else {
			memcpy(buf + o, p, in);
			o += in;
		}
		p += in;
	}
	buf[o] = '\0';
	return buf;
}

int safetext_is_plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t in;
	char esc[16];

	while (*p) {
		shown(p, &in, esc, sizeof(esc));
		if (esc[0])
			return 0;
		p += in;
	}
	return 1;
}
