/* SPDX-License-Identifier: MIT */
/* test-units.c: unit tests of units.c (numbers with units) and of the
 * resource table in resources.c. */
#include <math.h>
#include <string.h>

#include "basic/figtable.h"
#include "basic/units.h"
#include "tap.h"

struct good_case {
	enum tp_unit_kind kind;
	const char *text;
	double want;
};

struct bad_case {
	enum tp_unit_kind kind;
	const char *text;
	const char *why;	/* expected part of the reason */
};

static const char *kind_name(enum tp_unit_kind kind)
{
	static const char *const names[] = { "time", "size", "cores", "count" };

	return names[kind];
}

static const struct good_case good[] = {
	/* sizes: MB, binary steps whatever the spelling */
	{ TP_UNIT_SIZE, "2048", 2048 },
	{ TP_UNIT_SIZE, "2G", 2048 },
	{ TP_UNIT_SIZE, "2g", 2048 },
	{ TP_UNIT_SIZE, "2GB", 2048 },
	{ TP_UNIT_SIZE, "2gib", 2048 },
	{ TP_UNIT_SIZE, "2 GiB", 2048 },
	{ TP_UNIT_SIZE, "\t2\tG\n", 2048 },
	{ TP_UNIT_SIZE, "512MiB", 512 },
	{ TP_UNIT_SIZE, "512M", 512 },
	{ TP_UNIT_SIZE, "512mb", 512 },
	{ TP_UNIT_SIZE, "1024K", 1 },
	{ TP_UNIT_SIZE, "1kb", 1.0 / 1024 },
	{ TP_UNIT_SIZE, "1KiB", 1.0 / 1024 },
	{ TP_UNIT_SIZE, "1.5T", 1.5 * 1048576 },
	{ TP_UNIT_SIZE, "1TB", 1048576 },
	{ TP_UNIT_SIZE, "1 tib", 1048576 },
	{ TP_UNIT_SIZE, "  7  ", 7 },
	{ TP_UNIT_SIZE, "0", 0 },
	{ TP_UNIT_SIZE, "0.5", 0.5 },
	{ TP_UNIT_SIZE, ".5", 0.5 },
	{ TP_UNIT_SIZE, "5.", 5 },
	{ TP_UNIT_SIZE, "+3", 3 },
	{ TP_UNIT_SIZE, "1e3", 1000 },
	{ TP_UNIT_SIZE, "1E3M", 1000 },
	{ TP_UNIT_SIZE, "2.5e-1G", 256 },
	{ TP_UNIT_SIZE, "1e15", 1e15 },
	/* times: seconds */
	{ TP_UNIT_TIME, "90", 90 },
	{ TP_UNIT_TIME, "90s", 90 },
	{ TP_UNIT_TIME, "90 S", 90 },
	{ TP_UNIT_TIME, "250ms", 0.25 },
	{ TP_UNIT_TIME, "250 MS", 0.25 },
	{ TP_UNIT_TIME, "2m", 120 },
	{ TP_UNIT_TIME, "2min", 120 },
	{ TP_UNIT_TIME, "1.5h", 5400 },
	{ TP_UNIT_TIME, "1d", 86400 },
	{ TP_UNIT_TIME, "0.001", 0.001 },
	/* cores and counts: no unit */
	{ TP_UNIT_CORES, "2", 2 },
	{ TP_UNIT_CORES, "1.5", 1.5 },
	{ TP_UNIT_COUNT, "100", 100 },
	{ TP_UNIT_COUNT, "1e3", 1000 },
	{ TP_UNIT_COUNT, "5.0", 5 },
	{ TP_UNIT_COUNT, "0", 0 },
};

static const struct bad_case bad[] = {
	{ TP_UNIT_SIZE, "", "empty" },
	{ TP_UNIT_SIZE, "   ", "empty" },
	{ TP_UNIT_SIZE, "\t\v\r", "empty" },
	{ TP_UNIT_SIZE, "12Q", "unknown unit \"Q\"" },
	{ TP_UNIT_SIZE, "5s", "unit \"s\" does not fit a size" },
	{ TP_UNIT_SIZE, "5ms", "unit \"ms\" does not fit a size" },
	{ TP_UNIT_SIZE, "5 B", "unknown unit \"B\"" },
	{ TP_UNIT_SIZE, "5 GGB", "unknown unit \"GGB\"" },
	{ TP_UNIT_SIZE, "-1", "must not be negative" },
	{ TP_UNIT_SIZE, "-0", "must not be negative" },
	{ TP_UNIT_SIZE, "-1G", "must not be negative" },
	{ TP_UNIT_SIZE, "1\nG", "not a number" },
	{ TP_UNIT_SIZE, "1e400", "out of range" },
	{ TP_UNIT_SIZE, "1e-400", "out of range" },
	{ TP_UNIT_SIZE, "1e99999999999999999999", "out of range" },
	{ TP_UNIT_SIZE, "2e15", "too large" },
	{ TP_UNIT_SIZE, "1e12T", "too large" },
	{ TP_UNIT_SIZE, "nan", "not a number" },
	{ TP_UNIT_SIZE, "NaN", "not a number" },
	{ TP_UNIT_SIZE, "inf", "not a number" },
	{ TP_UNIT_SIZE, "-inf", "not a number" },
	{ TP_UNIT_SIZE, "infinity", "not a number" },
	{ TP_UNIT_SIZE, "0x10", "not a number" },
	{ TP_UNIT_SIZE, "0x1p3", "not a number" },
	{ TP_UNIT_SIZE, "5 5", "not a number" },
	{ TP_UNIT_SIZE, "5G 5", "not a number" },
	{ TP_UNIT_SIZE, "5G,", "not a number" },
	{ TP_UNIT_SIZE, "1,5", "not a number" },
	{ TP_UNIT_SIZE, "G", "not a number" },
	{ TP_UNIT_SIZE, ".", "not a number" },
	{ TP_UNIT_SIZE, "+", "not a number" },
	{ TP_UNIT_SIZE, "--1", "not a number" },
	{ TP_UNIT_SIZE, "1..2", "not a number" },
	{ TP_UNIT_SIZE, "1e", "unknown unit \"e\"" },
	{ TP_UNIT_SIZE, "abcdefghijklmnopqrstuvwxyz",  "not a number" },
	{ TP_UNIT_SIZE, "1abcdefghijklmnopqrstuvwxyz", "unknown unit \"abcdefghijklmnop...\"" },
	{ TP_UNIT_TIME, "2G", "unit \"G\" does not fit a time" },
	{ TP_UNIT_TIME, "2MB", "unit \"MB\" does not fit a time" },
	{ TP_UNIT_TIME, "2 hours", "unknown unit \"hours\"" },
	{ TP_UNIT_TIME, "-5s", "must not be negative" },
	{ TP_UNIT_CORES, "2G", "cores takes no unit, got \"G\"" },
	{ TP_UNIT_CORES, "2s", "cores takes no unit" },
	{ TP_UNIT_CORES, "2cores", "cores takes no unit" },
	{ TP_UNIT_COUNT, "5.5", "must be a whole number" },
	{ TP_UNIT_COUNT, "1e-1", "too small" },
	{ TP_UNIT_COUNT, "5K", "a count takes no unit, got \"K\"" },
	{ TP_UNIT_COUNT, "-3", "must not be negative" },
};

static void test_good(void)
{
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const struct good_case *c = &good[i];
		char why[128] = "";
		double v = -1;
		int rc = units_parse(c->kind, c->text, &v, why, sizeof(why));

		if (!ok(rc == 0, "%s \"%s\" accepted", kind_name(c->kind), c->text))
			diag("why: %s", why);
		is_double(v, c->want, fabs(c->want) * 1e-12,
			  "%s \"%s\" is %g", kind_name(c->kind), c->text, c->want);
	}
}

static void test_bad(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct bad_case *c = &bad[i];
		char why[128] = "";
		double v = 42;
		int rc = units_parse(c->kind, c->text, &v, why, sizeof(why));

		ok(rc < 0 && v == 42, "%s \"%s\" rejected, output untouched",
		   kind_name(c->kind), c->text);
		like(why, c->why, "%s \"%s\": reason says %s",
		     kind_name(c->kind), c->text, c->why);
	}
}

static void test_convert(void)
{
	char why[128] = "";
	double v = -1;

	ok(units_convert(TP_UNIT_SIZE, 1, "GB", &v, why, sizeof(why)) == 0 &&
	   v == 1024, "convert [1, \"GB\"] = 1024 MB");
	ok(units_convert(TP_UNIT_SIZE, 3, NULL, &v, why, sizeof(why)) == 0 &&
	   v == 3, "convert with NULL unit keeps the value");
	ok(units_convert(TP_UNIT_TIME, 3, "", &v, why, sizeof(why)) == 0 &&
	   v == 3, "convert with \"\" unit keeps the value");
	ok(units_convert(TP_UNIT_TIME, 1.5, "h", &v, why, sizeof(why)) == 0 &&
	   v == 5400, "convert [1.5, \"h\"] = 5400 s");
	ok(units_convert(TP_UNIT_SIZE, NAN, NULL, &v, why, sizeof(why)) == -1,
	   "convert NaN rejected");
	like(why, "finite", "NaN reason says finite");
	ok(units_convert(TP_UNIT_SIZE, INFINITY, "G", &v, why, sizeof(why)) == -1,
	   "convert inf rejected");
	ok(units_convert(TP_UNIT_SIZE, -0.0, NULL, &v, why, sizeof(why)) == -1,
	   "convert -0.0 rejected");
	like(why, "negative", "-0.0 reason says negative");
	ok(units_convert(TP_UNIT_SIZE, 1e300, "T", &v, why, sizeof(why)) == UNITS_TOO_LARGE,
	   "convert 1e300 T rejected");
	like(why, "too large", "1e300 T reason says too large");
	ok(units_convert(TP_UNIT_SIZE, 5e-324, "K", &v, why, sizeof(why)) == UNITS_TOO_SMALL,
	   "convert 5e-324 K, 0 as a double, is too small, not 0");
	ok(units_convert(TP_UNIT_COUNT, 0.5, NULL, &v, why, sizeof(why)) == UNITS_TOO_SMALL,
	   "a count of 0.5 is too small");
	ok(units_parse(TP_UNIT_SIZE, "1e400", &v, why, sizeof(why)) == UNITS_TOO_LARGE,
	   "1e400, past a double, is too large");
	ok(units_parse(TP_UNIT_SIZE, "1e-400", &v, why, sizeof(why)) == UNITS_TOO_SMALL,
	   "1e-400, below a double, is too small");
	ok(units_parse(TP_UNIT_SIZE, "-1e-400", &v, why, sizeof(why)) == UNITS_BAD,
	   "-1e-400 is bad, neither");
	ok(units_convert(TP_UNIT_SIZE, 1, "G\n\x01", &v, why, sizeof(why)) == -1,
	   "convert with a control character in the unit rejected");
	ok(strchr(why, '\n') == NULL && strchr(why, '\x01') == NULL,
	   "reason stays one printable line: %s", why);
	ok(units_convert(TP_UNIT_COUNT, 2, "procs", &v, why, sizeof(why)) == -1,
	   "a count refuses a unit in units_convert");
	ok(units_parse(TP_UNIT_SIZE, "1", &v, NULL, 0) == 0 &&
	   units_parse(TP_UNIT_SIZE, "x", &v, NULL, 0) == -1,
	   "a NULL reason buffer is allowed");
	ok(units_parse(TP_UNIT_SIZE, "12Q", &v, why, 4) == -1 &&
	   strlen(why) == 3, "a short reason buffer is truncated, not overrun");
}

static void test_seconds(void)
{
	char why[128] = "";
	double v = -1;

	ok(units_parse_seconds("1.5", &v, why, sizeof(why)) == 0 && v == 1.5,
	   "seconds \"1.5\"");
	ok(units_parse_seconds("250ms", &v, why, sizeof(why)) == 0 && v == 0.25,
	   "seconds \"250ms\"");
	ok(units_parse_seconds("2m", &v, why, sizeof(why)) == 0 && v == 120,
	   "seconds \"2m\"");
	ok(units_parse_seconds("2G", &v, why, sizeof(why)) == -1,
	   "seconds \"2G\" rejected");
	ok(units_parse_seconds("", &v, why, sizeof(why)) == -1,
	   "seconds \"\" rejected");
}

static void test_resources(void)
{
	int r;

	is_int(res_by_name("memory"), TP_RES_MEMORY, "res_by_name memory");
	is_int(res_by_name("wall_time"), TP_RES_WALL_TIME, "res_by_name wall_time");
	is_int(res_by_name("total_processes"), TP_RES_TOTAL_PROCESSES,
	       "res_by_name total_processes");
	is_int(res_by_name("Memory"), -1, "names are case-sensitive");
	is_int(res_by_name(""), -1, "empty name unknown");
	is_int(res_by_name("machine_load"), -1, "machine_load is not limitable");
	is_int(res_by_name("bandwidth"), TP_RES_BANDWIDTH, "bandwidth is limitable");
	is_int(res_by_name("gpus"), TP_RES_GPUS, "gpus is limitable");
	for (r = 0; r < TP_RES__COUNT; r++)
		is_int(res_by_name(res_info(r)->name), r, "%s round-trips",
		       res_info(r)->name);
	is_str(res_info(TP_RES_MEMORY)->unit, "MB", "memory unit MB");
	is_str(res_info(TP_RES_CPU_TIME)->unit, "s", "cpu_time unit s");
	is_str(res_info(TP_RES_TOTAL_FILES)->unit, "files", "total_files unit files");
	is_str(res_info(TP_RES_MAX_CONCURRENT_PROCESSES)->unit, "procs",
	       "max_concurrent_processes unit procs");
	is_int(res_info(TP_RES_CORES)->kind, TP_UNIT_CORES, "cores kind");
	for (r = 0; r < TP_RES__COUNT; r++)
		is_int(res_info(r)->zero_ok,
		       r == TP_RES_SWAP_MEMORY || r == TP_RES_BYTES_READ ||
		       r == TP_RES_BYTES_WRITTEN || r == TP_RES_BYTES_RECEIVED ||
		       r == TP_RES_BYTES_SENT || r == TP_RES_GPUS || r == TP_RES_GPU_MEMORY,
		       "%s zero_ok", res_info(r)->name);
}

int main(void)
{
	test_good();
	test_bad();
	test_convert();
	test_seconds();
	test_resources();
	return done();
}
