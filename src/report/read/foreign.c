/* SPDX-License-Identifier: MIT */
/* foreign.c: one reader for the line-based records of other tools: the
 * first line says the format, each further line goes to that format's
 * row parser. */
#include <stdlib.h>
#include <string.h>
#include "report/read/foreign.h"
#include "report/read/nextflow.h"
#include "report/read/sacct.h"
#include "report/read/snakemake.h"
#include "report/read/table.h"
#include "basic/xmalloc.h"

struct parser {
	enum rp_format fmt;
	struct rp_nextflow *nf;
	struct rp_snakemake *sm;
	struct rp_sacct *sa;
};

/* @line after the UTF-8 byte order mark some editors and Windows tools
 * put at the start of a file. */
static char *skip_bom(const char *line)
{
	return (char *)(strncmp(line, "\xef\xbb\xbf", 3) == 0 ? line + 3 : line);
}

enum rp_format rp_foreign_detect(const char *line)
{
	bool jsonl;

	line = skip_bom(line);
	if (rp_snakemake_detect(line, &jsonl))
		return jsonl ? RP_F_SNAKEMAKE_JSONL : RP_F_SNAKEMAKE;
	if (rp_sacct_detect(line))
		return RP_F_SACCT;
	if (rp_nextflow_detect(line))
		return RP_F_NEXTFLOW;
	return RP_F_NONE;
}

const char *rp_foreign_name(enum rp_format fmt)
{
	switch (fmt) {
	case RP_F_NEXTFLOW: return "Nextflow trace";
	case RP_F_SNAKEMAKE: return "Snakemake benchmark file";
	case RP_F_SNAKEMAKE_JSONL: return "Snakemake benchmark file (JSON Lines)";
	case RP_F_SACCT: return "sacct --parsable2 output";
	case RP_F_NONE: break;
	}
	return "file";
}

/* The parser of format @fmt whose first line is @first; for JSON Lines
 * the first line is a record too (the caller feeds it). */
static int parser_open(struct parser *p, enum rp_format fmt, const char *first)
{
	first = skip_bom(first);
	memset(p, 0, sizeof(*p));
	p->fmt = fmt;
	switch (fmt) {
	case RP_F_NEXTFLOW: p->nf = rp_nextflow_new(first); return p->nf ? 0 : -1;
	case RP_F_SNAKEMAKE: p->sm = rp_snakemake_new(first); return p->sm ? 0 : -1;
	case RP_F_SNAKEMAKE_JSONL: p->sm = rp_snakemake_new(NULL); return 0;
	case RP_F_SACCT: p->sa = rp_sacct_new(first); return p->sa ? 0 : -1;
	case RP_F_NONE: break;
	}
	return -1;
}

static void parser_close(struct parser *p)
{
	rp_nextflow_free(p->nf);
	rp_snakemake_free(p->sm);
	rp_sacct_free(p->sa);
	memset(p, 0, sizeof(*p));
}

static void parser_line(struct parser *p, struct rp_store *st, const char *path,
			char *line, struct rp_foreign_counts *c)
{
	size_t unended = st->unended;
	int r = -1;

	if (line[strspn(line, " \t\r")] == '\0')
		return;		/* blank */
	if (p->nf)
		r = rp_nextflow_row(p->nf, st, path, line);
	else if (p->sm)
		r = rp_snakemake_row(p->sm, st, path, line);
	else if (p->sa)
		r = rp_sacct_row(p->sa, st, path, line);
	if (r > 0)
		c->tasks++;
	else if (r < 0)
		c->bad++;
	c->unended += (long)(st->unended - unended);
}

enum rp_format rp_foreign_parse_text(struct rp_store *st, const char *path,
				     const char *text, size_t len,
				     struct rp_foreign_counts *c)
{
	enum rp_format fmt = RP_F_NONE;
	struct parser p;
	size_t pos = 0;
	bool first = true;
	char *line;

	memset(c, 0, sizeof(*c));
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - text - pos) : len - pos;

		if (n > RP_TABLE_MAX_LINE) {
			if (first)
				return RP_F_NONE;
			c->too_long++;
			pos += n + 1;
			continue;
		}
		line = xasprintf("%.*s", (int)n, text + pos);
		pos += n + 1;
		if (first) {
			first = false;
			fmt = rp_foreign_detect(line);
			if (fmt == RP_F_NONE || parser_open(&p, fmt, line) < 0) {
				free(line);
				return RP_F_NONE;
			}
			if (fmt == RP_F_SNAKEMAKE_JSONL)
				parser_line(&p, st, path, skip_bom(line), c);
		} else {
			parser_line(&p, st, path, line, c);
		}
		free(line);
	}
	if (fmt != RP_F_NONE)
		parser_close(&p);
	return fmt;
}

void rp_foreign_read(struct rp_store *st, FILE *f, const char *path,
		     enum rp_format fmt, char *first, size_t max_tasks,
		     struct rp_foreign_counts *c)
{
	struct parser p;
	char *buf = NULL;
	size_t cap = 0;
	int r;

	memset(c, 0, sizeof(*c));
	if (parser_open(&p, fmt, first) < 0)
		return;
	if (fmt == RP_F_SNAKEMAKE_JSONL)
		parser_line(&p, st, path, skip_bom(first), c);
	while (st->n < max_tasks && (r = rp_table_getline(f, &buf, &cap)) != 0) {
		if (r < 0)
			c->too_long++;
		else
			parser_line(&p, st, path, buf, c);
	}
	free(buf);
	parser_close(&p);
}
