/* SPDX-License-Identifier: MIT */
/* test-untrusted.c: the escapes of untrusted text, one per target
 * language: the shown form (safetext.c: terminal, plot labels), the
 * gnuplot string constant (gnuplot.c), HTML text and the check of the
 * SVG pictures put in the page (html.c), on hostile literals. */
#include <stdlib.h>
#include <string.h>
#include "report/gnuplot/gnuplot.h"
#include "report/write/html.h"
#include "basic/safetext.h"
#include "tap.h"

static void shown(const char *in, const char *want, const char *what)
{
	char *got = safetext_dup(in);

	is_str(got, want, "shown form: %s", what);
	free(got);
}

static void clipped(const char *in, size_t max, const char *want, const char *what)
{
	char *got = safetext_clip(in, max);

	is_str(got, want, "clip to %zu: %s", max, what);
	ok(strlen(got) <= max, "clip to %zu: %s: within the bound", max, what);
	free(got);
}

/* gp_text() of @in, as written into a script. */
static char *gp(const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	gp_text(f, in);
	fclose(f);
	return buf;
}

static char *html(const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	html_text(f, in);
	fclose(f);
	return buf;
}

static void svg(const char *in, int want, const char *what)
{
	char why[128] = "";
	int got = html_svg_inert(in, why, sizeof(why));

	ok(got == want, "svg check: %s (%s)", what, got ? "passes" : why);
}

#define SVG_HEAD "<svg width=\"10\" xmlns=\"http://www.w3.org/2000/svg\">"

int main(void)
{
	char *s;

	plan(40);
	shown("plain text, é 中 ✓", "plain text, é 中 ✓", "printable UTF-8 kept");
	shown("a\nb\rc\td\be\af\fg\vh", "a\\nb\\rc\\td\\be\\af\\fg\\vh", "C escapes");
	shown("\033[31mred\033]0;title\007", "\\x1b[31mred\\x1b]0;title\\a", "ESC and BEL");
	shown("x\x7fy\x01", "x\\x7fy\\x01", "DEL and SOH");
	shown("c1 \xc2\x85 \xc2\x9b", "c1 \\u0085 \\u009b", "C1 controls (NEL, CSI)");
	shown("\xe2\x80\xae" "evil\xe2\x81\xa6" "x\xe2\x81\xa9 \xe2\x80\x8f \xd8\x9c",
	      "\\u202eevil\\u2066x\\u2069 \\u200f \\u061c", "bidirectional controls");
	shown("bad \xff \xc3 \xe4\xb8 end", "bad \\xff \\xc3 \\xe4\\xb8 end", "invalid UTF-8 bytes");
	shown("\xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80", "\\xc0\\xaf \\xed\\xa0\\x80 \\xf4\\x90\\x80\\x80",
	      "overlong, surrogate, beyond U+10FFFF");
	shown("back\\slash 'q' \"d\" `b` @m", "back\\slash 'q' \"d\" `b` @m", "quotes and backslash kept");
	ok(safetext_is_plain("é ok") && !safetext_is_plain("a\nb") && !safetext_is_plain("\xff"),
	   "safetext_is_plain");
	clipped("short", 10, "short", "fits whole");
	clipped("exactly10!", 10, "exactly10!", "exactly the bound");
	clipped("abcdefghijk", 10, "abcdefg...", "cut with ...");
	clipped("ab中中中中", 10, "ab中...", "cut at a character boundary");
	clipped("ab\033\033\033", 10, "ab\\x1b...", "an escape is never cut");

	s = gp("a'b\nc");
	is_str(s, "\"\\141\\047\\142\\134\\156\\143\"", "gp_text: every byte an octal escape");
	free(s);
	s = gp("`touch x` @m \"; system('y') #");
	ok(strspn(s + 1, "\\01234567") == strlen(s) - 2 && s[0] == '"' && s[strlen(s) - 1] == '"',
	   "gp_text: only backslashes and octal digits between the quotes");
	free(s);
	s = gp("");
	is_str(s, "\"\"", "gp_text: the empty string");
	free(s);

	s = html("<script>a & b</script> \"x\" 'y' \n\xe2\x80\xae");
	is_str(s, "&lt;script&gt;a &amp; b&lt;/script&gt; &quot;x&quot; &#39;y&#39; \\n\\u202e",
	       "html_text: markup, quotes, controls");
	free(s);
	svg(SVG_HEAD "<g id=\"a\"><use xlink:href='#gpPt1'/><text>&lt;b&gt; x</text></g>"
	    "</svg>\n", 1, "a drawing");
	svg(SVG_HEAD "<!--><script>x()</script>--></svg>", 0, "a comment HTML ends at <!-->");
	svg(SVG_HEAD "<script>x</script></svg>", 0, "a script element");
	svg(SVG_HEAD "<g onload=\"x()\"></g></svg>", 0, "an event handler");
	svg(SVG_HEAD "<g ONclick='x()'></g></svg>", 0, "an event handler in capitals");
	svg(SVG_HEAD "<use href=\"http://e/x.svg#a\"/></svg>", 0, "a link out");
	svg(SVG_HEAD "<use xlink:href=\"javascript:x()\"/></svg>", 0, "a javascript: href");
	svg(SVG_HEAD "<rect fill=\"url(http://e/p)\"/></svg>", 0, "a remote url()");
	svg(SVG_HEAD "<rect fill=\"u&#114;l(x)\"/></svg>", 0, "a reference in a value");
	svg(SVG_HEAD "<foreignObject><div/></foreignObject></svg>", 0, "foreignObject");
	svg(SVG_HEAD "</svg><img src=x onerror=y>", 0, "something after </svg>");
	svg(SVG_HEAD "<g><text>x</g></text></svg>", 0, "closing tags out of order");
	svg(SVG_HEAD "<g>", 0, "an unclosed element");
	svg(SVG_HEAD "<![CDATA[<script>x</script>]]></svg>", 0, "CDATA");
	svg(SVG_HEAD "<rect x=1/></svg>", 0, "an unquoted value");
	svg("<g></g>", 0, "no <svg> first");
	return done();
}
