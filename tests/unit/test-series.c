/* SPDX-License-Identifier: MIT */
/* test-series.c: TEMPLATE.series with the table's kernel columns
 * (series.c): without a cgroup the 19 columns as before; with one, the
 * PSI totals after memory_pss, each the figure the summary gives (a
 * number where the kernel gave one, nan where it did not, never 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/series.h"
#include "tap.h"

/* The last line of @path and its column line, into @last and @head. */
static void read_back(const char *path, char *head, char *last, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[4096];

	head[0] = last[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "#wall_clock", 11))
			snprintf(head, size, "%s", line);
		else if (line[0] != '#')
			snprintf(last, size, "%s", line);
	}
	fclose(f);
}

/* The words of @line from the @n-th (1-based) on. */
static const char *from_word(const char *line, int n)
{
	while (--n > 0 && *line) {
		line += strcspn(line, " ");
		line += strspn(line, " ");
	}
	return line;
}

static void one(const char *dir, bool kernel, struct tp_summary *rep, char *head, char *last)
{
	char template[600], path[700];
	struct tp_figures fig;
	struct tp_sample s;
	struct tp_series *se;

	snprintf(template, sizeof(template), "%s/run%d", dir, kernel);
	snprintf(path, sizeof(path), "%s.series", template);
	memset(&fig, 0, sizeof(fig));
	memset(&s, 0, sizeof(s));
	fig.rep = rep;
	se = series_open(template, false, false, kernel);
	series_add(se, &s, &fig);
	series_close(se);
	read_back(path, head, last, 4096);
	unlink(path);
}

int main(void)
{
	char dir[] = "/tmp/tp-series-unit-XXXXXX", head[4096], last[4096];
	struct tp_summary rep;
	char cg[] = "/tpmon-1-a/task";

	plan(5);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	memset(&rep, 0, sizeof(rep));
	one(dir, false, &rep, head, last);
	ok(strstr(head, " memory_pss") && !strstr(head, "pressure") &&
	   !strcmp(from_word(head, 19), "memory_pss"), "no cgroup: the 19 columns, memory_pss last");
	rep.cgroup = cg;
	rep.cgf.psi[TP_PSI_CPU_SOME] = 1208035;
	rep.cgf.psi[TP_PSI_CPU_FULL] = 0;
	rep.cgf.psi[TP_PSI_IO_SOME] = 300;
	rep.cgf.psi_known = 1u << TP_PSI_CPU_SOME | 1u << TP_PSI_CPU_FULL | 1u << TP_PSI_IO_SOME;
	one(dir, true, &rep, head, last);
	is_str(from_word(head, 20), "cpu_pressure_some cpu_pressure_full memory_pressure_some "
	       "memory_pressure_full io_pressure_some io_pressure_full",
	       "a cgroup: the six pressure columns after memory_pss");
	is_str(from_word(last, 20), "1208035 0 nan nan 300 nan",
	       "their values: the totals read, 0 where the kernel said 0, nan where no file");
	rep.cgf.psi[TP_PSI_CPU_SOME] = 7;
	one(dir, true, &rep, head, last);
	ok(!strncmp(from_word(last, 20), "7 ", 2), "the value of this line, not of an earlier one");
	rep.cgroup = NULL;
	one(dir, true, &rep, head, last);
	is_str(from_word(last, 20), "nan nan nan nan nan nan", "the cgroup gone: nan, not 0");
	rmdir(dir);
	return done();
}
