/* SPDX-License-Identifier: MIT */
/* test-report-readers.c: the parsers of other tools' records that `tpmon
 * report` reads (Nextflow traces, Snakemake benchmark files, sacct
 * --parsable2) on exact and hostile literal input: their value formats,
 * whole files with exact figures, and files built to break them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "report/read/foreign.h"
#include "report/files/infile.h"
#include "report/read/rsummary.h"
#include "report/read/nextflow.h"
#include "report/read/sacct.h"
#include "report/read/snakemake.h"
#include "report/read/table.h"
#include "basic/xmalloc.h"
#include "tap.h"

static double conv(int (*f)(const char *, double *), const char *s)
{
	double v = -12345;

	return f(s, &v) == 0 ? v : NAN;
}

static double size_per(const char *s, int *per)
{
	double v;

	return rp_sacct_size(s, &v, per) == 0 ? v : NAN;
}

static bool bad(double v)
{
	return isnan(v);
}

static void nextflow_values(void)
{
	is_double(conv(rp_nf_duration, "850ms"), 0.85, 1e-12, "nf: 850ms");
	is_double(conv(rp_nf_duration, "12.3s"), 12.3, 1e-12, "nf: 12.3s");
	is_double(conv(rp_nf_duration, "1m 3s"), 63, 1e-12, "nf: 1m 3s");
	is_double(conv(rp_nf_duration, "1d 2h 3m 4s"), 93784, 1e-9, "nf: 1d 2h 3m 4s");
	is_double(conv(rp_nf_duration, "63000"), 63, 1e-12, "nf: raw duration in ms");
	ok(bad(conv(rp_nf_duration, "-")), "nf: '-' is missing");
	ok(bad(conv(rp_nf_duration, "")), "nf: empty is missing");
	ok(bad(conv(rp_nf_duration, "5x")) && bad(conv(rp_nf_duration, "-5s")) &&
	   bad(conv(rp_nf_duration, "nan")) && bad(conv(rp_nf_duration, "inf")) &&
	   bad(conv(rp_nf_duration, "1e999s")) && bad(conv(rp_nf_duration, "1e999")) &&
	   bad(conv(rp_nf_duration, "1m 3")), "nf: hostile durations refused");
	is_double(conv(rp_nf_memory, "1.2 GB"), 1228.8, 1e-9, "nf: 1.2 GB is 1228.8 MB (units of 1024)");
	is_double(conv(rp_nf_memory, "512 KB"), 0.5, 1e-12, "nf: 512 KB");
	is_double(conv(rp_nf_memory, "12 B"), 12.0 / 1048576, 1e-15, "nf: 12 B");
	is_double(conv(rp_nf_memory, "0"), 0, 0, "nf: 0");
	is_double(conv(rp_nf_memory, "2147483648"), 2048, 1e-9, "nf: raw bytes");
	ok(bad(conv(rp_nf_memory, "12 XB")) && bad(conv(rp_nf_memory, "1 GB extra")) &&
	   bad(conv(rp_nf_memory, "-1 GB")) && bad(conv(rp_nf_memory, "GB")) &&
	   bad(conv(rp_nf_memory, "1e308 ZB")), "nf: hostile sizes refused");
	is_double(conv(rp_nf_percent, "35.0%"), 35, 0, "nf: 35.0%%");
	is_double(conv(rp_nf_percent, "391.5"), 391.5, 0, "nf: raw percentage");
	ok(bad(conv(rp_nf_percent, "%")) && bad(conv(rp_nf_percent, "-3%")) &&
	   bad(conv(rp_nf_percent, "NaN%")), "nf: hostile percentages refused");
	is_double(conv(rp_nf_date, "2024-03-01 10:00:00.250"), 1709287200.25, 1e-6,
		  "nf: a date with milliseconds (TZ=UTC)");
	is_double(conv(rp_nf_date, "1709287200250"), 1709287200.25, 1e-6, "nf: raw epoch ms");
	ok(bad(conv(rp_nf_date, "2024-13-01 10:00:00")) && bad(conv(rp_nf_date, "12")) &&
	   bad(conv(rp_nf_date, "2024-03-01 10:00:00 junk")), "nf: hostile dates refused");
}

static void sacct_values(void)
{
	int per = -1;

	is_double(conv(rp_sacct_time, "00:10:00"), 600, 0, "sacct: HH:MM:SS");
	is_double(conv(rp_sacct_time, "01:00"), 60, 0, "sacct: MM:SS");
	is_double(conv(rp_sacct_time, "1-00:00:10"), 86410, 0, "sacct: D-HH:MM:SS");
	is_double(conv(rp_sacct_time, "34:59.488"), 2099.488, 1e-9, "sacct: TotalCPU MM:SS.mmm");
	ok(bad(conv(rp_sacct_time, "99:99")) && bad(conv(rp_sacct_time, "1-10:00")) &&
	   bad(conv(rp_sacct_time, "INVALID")) && bad(conv(rp_sacct_time, "10")) &&
	   bad(conv(rp_sacct_time, "1:2:3:4")) && bad(conv(rp_sacct_time, "-1:00")) &&
	   bad(conv(rp_sacct_time, "99999999999999999999-00:00:00")),
	   "sacct: hostile times refused");
	is_double(size_per("10452K", &per), 10452.0 / 1024, 1e-12, "sacct: 10452K");
	is_double(size_per("3.50G", &per), 3584, 1e-9, "sacct: 3.50G");
	is_double(size_per("0", &per), 0, 0, "sacct: 0");
	is_double(size_per("4000Mc", &per), 4000, 0, "sacct: 4000Mc");
	is_int(per, 'c', "sacct: ...per CPU");
	is_double(size_per("4000Mn", &per), 4000, 0, "sacct: 4000Mn");
	is_int(per, 'n', "sacct: ...per node");
	ok(bad(size_per("4000Mx", &per)) && bad(size_per("K", &per)) &&
	   bad(size_per("-1K", &per)) && bad(size_per("1e999G", &per)),
	   "sacct: hostile sizes refused");
	is_double(conv(rp_sacct_date, "2024-03-01T10:00:00"), 1709287200, 0, "sacct: a date (TZ=UTC)");
	ok(bad(conv(rp_sacct_date, "Unknown")) && bad(conv(rp_sacct_date, "None")) &&
	   bad(conv(rp_sacct_date, "2024-03-01")), "sacct: no date");
}

static void snakemake_values(void)
{
	char *r;

	is_double(conv(rp_smk_hms, "0:00:12"), 12, 0, "smk: h:m:s");
	is_double(conv(rp_smk_hms, "1 day, 1:01:01"), 90061, 0, "smk: 1 day, h:m:s");
	is_double(conv(rp_smk_hms, "2 days, 0:00:00"), 172800, 0, "smk: 2 days");
	ok(bad(conv(rp_smk_hms, "1:60:00")) && bad(conv(rp_smk_hms, "NA")) &&
	   bad(conv(rp_smk_hms, "1:00")), "smk: hostile h:m:s refused");
	r = rp_snakemake_rule("run/benchmarks/bwa_map/A.tsv");
	is_str(r, "bwa_map", "smk: rule from benchmarks/RULE/SAMPLE.tsv");
	free(r);
	r = rp_snakemake_rule("benchmarks/sort.A.benchmark.txt");
	is_str(r, "sort", "smk: rule from benchmarks/RULE.x.txt");
	free(r);
	r = rp_snakemake_rule("x.tsv");
	is_str(r, "x", "smk: a file alone");
	free(r);
	r = rp_snakemake_rule("../.tsv");
	is_str(r, "default", "smk: no name at all");
	free(r);
}

/* Parse @text as a file named @path into a fresh store; its format. */
static enum rp_format parse(struct rp_store *st, const char *path, const char *text,
			    struct rp_foreign_counts *c)
{
	rp_store_init(st);
	return rp_foreign_parse_text(st, path, text, strlen(text), c);
}

static void nextflow_file(void)
{
	struct rp_store st;
	struct rp_foreign_counts c;
	const char *text =
		"task_id\tname\tstatus\texit\trealtime\t%cpu\tpeak_rss\tcomplete\n"
		"1\tALIGN (s1)\tCOMPLETED\t0\t1m 1s\t389.6%\t3.5 GB\t2024-03-01 10:01:15.400\n"
		"2\tALIGN (s2)\tFAILED\t137\t2m 2s\t-\t-\t-\n"
		"3\tSORT (s1)\tCACHED\t0\t5s\t99.0%\t38 MB\t-\n"
		"4\tMULTIQC\tCOMPLETED\t0\t8.1s\t85.0%\t356.2 MB\t-\n"
		"5\tCALL (s1 (chr1))\tCOMPLETED\t0\t1s\t85.0%\t1 MB\t-\n"
		"\n"
		"only\ttwo\n"
		"not a row\n";

	is_int(parse(&st, "t.txt", text, &c), RP_F_NEXTFLOW, "nf file: detected");
	is_int(c.tasks, 4, "nf file: 4 tasks (CACHED left out)");
	is_int(c.unended, 1, "nf file: 1 cached");
	is_int(c.bad, 2, "nf file: a line without tabs and one without status nor figures are no rows");
	is_str(st.tasks[0].category, "ALIGN", "nf file: process from the name without its tag");
	is_str(st.tasks[2].category, "MULTIQC", "nf file: a name without tag");
	is_str(st.tasks[3].category, "CALL", "nf file: a tag with parentheses in it");
	is_double(st.tasks[0].v[RP_MEMORY], 3584, 1e-9, "nf file: peak_rss 3.5 GB");
	is_double(st.tasks[0].v[RP_CORES], 3.896, 1e-12, "nf file: cores %%cpu/100");
	is_double(st.tasks[0].v[RP_CPU_TIME], 3.896 * 61, 1e-9, "nf file: cpu_time %%cpu x realtime");
	is_double(st.tasks[0].ended, 1709287275.4, 1e-6, "nf file: end from complete");
	is_double(st.tasks[0].started, 1709287214.4, 1e-6, "nf file: start = complete - realtime");
	is_int(st.tasks[1].end, RP_FAILED, "nf file: FAILED is failed");
	is_int(st.tasks[1].exit_status, 137, "nf file: its exit status");
	ok(isnan(st.tasks[1].v[RP_MEMORY]), "nf file: '-' is unknown, not 0");
	ok(isnan(st.tasks[2].started), "nf file: no times, no start");
	rp_store_free(&st);
}

/* --benchmark-extended's input_size_mb: a number, or Snakemake 8's dict
 * of each input file's MB, summed (issue 45). */
static void snakemake_inputs(void)
{
	is_double(rp_smk_input_mb("12.5"), 12.5, 0, "smk input: a number");
	is_double(rp_smk_input_mb("{'a.bam': 1.5, \"b c\": 2.5}"), 4, 0,
		  "smk input: a dict's sizes summed");
	is_double(rp_smk_input_mb("{'it\\'s: {x}': 2}"), 2, 0,
		  "smk input: a key with a quote, a colon and braces");
	is_double(rp_smk_input_mb("{}"), 0, 0, "smk input: no input file, 0");
	ok(isnan(rp_smk_input_mb("{'a': -1}")) && isnan(rp_smk_input_mb("{'a': 1")) &&
	   isnan(rp_smk_input_mb("{'a': 1} x")) && isnan(rp_smk_input_mb("NA")) &&
	   isnan(rp_smk_input_mb("{'a': nan}")) && isnan(rp_smk_input_mb("{a: 1}")) &&
	   isnan(rp_smk_input_mb(NULL)) && isnan(rp_smk_input_mb("-3")),
	   "smk input: negative, cut short, trailing text, NA, nan, bare key, none: unknown");
}

static void snakemake_files(void)
{
	struct rp_store st;
	struct rp_foreign_counts c;
	const char *tsv =
		"s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
		"12.3456\t0:00:12\t250.50\t800.10\t240.00\t245.25\t10.00\t5.50\t190.00\t23.10\n"
		"0.3100\t0:00:00\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\n"
		"NA\t-\t1\t1\t1\t1\t1\t1\t1\t1\n"
		"0.0196\t0:00:00\t0\t0\t0\t0\t0.00\t0.00\t0.00\t0\n";
	const char *jsonl =
		"{\"cpu_time\": 4.05, \"h:m:s\": \"0:00:04\", \"io_in\": 2.0, \"io_out\": 1.0, "
		"\"max_pss\": 115.5, \"max_rss\": 120.25, \"rule_name\": [\"call\"], \"s\": 4.5, "
		"\"threads\": [2]}\n"
		"{\"s\": 1e999, \"h:m:s\": \"0:00:01\", \"max_rss\": -5}\n"
		"[1, 2]\n";

	is_int(parse(&st, "benchmarks/bwa/A.tsv", tsv, &c), RP_F_SNAKEMAKE, "smk tsv: detected");
	is_int(c.tasks, 3, "smk tsv: 3 runs");
	is_int(c.bad, 1, "smk tsv: a run without its time is refused");
	is_str(st.tasks[0].category, "bwa", "smk tsv: rule from the path");
	is_double(st.tasks[0].v[RP_MEMORY], 250.5, 0, "smk tsv: max_rss in MB");
	is_double(st.tasks[0].v[RP_MEMORY_PSS], 245.25, 0, "smk tsv: max_pss in MB");
	is_double(st.tasks[0].v[RP_CORES], 23.1 / 12.3456, 1e-12, "smk tsv: cores cpu_time / s");
	ok(isnan(st.tasks[1].v[RP_MEMORY]) && isnan(st.tasks[1].v[RP_CPU_TIME]) &&
	   st.tasks[1].v[RP_WALL_TIME] == 0.31, "smk tsv: NA is unknown, s is kept");
	ok(isnan(st.tasks[2].v[RP_MEMORY]) && isnan(st.tasks[2].v[RP_CPU_TIME]) &&
	   isnan(st.tasks[2].v[RP_BYTES_READ]) && isnan(st.tasks[2].v[RP_CORES]) &&
	   st.tasks[2].v[RP_WALL_TIME] == 0.0196,
	   "smk tsv: Snakemake 7's zeros of a job no sample saw are unknown, s is kept");
	rp_store_free(&st);
	is_int(parse(&st, "x/y.jsonl", jsonl, &c), RP_F_SNAKEMAKE_JSONL, "smk jsonl: detected");
	is_int(c.tasks, 1, "smk jsonl: one good record");
	is_int(c.bad, 2, "smk jsonl: an infinite time and an array refused");
	is_str(st.tasks[0].category, "call", "smk jsonl: rule_name (a one-element list)");
	ok(isnan(st.tasks[0].given[RP_G_CORES]), "smk jsonl: threads as a list is not read");
	rp_store_free(&st);
}

static void sacct_file(void)
{
	struct rp_store st;
	struct rp_foreign_counts c;
	const char *text =
		"JobID|JobName|State|Elapsed|TotalCPU|MaxRSS|ReqMem|AllocCPUS|NodeList|Start|End|ExitCode\n"
		"9.batch|batch|COMPLETED|01:00|00:10|1G||1|n1|||0:0\n"
		"101|align|COMPLETED|00:10:00|00:35:00||4000M|4|node01|2024-03-01T10:00:00|2024-03-01T10:10:00|0:0\n"
		"101.batch|batch|COMPLETED|00:10:00|00:00.512|10452K||4|node01|||0:0\n"
		"101.0|bwa|COMPLETED|00:09:58|34:59.488|3.50G||4|node01|||0:0\n"
		"102_2|sort|OUT_OF_MEMORY|00:30|00:28.000||2000Mc|2|node02|||0:125\n"
		"102_2.batch|batch|OUT_OF_MEMORY|00:30|00:28.000|2097152K||2|node02|||0:125\n"
		"105|align|RUNNING|00:05:00|00:00:00||4000M|4|node01|||0:0\n"
		"105.batch|batch|RUNNING|00:05:00|00:00:00|9G||4|node01|||0:0\n"
		"------------|---------|\n"
		"JobID|JobName|State\n";

	is_int(parse(&st, "s.psv", text, &c), RP_F_SACCT, "sacct: detected");
	is_int(c.tasks, 2, "sacct: two ended jobs");
	is_int(c.unended, 1, "sacct: the running job left out");
	is_int(c.bad, 2, "sacct: a separator and a repeated header are no records");
	is_double(st.tasks[0].v[RP_MEMORY], 3584, 1e-9, "sacct: memory the largest step MaxRSS");
	is_double(st.tasks[0].v[RP_CPU_TIME], 2100, 0, "sacct: TotalCPU of the job line");
	is_double(st.tasks[0].v[RP_CORES], 3.5, 1e-12, "sacct: cores TotalCPU / Elapsed");
	is_double(st.tasks[0].given[RP_G_MEMORY], 4000, 0, "sacct: ReqMem");
	is_double(st.tasks[0].ended - st.tasks[0].started, 600, 0, "sacct: start and end");
	is_str(st.tasks[0].host, "node01", "sacct: NodeList is the host");
	is_int(st.tasks[1].end, RP_EXHAUSTED, "sacct: OUT_OF_MEMORY stopped at a limit");
	is_double(st.tasks[1].given[RP_G_MEMORY], 4000, 0, "sacct: 2000Mc x 2 CPUs");
	is_str(st.tasks[1].category, "sort", "sacct: an array task's JobName");
	rp_store_free(&st);
}

static void hostile_files(void)
{
	static const char nul[] = "name\trealtime\nA\0B\t1s\nC\t2s\n";
	struct rp_store st;
	struct rp_foreign_counts c;
	size_t big = RP_TABLE_MAX_LINE + 10, i;
	char *text = malloc(big + 200), *p;

	/* a header of too many columns is no header */
	p = text;
	for (i = 0; i < RP_TABLE_MAX_COLS + 5; i++)
		p += sprintf(p, "%s\t", i == 0 ? "name" : "realtime");
	strcpy(p, "\n");
	is_int(parse(&st, "h", text, &c), RP_F_NONE, "a header of 261 columns is refused");
	rp_store_free(&st);
	/* a row too long is skipped and counted */
	p = text + sprintf(text, "name\trealtime\nA\t1s\nB\t");
	memset(p, '1', big);
	strcpy(p + big, "s\nC\t2s\n");
	is_int(parse(&st, "h", text, &c), RP_F_NEXTFLOW, "long row: still a trace");
	is_int(c.tasks, 2, "long row: the two others read");
	is_int(c.too_long, 1, "long row: counted");
	rp_store_free(&st);
	/* a row with more fields than columns, one with 300 tabs */
	p = text + sprintf(text, "name\trealtime\nA\t1s\textra\n");
	for (i = 0; i < 300; i++)
		*p++ = '\t';
	strcpy(p, "\n");
	is_int(parse(&st, "h", text, &c), RP_F_NEXTFLOW, "tabs: a trace");
	is_int(c.tasks, 1, "tabs: a row with an extra field read, a row of tabs is no task");
	rp_store_free(&st);
	/* sacct: a step with no job, an id of 60 KB, control characters */
	p = text + sprintf(text, "JobID|JobName|State\n1.0|x|COMPLETED\n");
	memset(p, '7', 60000);
	strcpy(p + 60000, "|\x1b[31mred\x07|COMPLETED\n");
	is_int(parse(&st, "s", text, &c), RP_F_SACCT, "sacct hostile: detected");
	is_int(c.tasks, 1, "sacct hostile: the long id is one job");
	is_str(st.tasks[0].category, "\x1b[31mred\x07", "sacct hostile: the name is kept as data");
	rp_store_free(&st);
	free(text);
	/* a byte order mark before the header */
	is_int(parse(&st, "bom", "\xef\xbb\xbfJobID|JobName|State\n7|x|COMPLETED\n", &c), RP_F_SACCT,
	       "BOM: sacct output still recognised");
	is_int(c.tasks, 1, "BOM: its job read");
	rp_store_free(&st);
	is_int(parse(&st, "bom.jsonl", "\xef\xbb\xbf{\"s\": 1, \"h:m:s\": \"0:00:01\"}\n", &c),
	       RP_F_SNAKEMAKE_JSONL, "BOM: JSON Lines recognised");
	is_int(c.tasks, 1, "BOM: the first record read");
	rp_store_free(&st);
	/* nothing, a lone header, NUL bytes */
	is_int(parse(&st, "e", "", &c), RP_F_NONE, "empty: none");
	is_int(parse(&st, "e", "s\th:m:s\tmax_rss\n", &c), RP_F_SNAKEMAKE, "lone header: a benchmark file");
	is_int(c.tasks, 0, "lone header: no task");
	rp_store_free(&st);
	rp_store_init(&st);
	is_int(rp_foreign_parse_text(&st, "n", nul, sizeof(nul) - 1, &c),
	       RP_F_NEXTFLOW, "NUL: a trace");
	is_int(c.tasks, 1, "NUL: the line cut at the NUL has no realtime, the next is read");
	rp_store_free(&st);
}

/* rp_foreign_read() stops once the store holds as many tasks as it may. */
static void bounded_read(void)
{
	static char text[] = "name\trealtime\nA\t1s\nB\t2s\nC\t3s\nD\t4s\n";
	char first[] = "name\trealtime";
	struct rp_foreign_counts c;
	struct rp_store st;
	FILE *f = fmemopen(text, strlen(text), "r");
	char *skip = NULL;
	size_t cap = 0;

	rp_store_init(&st);
	if (getline(&skip, &cap, f) < 0)
		diag("no header line");
	rp_foreign_read(&st, f, "b", RP_F_NEXTFLOW, first, 2, &c);
	is_int((long long)st.n, 2, "read: at most max_tasks tasks");
	is_int(c.tasks, 2, "read: and counted so");
	rp_store_free(&st);
	free(skip);
	fclose(f);
}

/* infile.c: a file of exactly the bound is read whole, one byte more is
 * refused before reading; a FIFO and a directory are refused without a
 * wait; rp_summary_parse() takes a summary and refuses JSON that is none,
 * or a bad measure. */
static void infile_bounds(void)
{
	char dir[] = "/tmp/test-infile-XXXXXX", why[256], *path, *buf;
	size_t len = 99;
	FILE *f;
	json_t *root;
	const char *good = "{\"memory\": [5, \"MB\"]}", *none = "{\"x\": 1}";
	const char *neg = "{\"memory\": [-5, \"MB\"]}";

	if (!mkdtemp(dir)) {
		ok(false, "infile: a temporary directory");
		return;
	}
	path = xasprintf("%s/f", dir);
	f = fopen(path, "w");
	fputs("0123456789", f);
	fclose(f);
	buf = rp_infile_slurp(path, 10, "a thing", &len, why, sizeof(why));
	ok(buf && len == 10 && strcmp(buf, "0123456789") == 0, "infile: 10 bytes under a bound of 10, whole");
	free(buf);
	buf = rp_infile_slurp(path, 9, "a thing", &len, why, sizeof(why));
	ok(!buf, "infile: 10 bytes over a bound of 9, refused");
	is_str(why, "10 bytes, more than a thing can be (0 MB)", "infile: ... with its size in the reason");
	buf = rp_infile_slurp(dir, 10, "a thing", &len, why, sizeof(why));
	ok(!buf, "infile: a directory refused");
	is_str(why, "a directory, not a file", "infile: ... so named");
	unlink(path);
	if (mkfifo(path, 0600) == 0) {
		/* no writer: an open without O_NONBLOCK would block here */
		f = rp_infile_stream(path, why, sizeof(why));
		ok(!f, "infile: a FIFO refused without a wait");
		is_str(why, "a FIFO, not a file", "infile: ... so named");
		if (f)
			fclose(f);
		unlink(path);
	} else {
		ok(false, "infile: mkfifo");
		ok(false, "infile: mkfifo");
	}
	rmdir(dir);
	free(path);

	root = rp_summary_parse(good, strlen(good), why, sizeof(why));
	ok(root != NULL, "summary_parse: a summary taken");
	json_decref(root);
	root = rp_summary_parse(none, strlen(none), why, sizeof(why));
	ok(!root && strcmp(why, "not a resource summary") == 0, "summary_parse: JSON that is no summary refused");
	json_decref(root);
	root = rp_summary_parse(neg, strlen(neg), why, sizeof(why));
	ok(!root, "summary_parse: a negative measure refused");
	like(why, "must not be negative", "summary_parse: ... so named");
	json_decref(root);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	plan(122);
	nextflow_values();
	sacct_values();
	snakemake_values();
	snakemake_inputs();
	nextflow_file();
	snakemake_files();
	sacct_file();
	hostile_files();
	bounded_read();
	infile_bounds();
	return 0;
}
