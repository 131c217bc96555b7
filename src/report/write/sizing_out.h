/* SPDX-License-Identifier: MIT */
/* sizing_out.h: the recommendations written: in each engine's own form
 * (--emit; emit*.c, the escapes of escape.c) and in the report's outputs
 * (JSON, terminal, the HTML page: out_sizing.c, html_sizing.c).  The
 * computation under them is sizing/'s (sizing.h); the charts across
 * groups are gnuplot/'s (boxplots.h). */
#ifndef TPMON_REPORT_SIZING_OUT_H
#define TPMON_REPORT_SIZING_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>
#include "report/sizing/sizing.h"

/* Write each --emit file.  0; 1 when a file holds nothing usable (every
 * group left out: a warning said so); -1 after a message. */
int rp_emit_all(const struct rp_sizing *z, const struct rp_cat *c,
		const double max[RP_A__COUNT]);
/* Each engine's file on @f: the number of groups written (0: nothing
 * usable), or -1. */
int rp_emit_nextflow(FILE *f, const struct rp_sizing *z, const struct rp_cat *c,
		     const double max[RP_A__COUNT]);
int rp_emit_snakemake(FILE *f, const struct rp_sizing *z, const struct rp_cat *c);
/* An include file for a Snakefile (@path ends in .smk or .py): each
 * rule's mem_mb and runtime, functions of input.size_mb and attempt where
 * --recommend=input fitted a line, else fixed (emit_input.c). */
int rp_emit_snakemake_input(FILE *f, const struct rp_sizing *z, const struct rp_cat *c,
			    const double max[RP_A__COUNT]);
/* Is @path a Snakefile include (.smk, .py) rather than a profile? */
bool rp_emit_smk_include(const char *path);
/* A Nextflow closure "KEY = { ... }" of line @l over the task's input
 * files and task.attempt: memory in MB (@mem) or time; @top: --max, < 0
 * none. */
void rp_emit_nf_line(FILE *f, const char *key, const struct rp_line *l, bool mem, double top);
/* Why a group is left out of a Snakemake file, or NULL. */
const char *rp_smk_why(const struct rp_rec *r, const char *name);
int rp_emit_slurm(FILE *f, const struct rp_sizing *z, const struct rp_cat *c);
/* Submit-description lines per group for HTCondor (23 or later): the
 * requests, and retry_request_memory from the strategy's retry, within
 * --max's memory. */
int rp_emit_htcondor(FILE *f, const struct rp_sizing *z, const struct rp_cat *c,
		     const double max[RP_A__COUNT]);
int rp_emit_cctools(FILE *f, const struct rp_sizing *z, const struct rp_cat *c,
		    const double max[RP_A__COUNT], bool vine);

/* Untrusted text in each emitted language (the writers' escapes). */
/* A Groovy single-quoted string whose value, read as a Java regular
 * expression, matches exactly @s.  0, or -1 (a byte outside printable
 * ASCII: not a Nextflow process name) with nothing written. */
int rp_groovy_regex(FILE *f, const char *s);
/* Is every byte of @s printable ASCII (0x20-0x7e)? */
bool rp_printable_ascii(const char *s);
/* A YAML double-quoted scalar of @s (any bytes: \xNN for the others). */
void rp_yaml_string(FILE *f, const char *s);
/* A Python bytes literal of @s: b"..." with \xNN for all but [A-Za-z0-9 _.:-]. */
void rp_python_bytes(FILE *f, const char *s);
/* @s with every byte but [A-Za-z0-9._+-] as %XX: safe in a shell comment. */
void rp_percent(FILE *f, const char *s);
/* Is @s a Python identifier of ASCII letters, digits and '_' (a Snakemake rule)? */
bool rp_identifier(const char *s);

/* Why group recommendation @r has none (r->has false), a phrase. */
const char *rp_rec_none_why(const struct rp_rec *r);
/* What the retries of its tasks stopped at a limit did to @r, a phrase
 * ("memory at least 192 MB: the retry of 1 task stopped at a limit"),
 * or NULL when they did nothing. */
const char *rp_rec_floor_why(char *buf, size_t len, const struct rp_rec *r);
/* Name each group of the @n in @c that @why (not NULL: its reason) leaves
 * out of an emitted file, a comment line each after @prefix ("//", "#"),
 * the name with every byte but [A-Za-z0-9._+-] as %XX. */
void rp_emit_left_out(FILE *f, const char *prefix, const struct rp_sizing *z,
		      const struct rp_cat *c,
		      const char *(*why)(const struct rp_rec *r, const char *name));

/* The outputs' parts. */
/* "recommend" and "replay" of group @i into the JSON object @o. */
void rp_sizing_json_group(json_t *o, const struct rp_sizing *z, size_t i);
/* "recommend" (strategy, margin) and "replay" (totals) into the root. */
void rp_sizing_json_root(json_t *root, const struct rp_sizing *z);
/* The savings-and-risk table per strategy, for the terminal. */
void rp_sizing_text(FILE *f, const struct rp_sizing *z, const struct rp_cat *c);
/* One group's recommendation line for the terminal. */
void rp_sizing_text_group(FILE *f, const struct rp_sizing *z, size_t i);
/* Group recommendation @r's lines on the input size, for the terminal. */
void rp_sizing_text_lines(FILE *f, const struct rp_rec *r);
/* The page's overview (a row per group, by footprint, linking to
 * sections id="g-I") and the savings table. */
void rp_sizing_html(FILE *f, const struct rp_sizing *z, const struct rp_store *st,
		    const struct rp_cat *c, size_t n);
/* Group @i's recommendation, replay and what was left out, a paragraph. */
void rp_sizing_html_group(FILE *f, const struct rp_sizing *z, size_t i);
/* The page's section of the charts across groups (rp_boxplots_svg(),
 * gnuplot/boxplots.h), each inlined if html_svg_inert(). */
void rp_sizing_html_across(FILE *f, char *const svg[3], size_t shown, size_t n);

#endif
