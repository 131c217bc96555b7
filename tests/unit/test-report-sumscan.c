/* SPDX-License-Identifier: MIT */
/* test-report-sumscan.c: the report's one-pass summary scanner against
 * jansson, the judge it stands in for.  On literal summaries of every
 * form (units, bare numbers, nulls, escapes, -0, nested values) it must
 * read exactly what rp_summary_parse() + rp_summary_fill() read, and take
 * the common forms itself; on hostile text and on 20,000 mutations of a
 * real summary it may decline, but whatever it takes, jansson takes too,
 * with the same figures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "report/read/rsummary.h"
#include "report/read/sumscan.h"
#include "basic/xmalloc.h"
#include "tap.h"

static bool same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof(a)) == 0;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same_task(const struct rp_task *a, const struct rp_task *b)
{
	int r;

	for (r = 0; r < RP_RES__COUNT; r++)
		if (!same_double(a->v[r], b->v[r]))
			return false;
	return same_double(a->started, b->started) && same_double(a->ended, b->ended) &&
	       same_str(a->category, b->category) && same_str(a->command, b->command) &&
	       same_str(a->host, b->host) && same_str(a->exit_type, b->exit_type) &&
	       a->exit_status == b->exit_status && a->end == b->end && a->normal == b->normal;
}

/* Scan @text both ways: 1 when the scanner took it, with jansson agreeing;
 * 0 when it declined; -1 when it took what jansson refuses or read it
 * otherwise. */
static int differ(const char *text, size_t len)
{
	struct rp_task fast, slow;
	char why[256], *copy = xmalloc(len + 1);
	json_t *root;
	int took, r;

	memcpy(copy, text, len);
	copy[len] = '\0';
	rp_task_init(&fast);
	rp_task_init(&slow);
	took = rp_sumscan_fill(&fast, copy, len) == 0;
	root = rp_summary_parse(text, len, why, sizeof(why));
	if (root)
		rp_summary_fill(&slow, root);
	r = !took ? 0 : root && same_task(&fast, &slow) ? 1 : -1;
	json_decref(root);
	rp_task_clear(&fast);
	rp_task_clear(&slow);
	free(copy);
	return r;
}

static const char *const taken[] = {
	"{\"category\": \"align\", \"memory\": [512.5, \"MB\"], \"wall_time\": [3, \"s\"],"
	" \"cores\": [1.5, \"cores\"], \"exit_type\": \"normal\", \"exit_status\": 0,"
	" \"start\": [1700000000.25, \"s\"], \"end\": [1700000003250000, \"us\"],"
	" \"command\": \"prog \\\"a b\\\" \\\\ x\\/y\\t\", \"host\": \"n1\","
	" \"peak_times\": {\"memory\": [1, \"s\"], \"x\": [[], {}, true, false, null]}}",
	"{\"memory\": 2048, \"disk\": [1, \"GB\"], \"bytes_read\": [5, \"kB\"]}",
	"{\"memory\": [-0, \"MB\"], \"cores\": [0.0, \"cores\"], \"exit_status\": -3}",
	"{\"memory\": null, \"cores\": \"many\", \"disk\": [\"1\", \"MB\"], \"gpus\": [],"
	" \"wall_time\": [2e2, \"s\", \"extra\"], \"cpu_time\": [1E-400, 3]}",
	"  {\"monitor_version\": \"x\", \"category\": 5, \"exit_type\": \"limits\","
	" \"exit_status\": 1.0, \"start\": \"now\", \"end\": [5, \"h\"]}\n\n",
	"{\"wall_time\": [1, \"S\"], \"memory\": [1, \"mb\"], \"a\": 1, \"a\": 2}",
};

static const char *const refused[] = {
	"", "[]", "{}", "{\"a\": 1}", "{\"memory\": [-1, \"MB\"]}", "{\"memory\": [-0.0, \"MB\"]}",
	"{\"memory\": [1e999, \"MB\"]}", "{\"memory\": [5, \"parsec\"]}", "{\"memory\": NaN}",
	"{\"memory\": 01}", "{\"memory\": 1.}", "{\"memory\": .5}", "{\"memory\": 1e}",
	"{\"memory\": +1}", "{\"memory\": 0x10}", "{\"memory\": 1,}", "{\"memory\": 1} x",
	"{\"memory\": 1", "{\"memory\" 1}", "{memory: 1}", "{\"memory\": tru}",
	"{\"command\": \"a\nb\"}", "{\"command\": \"\\x\"}", "{\"command\": \"a}",
	"{\"memory\": [1, \"MB\"]}\0", "{\"memory\": [1 \"MB\"]}",
};

/* Forms jansson reads and the scanner leaves to it. */
static const char *const declined[] = {
	"{\"command\": \"caf\xc3\xa9\", \"memory\": 1}",
	"{\"command\": \"\\u00e9\", \"memory\": 1}",
	"{\"memory\": 1, \"memory\": 2}",
	"{\"memory\": 1234567890123456789}",
	("{\"memory\": 1, \"x\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	 "[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MUTATIONS 20000

int main(void)
{
	static const char base[] =
		"{\"category\": \"c\", \"command\": \"p \\\"q\\\"\", \"exit_type\": \"normal\","
		" \"exit_status\": 0, \"start\": [1700000000.5, \"s\"], \"end\": [1700000001, \"s\"],"
		" \"wall_time\": [0.5, \"s\"], \"memory\": [12.5, \"MB\"], \"cores\": [1, \"cores\"],"
		" \"peak_times\": {\"memory\": [0.25, \"s\"]}, \"bytes_sent\": null}";
	char buf[sizeof(base)];
	size_t i, agree = 0, took = 0;

	plan((int)(N(taken) + N(refused) + N(declined)) + 2);
	for (i = 0; i < N(taken); i++)
		ok(differ(taken[i], strlen(taken[i])) == 1, "taken as jansson reads it: %zu", i);
	for (i = 0; i < N(refused); i++)
		ok(differ(refused[i], strlen(refused[i]) + (i == 24)) == 0, "refused: %zu", i);
	for (i = 0; i < N(declined); i++)
		ok(differ(declined[i], strlen(declined[i])) == 0, "left to jansson: %zu", i);
	srand(34);
	for (i = 0; i < MUTATIONS; i++) {
		static const char alphabet[] = "{}[]\",:.-+eE0129 \\nul\x01\xc3";
		size_t at = (size_t)rand() % (sizeof(base) - 1);
		int r;

		memcpy(buf, base, sizeof(base));
		buf[at] = alphabet[rand() % (int)(sizeof(alphabet) - 1)];
		r = differ(buf, sizeof(base) - 1);
		agree += r >= 0;
		took += r == 1;
	}
	ok(agree == MUTATIONS, "mutations: whatever the scanner took, jansson read the same (%zu of %d)",
	   agree, MUTATIONS);
	ok(took > MUTATIONS / 4, "mutations: the scanner took many itself (%zu)", took);
	return done();
}
