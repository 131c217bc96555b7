/* SPDX-License-Identifier: MIT */
/* test-report-sizing.c: the pure parts of issue 28's right-sizing: the
 * strategies' and --emit's parsing, the engines' rounding, and the emitters' escapes on
 * hostile names (what each writes, byte for byte). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/write/sizing_out.h"
#include "tap.h"

static char *out(void (*put)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	put(f, s);
	fclose(f);
	return buf;
}

static void groovy(FILE *f, const char *s)
{
	rp_groovy_regex(f, s);
}

static void check_out(void (*put)(FILE *, const char *), const char *s, const char *want,
		      const char *what)
{
	char *got = out(put, s);

	is_str(got, want, "%s", what);
	free(got);
}

int main(void)
{
	struct rp_strat st;
	struct rp_sizing_opts o;
	char why[160];
	double m;

	plan(21);
	ok(rp_strat_parse("quantile:0.95", &st, why, sizeof(why)) == 0 && st.s == RP_S_QUANTILE &&
	   st.q == 0.95, "quantile:0.95");
	ok(rp_strat_parse("quantile:1", &st, why, sizeof(why)) < 0, "quantile:1 refused");
	ok(rp_strat_parse("quantile:", &st, why, sizeof(why)) < 0, "quantile: refused");
	ok(rp_strat_parse("waste", &st, why, sizeof(why)) == 0 && st.s == RP_S_WASTE, "waste");
	ok(rp_strat_parse("min", &st, why, sizeof(why)) < 0, "min refused");
	ok(rp_margin_parse("20%", &m, why, sizeof(why)) == 0 && m == 0.2, "margin 20%%");
	ok(rp_margin_parse("-1", &m, why, sizeof(why)) < 0, "margin -1 refused");
	memset(&o, 0, sizeof(o));
	ok(rp_emit_parse("nextflow:a:b.config", &o, why, sizeof(why)) == 0 &&
	   o.emit[0].engine == RP_E_NEXTFLOW && strcmp(o.emit[0].path, "a:b.config") == 0,
	   "--emit=nextflow:a:b.config: the file name keeps its colon");
	ok(rp_emit_parse("cwl:x", &o, why, sizeof(why)) < 0, "--emit=cwl:x refused");
	is_int(rp_round_memory(1000.5), 1024, "memory: 64 MB steps to 1 GB");
	is_int(rp_round_memory(1025), 1280, "memory: 256 MB steps to 16 GB");
	is_int(rp_round_memory(20000), 20480, "memory: 1 GB steps above");
	is_int(rp_round_memory(0.3), 64, "memory: at least 64 MB");
	is_int(rp_round_time(61), 120, "time: whole minutes, up");
	is_int(rp_round_cores(1.02), 1, "cores: 1.02 is 1");
	is_int(rp_round_cores(1.2), 2, "cores: 1.2 is 2");
	check_out(groovy, "A:B_1", "'A:B_1'", "groovy: a process name as it is");
	check_out(groovy, "x' }\\.*", "'x\\'\\\\ \\\\}\\\\\\\\\\\\.\\\\*'",
		  "groovy: quote, blank, brace, backslash, dot, star escaped");
	check_out(rp_yaml_string, "a\"b\n", "\"a\\x22b\\x0a\"", "yaml: quote and newline as \\xNN");
	check_out(rp_python_bytes, "a\"\\\n", "b\"a\\x22\\x5c\\x0a\"", "python: quote, backslash, newline");
	check_out(rp_percent, "a b\n#", "a%20b%0A%23", "shell comment: blank, newline, #");
	return done();
}
