/* SPDX-License-Identifier: MIT */
/* fuzz-report-cache.c: libFuzzer harness for the reader of `tpmon report
 * --cache` files (rcache.c): the input as a whole cache file (its ident,
 * its blocks, their checksums), and as the one block of a cache whose
 * checksums are right (rp_cache_forge()), so that the fuzzer reaches the
 * entries at once.  The entries are looked up as a walk would (paths in
 * its order, two inputs); every task the cache gives is put in the new
 * cache, which is saved and read again: it must give the same tasks.
 * Aborts when a task breaks the reader's contract: a value neither
 * unknown (NAN) nor a finite non-negative number, a start or end out of
 * range, a string longer than RP_STRING_MAX or not the store's. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/read/rcache.h"
#include "report/read/rsummary.h"
#include "report/read/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the report's inputs as its command line gives them (char *const *) */
static char input_w[] = "w", input_v[] = "v";
static char *const inputs[] = { input_w, input_v };

/* what a walk of the inputs would look up, in its order */
static const char *const walk[][2] = {
	{ "w/a/b.summary", "1" }, { "w/a.summary", "0" }, { "w/a0.summary", "0" },
	{ "w/t000001.summary", "0" }, { "w/z/z.summary", "0" }, { "v/a.summary", "0" },
};
#define NWALK (sizeof(walk) / sizeof(walk[0]))

static bool str_ok(const struct rp_store *st, const char *s)
{
	return !s || (strlen(s) <= RP_STRING_MAX && rp_store_intern((struct rp_store *)st, s) == s);
}

static void check_task(const struct rp_store *st, const struct rp_task *t)
{
	int r;

	for (r = 0; r < RP_RES__COUNT; r++)
		if (!isnan(t->v[r]) && (!isfinite(t->v[r]) || t->v[r] < 0))
			abort();
	if ((!isnan(t->started) && !(t->started > 0 && t->started < 1e11)) ||
	    (!isnan(t->ended) && !(t->ended > 0 && t->ended < 1e11)))
		abort();
	if (!t->pooled || !str_ok(st, t->category) || !str_ok(st, t->command) ||
	    !str_ok(st, t->host) || !str_ok(st, t->exit_type) || !str_ok(st, t->cause) ||
	    !str_ok(st, t->detail) || !str_ok(st, t->notes) || !str_ok(st, t->notes_text))
		abort();
}

/* Walk the cache in @path: the tasks found into @got (@found[i]: one for
 * walk[i]); with @save, each put in the new cache, saved. */
static void walk_cache(const char *path, struct rp_store *st, struct rp_task *got,
		       bool *found, bool save)
{
	struct rp_cache *c = rp_cache_open(path, inputs, 2);
	size_t i;

	for (i = 0; i < NWALK; i++) {
		struct rp_cache_stamp stamp;
		int full = walk[i][1][0] - '0';

		rp_cache_input(c, walk[i][0][0] == 'v');
		found[i] = rp_cache_find(c, st, walk[i][0], full, &stamp, &got[i]);
		if (found[i]) {
			check_task(st, &got[i]);
			rp_cache_put(c, walk[i][0], full, &stamp, &got[i]);
		}
	}
	if (save)
		rp_cache_save(c);
	rp_cache_free(c);
}

/* The cache @path read, saved, read again: the same tasks. */
static void round_trip(const char *path)
{
	struct rp_task a[NWALK], b[NWALK];
	bool fa[NWALK], fb[NWALK];
	struct rp_store st;
	size_t i;

	rp_store_init(&st);
	walk_cache(path, &st, a, fa, true);
	walk_cache(path, &st, b, fb, false);
	for (i = 0; i < NWALK; i++)
		if (fa[i] != fb[i] ||
		    (fa[i] && (memcmp(a[i].v, b[i].v, sizeof(a[i].v)) != 0 ||
			       a[i].command != b[i].command || a[i].category != b[i].category ||
			       a[i].notes_text != b[i].notes_text ||
			       a[i].exit_status != b[i].exit_status || a[i].partial != b[i].partial)))
			abort();
	rp_store_free(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[] = "/tmp/fuzz-report-cache.XXXXXX";
	static bool made;
	char raw[64], forged[64];
	FILE *f;

	if (!made && !mkdtemp(dir))
		return 0;
	made = true;
	snprintf(raw, sizeof(raw), "%s/raw", dir);
	snprintf(forged, sizeof(forged), "%s/forged", dir);
	f = fopen(raw, "wb");
	if (!f)
		return 0;
	if (size)
		fwrite(data, 1, size, f);
	fclose(f);
	round_trip(raw);
	if (rp_cache_forge(forged, inputs, 2, data, size, 0) == 0)
		round_trip(forged);
	unlink(raw);
	unlink(forged);
	return 0;
}
