/* SPDX-License-Identifier: MIT */
/* output.h: the report's outputs, each from the analysed groups: the
 * terminal, JSON, CSV and the HTML page (which holds the pictures that
 * gnuplot/ drew). */
#ifndef TPMON_REPORT_OUTPUT_H
#define TPMON_REPORT_OUTPUT_H

#include <stdio.h>
#include "report/analyse/analysis.h"
#include "report/read/store.h"
#include "report/write/sizing_out.h"

/* The run in a line, the tasks that failed or were stopped, then per
 * group, worst first (failed and stopped, then the memory left unused):
 * counts, figures, allocations, fit and waste; every line folded to 80
 * columns.  With @z (NULL: none) each group's recommendation and the
 * savings table. */
void rp_out_text(FILE *f, const struct rp_store *st, const struct rp_cat *c, size_t n,
		 const struct rp_sizing *z);

/* The terminal's opening (text_run.c): the run's line and its span, and
 * the tasks that failed or were stopped, each by its name and cause. */
void rp_text_run(FILE *f, const struct rp_store *st, const struct rp_cat *c, size_t n);
/* The order of the @n groups, worst first: the most failed and stopped
 * tasks, then the most memory GB hours left unused (each into @waste[i]);
 * an owned array of indexes. */
size_t *rp_text_order(const struct rp_store *st, const struct rp_cat *c, size_t n,
		      double *waste);
/* @len bytes of @text to @f, each line longer than 80 bytes folded at a
 * blank (else at a character), the rest indented by its indent plus 4. */
void rp_text_fold(FILE *f, const char *text, size_t len);

/* The --json document, with the @nnotes @notes on the sources (rp_notes())
 * as "notes" when there are any.  0, or -1 after an error message. */
int rp_out_json(const char *path, const struct rp_cat *c, size_t n,
		char *const *notes, size_t nnotes, const struct rp_sizing *z);

/* One row per task.  0, or -1 after an error message. */
int rp_out_csv(const char *path, const struct rp_store *st,
	       const struct rp_group *g, size_t ng);

/* --replay-csv: per group and strategy, then per strategy in total, the
 * replay's figures (out_csv.c).  0, or -1 after an error message. */
int rp_out_replay_csv(const char *path, const struct rp_sizing *z, const struct rp_cat *c);

struct rp_job;
/* --by=job's --json and --csv (out_json.c, out_csv.c): the @n jobs @j,
 * and with JSON the @nojob tasks that named none.  0, or -1 after an
 * error message. */
int rp_out_jobs_json(const char *path, const struct rp_job *j, size_t n, size_t nojob);
int rp_out_jobs_csv(const char *path, const struct rp_job *j, size_t n);

/* Write @len bytes as the new file @path, all at once (temporary file and
 * rename, as tpmon's other outputs).  0, or -1 with errno set. */
int rp_write_file(const char *path, const void *data, size_t len);

/* An allocation for people: "2", "3750 MB", "-". */
const char *rp_fmt_alloc(char *buf, size_t len, enum rp_ares a, int64_t v);

/* The SVG files drawn for one group (owned paths, NULL: not drawn), for
 * the page (drawn by gnuplot/groupplots.c). */
struct rp_plot_set {
	char *hist[RP_RES__COUNT];
	char *scatter;
};

/* Free the paths of @n sets (not the array). */
void rp_plot_sets_clear(struct rp_plot_set *sets, size_t n);

/* What the page shows besides the groups: the notes on the sources
 * (rp_notes()) and the timeline as an SVG document (NULL: none). */
struct rp_page {
	char **notes;
	size_t nnotes;
	const char *timeline_svg;
	const struct rp_sizing *sizing;	/* the overview; NULL: none */
	const struct rp_store *st;	/* the tasks, for the overview's footprints */
	char *across_svg[3];		/* the charts across groups (NULL: none) */
	size_t across_shown;		/* the groups they show */
};

/* The page's opening: the run summary and, when tasks failed or were
 * stopped, their table (html_run.c), from @st and its @n groups @c. */
void rp_html_run(FILE *f, const struct rp_store *st, const struct rp_cat *c, size_t n);

/* The page's one script (it sorts tables) and the SHA-256 of its bytes,
 * base64, which the page's Content-Security-Policy names. */
extern const char rp_html_script[];
#define RP_HTML_SCRIPT_HASH "sha256-mM2tHwsWhRhehGp9aRpWjpb6GjGIEy3lX5K50tVykJc="

/* The --html page at @path, with the SVGs of @sets (NULL: no plots; each
 * read back bounded, inlined only if it is only a drawing) and what @pg
 * holds (NULL: nothing).  0, or -1 after a message. */
int rp_out_html(const char *path, const struct rp_cat *c, size_t n,
		const struct rp_plot_set *sets, const struct rp_page *pg);

#endif
