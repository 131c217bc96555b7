/* SPDX-License-Identifier: MIT */
/* test-shquote.c: unit tests of shquote.c: argv quoted as typed, exactly,
 * and read back by /bin/sh into the same words (the ground truth). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/compat.h"
#include "basic/shquote.h"
#include "tap.h"

struct quote_case {
	const char *argv[8];
	const char *want;
};

static const struct quote_case cases[] = {
	{ { "sh", "-c", "exit 3", NULL }, "sh -c 'exit 3'" },
	{ { "/usr/bin/make", "-j4", "CC=gcc", "a,b:c@d%e+f", NULL },
	  "/usr/bin/make -j4 CC=gcc a,b:c@d%e+f" },
	{ { "printf", "%s\\n", "it's", NULL }, "printf '%s\\n' 'it'\"'\"'s'" },
	{ { "echo", "", " ", "a\"b", NULL }, "echo '' ' ' 'a\"b'" },
	{ { "echo", "$(x) `y` ${z}", "*", "~", "a;b|c&d", NULL },
	  "echo '$(x) `y` ${z}' '*' '~' 'a;b|c&d'" },
	{ { "echo", "new\nline", "tab\tbed", "caf\xc3\xa9", NULL },
	  "echo 'new\nline' 'tab\tbed' 'caf\xc3\xa9'" },
	{ { "'", "''", NULL }, "''\"'\"'' ''\"'\"''\"'\"''" },
	{ { NULL }, "" },
};

/* The words /bin/sh reads from @line, NUL-separated, into @buf; their
 * bytes, or -1. */
static long sh_words(const char *line, char *buf, size_t size)
{
	char path[] = "/tmp/test-shquote.XXXXXX", cmd[64];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL, *p;
	size_t n;

	if (!f)
		return -1;
	fprintf(f, "set -- %s\nfor a; do printf '%%s\\0' \"$a\"; done\n", line);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "/bin/sh %s", path);
	p = popen(cmd, "r");
	n = p ? fread(buf, 1, size, p) : 0;
	if (!p || pclose(p) != 0)
		n = (size_t)-1;
	unlink(path);
	return (long)n;
}

/* The words of @argv, NUL-separated, as sh_words() gives them. */
static size_t joined(const char *const *argv, char *buf)
{
	size_t n = 0, i;

	for (i = 0; argv[i]; i++) {
		memcpy(buf + n, argv[i], strlen(argv[i]) + 1);
		n += strlen(argv[i]) + 1;
	}
	return n;
}

int main(void)
{
	char got[4096], want[4096];
	size_t i;

	plan((int)ARRAY_SIZE(cases) * 2 + 4);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *q = shquote_argv((char *const *)cases[i].argv);
		long n = sh_words(q, got, sizeof(got));
		size_t w = joined(cases[i].argv, want);

		is_str(q, cases[i].want, "case %zu quoted as typed", i);
		ok(n == (long)w && !memcmp(got, want, w), "case %zu: /bin/sh reads the same words",
		   i);
		free(q);
	}
	ok(shquote_plain("a-b_c.d/e"), "plain: letters, digits, -_./");
	ok(!shquote_plain(""), "not plain: empty");
	ok(!shquote_plain("a b"), "not plain: a blank");
	ok(!shquote_plain("\xc3\xa9"), "not plain: beyond ASCII");
	return done();
}
