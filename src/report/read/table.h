/* SPDX-License-Identifier: MIT */
/* table.h: records of other tools as delimited text with a header line
 * (Nextflow traces, Snakemake benchmark files, sacct --parsable2): the
 * header's column names, rows split in place, and a bounded line reader.
 * Everything but rp_table_getline() is pure. */
#ifndef TPMON_REPORT_TABLE_H
#define TPMON_REPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* At most this many columns are known; more make the header invalid. */
#define RP_TABLE_MAX_COLS 256
/* Longest line read whole; a longer one is skipped and counted. */
#define RP_TABLE_MAX_LINE 65536

struct rp_table {
	char *names[RP_TABLE_MAX_COLS];	/* owned */
	size_t n;
	char sep;
};

/* Split @line (NUL-terminated, modified in place) at each @sep into at
 * most @max fields in @f; a trailing '\r' is dropped.  Returns the number
 * of fields (a line with more has its last field hold the rest). */
size_t rp_table_split(char *line, char sep, char **f, size_t max);

/* The column names of header @line separated by @sep, copied into @t.
 * 0, or -1 when the line has more than RP_TABLE_MAX_COLS columns. */
int rp_table_header(struct rp_table *t, const char *line, char sep);
void rp_table_free(struct rp_table *t);

/* Index of column @name in @t (exact match), or -1. */
int rp_table_col(const struct rp_table *t, const char *name);

/* A reader's header: @line's columns (@sep between them) into @t, and
 * the index of each of the @n @names into @col (-1 where absent), as
 * every table reader starts.  0, or -1 when @line holds no @sep or too
 * many columns (@t then holds nothing). */
int rp_table_columns(struct rp_table *t, const char *line, char sep,
		     const char *const *names, int n, int *col);

/* Field @col of a row split into @nf fields @f, or NULL when the column
 * is absent (@col < 0) or the row is short. */
const char *rp_table_field(char **f, size_t nf, int col);

/* Is @s empty or one of the markers tools write for a missing value
 * ("-", "NA", "N/A", "None", "Unknown", "INVALID")? */
bool rp_table_missing(const char *s);

/* A plain non-negative finite number filling all of @s (surrounding
 * blanks allowed) in *@v; -1 otherwise. */
int rp_table_number(const char *s, double *v);

/* Read one line of @f into *@buf (grown, at most RP_TABLE_MAX_LINE + 1
 * bytes), without its newline.  Returns 1 for a line, 0 at the end, and
 * -1 for a line too long (its bytes are consumed and dropped). */
int rp_table_getline(FILE *f, char **buf, size_t *cap);

#endif
