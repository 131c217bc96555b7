/* SPDX-License-Identifier: MIT */
/* escape.c: untrusted text (group names, from input files) in each
 * language the emitters write: a Groovy string read as a regular
 * expression, YAML, Python, a shell comment.  Each writes a form that
 * cannot end its string or comment, whatever the bytes; fuzz-writers
 * checks each by decoding it. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "report/write/sizing_out.h"

static bool plain(unsigned char ch, const char *extra)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || (ch && strchr(extra, ch));
}

bool rp_printable_ascii(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return false;
	return true;
}

int rp_groovy_regex(FILE *f, const char *s)
{
	const unsigned char *p;

	if (!rp_printable_ascii(s))
		return -1;
	fputc('\'', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (plain(*p, "_:"))
			fputc(*p, f);
		else if (*p == '\'')
			fputs("\\'", f);	/* Groovy's quote; no regex meaning */
		else if (*p == '\\')
			fputs("\\\\\\\\", f);	/* the regex's \\: a backslash */
		else
			fprintf(f, "\\\\%c", *p);	/* \c: c itself in a regex */
	}
	fputc('\'', f);
	return 0;
}

void rp_yaml_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++)
		if (plain(*p, " _.:=-+/,"))
			fputc(*p, f);
		else
			fprintf(f, "\\x%02x", *p);
	fputc('"', f);
}

void rp_python_bytes(FILE *f, const char *s)
{
	const unsigned char *p;

	fputs("b\"", f);
	for (p = (const unsigned char *)s; *p; p++)
		if (plain(*p, " _.:-"))
			fputc(*p, f);
		else
			fprintf(f, "\\x%02x", *p);
	fputc('"', f);
}

void rp_percent(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (plain(*p, "._+-"))
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
}

bool rp_identifier(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!*p || (*p >= '0' && *p <= '9'))
		return false;
	for (; *p; p++)
		if (!plain(*p, "_"))
			return false;
	return true;
}
