/* SPDX-License-Identifier: MIT */
/* table.c: delimited text with a header line, split in place. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/read/table.h"
#include "basic/xmalloc.h"

size_t rp_table_split(char *line, char sep, char **f, size_t max)
{
	size_t n = 0, len = strlen(line);
	char *p = line;

	if (len > 0 && line[len - 1] == '\r')
		line[len - 1] = '\0';
	if (max == 0)
		return 0;
	for (;;) {
		char *e;

		f[n++] = p;
		if (n == max)
			break;
		e = strchr(p, sep);
		if (!e)
			break;
		*e = '\0';
		p = e + 1;
	}
	return n;
}

int rp_table_header(struct rp_table *t, const char *line, char sep)
{
	char *copy = xstrdup(line), *f[RP_TABLE_MAX_COLS + 1];
	size_t n = rp_table_split(copy, sep, f, RP_TABLE_MAX_COLS + 1), i;

	memset(t, 0, sizeof(*t));
	t->sep = sep;
	if (n > RP_TABLE_MAX_COLS) {
		free(copy);
		return -1;
	}
	for (i = 0; i < n; i++) {
		char *s = f[i];
		size_t len;

		while (*s == ' ')
			s++;
		len = strlen(s);
		while (len > 0 && s[len - 1] == ' ')
			len--;
		t->names[i] = xasprintf("%.*s", (int)len, s);
	}
	t->n = n;
	free(copy);
	return 0;
}

void rp_table_free(struct rp_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->names[i]);
	t->n = 0;
}

int rp_table_columns(struct rp_table *t, const char *line, char sep,
		     const char *const *names, int n, int *col)
{
	int c;

	if (!strchr(line, sep) || rp_table_header(t, line, sep) < 0)
		return -1;
	for (c = 0; c < n; c++)
		col[c] = rp_table_col(t, names[c]);
	return 0;
}

int rp_table_col(const struct rp_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->names[i], name) == 0)
			return (int)i;
	return -1;
}

const char *rp_table_field(char **f, size_t nf, int col)
{
	if (col < 0 || (size_t)col >= nf)
		return NULL;
	return f[col];
}

bool rp_table_missing(const char *s)
{
	static const char *const marks[] = { "-", "NA", "N/A", "None", "Unknown", "INVALID" };
	size_t i;

	if (!s)
		return true;
	while (*s == ' ')
		s++;
	if (!*s)
		return true;
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (strcmp(s, marks[i]) == 0)
			return true;
	return false;
}

int rp_table_number(const char *s, double *v)
{
	char *end;
	double x;

	if (!s)
		return -1;
	while (*s == ' ')
		s++;
	/* digits or a point first: no sign, no "inf", no "nan", no hex */
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	x = strtod(s, &end);
	if (end == s)
		return -1;
	while (*end == ' ')
		end++;
	if (*end || !isfinite(x) || x < 0)
		return -1;
	*v = x;
	return 0;
}

int rp_table_getline(FILE *f, char **buf, size_t *cap)
{
	size_t n = 0;
	bool too_long = false;
	int c;

	if (!*buf) {
		*cap = 4096;
		*buf = xmalloc(*cap);
	}
	while ((c = getc(f)) != EOF && c != '\n') {
		if (too_long)
			continue;
		if (n == RP_TABLE_MAX_LINE) {
			too_long = true;
			continue;
		}
		if (n + 1 >= *cap) {
			*cap = *cap * 2 > RP_TABLE_MAX_LINE + 1 ? RP_TABLE_MAX_LINE + 1 : *cap * 2;
			*buf = xreallocarray(*buf, *cap, 1);
		}
		(*buf)[n++] = (char)c;
	}
	(*buf)[n] = '\0';
	if (too_long)
		return -1;
	if (c == EOF && n == 0)
		return 0;
	return 1;
}
