/* SPDX-License-Identifier: MIT */
/* gnuplot.h: the one way tpmon draws with gnuplot (an external program:
 * Debian's gnuplot-nox), used by `tpmon plot` and `tpmon report`: a
 * script and its data files in a private temporary directory, one run of
 * gnuplot on it, its messages passed on.
 *
 * Untrusted text never appears in a script as text.  gp_text() writes it
 * as a double-quoted string made only of octal escapes ("\150\151"), which
 * gnuplot's lexer turns back into the string's value; so nothing that
 * comes from an input file can end a command (newline, ';' outside a
 * string), close the string (a quote), run a command (backquotes, which
 * gnuplot substitutes inside double quotes), expand a macro (@) or start
 * a comment (#).  Scripts set their terminals `noenhanced`, so the value
 * is drawn as it is, not read as markup.  Numbers go through gp_num(). */
#ifndef TPMON_REPORT_GNUPLOT_H
#define TPMON_REPORT_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

/* How the pictures draw the way a task ended, indexed by enum rp_end
 * (0 succeeded, 1 stopped at a limit, 2 failed; a running task is not
 * drawn): its words, a colour from Okabe and Ito's palette and a point
 * shape of its own, so that each is told from the others by any reader,
 * in grey too.  tests/unit/test-report-endstyle.c holds the colours
 * apart under simulated protanopia, deuteranopia and tritanopia. */
struct gp_endstyle {
	const char *label;
	const char *color;	/* "#RRGGBB" */
	int pt;			/* gnuplot's point type */
};
#define GP_ENDSTYLES 3
extern const struct gp_endstyle gp_endstyle[GP_ENDSTYLES];

struct gp {
	const char *who;	/* message prefix ("plot", "report"), borrowed */
	char *dir;		/* the private temporary directory, owned */
	char *script_path;	/* dir/script.gp, owned */
	FILE *script;		/* the script, open for writing until gp_run() */
};

/* Make a private directory under $TMPDIR (else /tmp) and open a script in
 * it for writing (g->script).  0, or -1 after a message; then @g holds
 * nothing to close. */
int gp_open(struct gp *g, const char *who);

/* A new path for the file @name in @g's directory (a data file, a
 * picture); @name is the caller's own, not from an input.  Owned by the
 * caller; gp_close() removes the file. */
char *gp_path(const struct gp *g, const char *name);

/* The data file @name (the caller's own name) created in @g's directory
 * for writing; its path in *@path (owned by the caller, set even on
 * failure).  NULL after a message. */
FILE *gp_data_open(const struct gp *g, const char *name, char **path);

/* Close the data file @f (NULL: it could not be opened) at @path: 0, or -1
 * after a message when any write to it failed (a full disk, a file size
 * limit): gnuplot must not draw a silently truncated file. */
int gp_data_close(const struct gp *g, FILE *f, const char *path);

/* The picture gnuplot drew at @made, read back bounded (RP_PICTURE_MAX):
 * a new buffer (length in *@len), or NULL after a message when it is
 * missing, unreadable, too large or empty. */
char *gp_picture(const struct gp *g, const char *made, size_t *len);

/* Write @s (untrusted text, any bytes, to be drawn) to the script @f as a
 * gnuplot string constant: the shown form of @s (safetext.h: controls, bidirectional
 * controls and invalid UTF-8 as escapes) with every byte as an octal
 * escape, in double quotes.  @f may be a memory stream whose text goes
 * into the script later. */
void gp_text(FILE *f, const char *s);

/* Write the file name @path to the script @f as gp_text() writes text,
 * but byte for byte (not its shown form): a name with any bytes in it
 * (the --plots DIR, $TMPDIR) names the same file in gnuplot. */
void gp_file(FILE *f, const char *path);

/* Write @v to the script @f: "%.15g" when finite, else NaN. */
void gp_num(FILE *f, double v);

/* Close the script and run gnuplot on it, stdin from /dev/null; what it
 * prints is passed on to stderr line by line (shown form), less the notes
 * that an empty range was widened.  0 when gnuplot exited 0, else -1
 * after a message. */
int gp_run(struct gp *g);

/* Remove @g's directory and every file in it; free @g's strings. */
void gp_close(struct gp *g);

#endif
