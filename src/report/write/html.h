/* SPDX-License-Identifier: MIT */
/* html.h: untrusted text in the --html page, and the check that an SVG
 * picture gnuplot made is only a drawing before it is put in the page. */
#ifndef TPMON_REPORT_HTML_H
#define TPMON_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Write @s (untrusted) to @f as HTML: its shown form (safetext.h) with
 * &, <, >, " and ' as character references.  Safe as element text, in
 * <title>, and as a double- or single-quoted attribute value (not in a
 * URL, a style, an event handler or a script: the page has none of
 * these with text from an input). */
void html_text(FILE *f, const char *s);

/* Is @svg (an SVG document from its "<svg" on) only a drawing?  Every
 * element is one gnuplot draws with (svg, g, defs, desc, title, path,
 * circle, ellipse, line, polyline, polygon, rect, text, tspan, use,
 * filter, feFlood, feComposite, clipPath), no attribute is an event
 * handler (on...), every href is a reference inside the document (#...),
 * no value holds "javascript:", a character reference or a url() that
 * is not url(#...), no comment (HTML ends "<!-->" early), CDATA, DOCTYPE
 * or processing instruction, tags closed in order, nothing after </svg>.
 * Returns 1, or 0 with the first offence in @why. */
int html_svg_inert(const char *svg, char *why, size_t whylen);

#endif
