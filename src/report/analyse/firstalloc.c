/* SPDX-License-Identifier: MIT */
/* firstalloc.c: cctools' first-allocation algorithm (dttools/src/category.c
 * and histogram.c), redone on plain arrays.  Each step keeps cctools'
 * arithmetic and its order of operations so that the results are the
 * same numbers, ties included: per-bucket times are sums of wall_time/1e6
 * in task order; candidates are compared strictly, so a tie keeps the
 * smaller bucket. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "report/analyse/firstalloc.h"
#include "basic/xmalloc.h"

/* category.c divides each wall time by USECOND before summing. */
#define CCTOOLS_USECOND 1000000

static const char *const mode_keys[RP_MODE__COUNT] = {
	"max_throughput", "min_waste", "max"
};
static const char *const mode_labels[RP_MODE__COUNT] = {
	"max throughput", "min waste", "max seen"
};

const char *rp_mode_key(enum rp_mode m)
{
	return mode_keys[m];
}

const char *rp_mode_label(enum rp_mode m)
{
	return mode_labels[m];
}

/* A bucket holds (end - size, end]; it is keyed by the number of sizes in
 * its end, as histogram.c's bucket_of() does. */
static uint64_t bucket_key(double v, double size)
{
	return (uint64_t)fabs(ceil(v / size));
}

double rp_alloc_round_up(double v, double size)
{
	double end = (double)bucket_key(v, size) * size;

	return v >= 0 ? end : -end;
}

struct entry {
	uint64_t key;
	size_t order;
	double time;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* The histogram of one resource: buckets sorted by their end. */
struct hist {
	size_t n;
	double *keys;		/* bucket ends */
	double *counts;
	double *times;		/* sum of wall_time / 1e6 */
	double max_value;	/* largest value inserted, at least 0 */
	double size;
};

static void hist_build(struct hist *h, const struct rp_sample *s, size_t n,
		       double size)
{
	struct entry *e = xreallocarray(NULL, n ? n : 1, sizeof(*e));
	size_t i, m = 0;

	h->n = 0;
	h->max_value = 0;
	h->size = size;
	for (i = 0; i < n; i++) {
		/* category_inc_histogram_count(): value >= 0 and wall_time >= 0 */
		if (!s[i].normal || !(s[i].value >= 0) || !(s[i].wall_time >= 0))
			continue;
		e[m].key = bucket_key(s[i].value, size);
		e[m].order = i;
		e[m].time = s[i].wall_time / CCTOOLS_USECOND;
		if (s[i].value > h->max_value)
			h->max_value = s[i].value;
		m++;
	}
	qsort(e, m, sizeof(*e), cmp_entry);
	h->keys = xreallocarray(NULL, m ? m : 1, sizeof(double));
	h->counts = xreallocarray(NULL, m ? m : 1, sizeof(double));
	h->times = xreallocarray(NULL, m ? m : 1, sizeof(double));
	for (i = 0; i < m; i++) {
		if (h->n == 0 || e[i].key != e[i - 1].key) {
			h->keys[h->n] = (double)e[i].key * size;
			h->counts[h->n] = 0;
			h->times[h->n] = 0;
			h->n++;
		}
		h->counts[h->n - 1] += 1;
		h->times[h->n - 1] += e[i].time;
	}
	free(e);
}

static void hist_free(struct hist *h)
{
	free(h->keys);
	free(h->counts);
	free(h->times);
}

/* category_first_allocation_accum_times() */
struct accum {
	double *counts;		/* counts of the buckets up to i */
	double *times;		/* mean time share of the buckets above i */
	double tau_mean;
};

static void accum_times(const struct hist *h, struct accum *a)
{
	size_t n = h->n, i;
	double total;

	a->counts = xreallocarray(NULL, n, sizeof(double));
	a->times = xreallocarray(NULL, n, sizeof(double));
	for (i = 0; i < n; i++)
		a->counts[i] = (i > 0 ? a->counts[i - 1] : 0) + h->counts[i];
	total = a->counts[n - 1];
	a->times[n - 1] = 0;
	for (i = n - 1; i-- > 0;)
		a->times[i] = a->times[i + 1] + (h->times[i + 1] / total);
	a->tau_mean = a->times[0] + (h->times[0] / total);
}

static void accum_free(struct accum *a)
{
	free(a->counts);
	free(a->times);
}

static int64_t min_waste(const struct hist *h, int64_t top)
{
	struct accum ac;
	int64_t a_1 = top, a_m = top;
	double best = DBL_MAX;
	size_t i;

	accum_times(h, &ac);
	for (i = 0; i < h->n; i++) {
		int64_t a = (int64_t)h->keys[i];
		double ea;

		if (a < 1)
			continue;
		ea = (double)a * ac.tau_mean + (double)a_m * ac.times[i];
		if (ea < best) {
			best = ea;
			a_1 = a;
		}
	}
	accum_free(&ac);
	if (a_1 > top)
		a_1 = top;
	return (int64_t)rp_alloc_round_up((double)a_1, h->size);
}

static int64_t max_throughput(const struct hist *h, int64_t top)
{
	struct accum ac;
	int64_t a_1 = top, a_m = top;
	double best = 0;
	size_t i;

	accum_times(h, &ac);
	for (i = 0; i < h->n; i++) {
		int64_t a = (int64_t)h->keys[i];
		double before, after, ta;

		if (a < 1)
			continue;
		before = ac.counts[i];
		after = ac.counts[h->n - 1] - before;
		ta = ((before * (double)a_m) / (double)a + after) /
		     (ac.tau_mean + ac.times[i]);
		if (ta > best) {
			best = ta;
			a_1 = a;
		}
	}
	accum_free(&ac);
	if (a_1 > top)
		a_1 = top;
	return (int64_t)rp_alloc_round_up((double)a_1, h->size);
}

/* category_first_allocation_max_seen(), with no worker maximum. */
static int64_t max_seen(const struct hist *h, int64_t max_explicit)
{
	double rounded = rp_alloc_round_up(h->max_value + floor(h->size / 3),
					   h->size);

	if (max_explicit > -1)
		return (int64_t)((double)max_explicit < rounded ?
				 (double)max_explicit : rounded);
	return (int64_t)rounded;
}

void rp_alloc_compute(const struct rp_sample *s, size_t n, double bucket,
		      double max_explicit, int64_t out[RP_MODE__COUNT])
{
	struct hist h;
	double seen = -1, top;
	int64_t top_value, explicit = -1;
	size_t i, normal = 0;
	int m;

	for (m = 0; m < RP_MODE__COUNT; m++)
		out[m] = -1;
	for (i = 0; i < n; i++) {
		double v = isnan(s[i].value) ? -1 : s[i].value;

		seen = v > seen ? v : seen;
		normal += s[i].normal;
	}
	/* category_update_first_allocation() needs one task that ended normally */
	if (normal == 0)
		return;
	top = -1;
	if (seen > -1)
		top = seen;
	if (max_explicit > -1) {
		top = max_explicit;
		explicit = (int64_t)max_explicit;
	}
	top_value = (int64_t)top;
	if (top_value < 0)
		return;
	hist_build(&h, s, n, bucket);
	if (h.n > 0) {
		out[RP_MAX_THROUGHPUT] = max_throughput(&h, top_value);
		out[RP_MIN_WASTE] = min_waste(&h, top_value);
		out[RP_MAX_SEEN] = max_seen(&h, explicit);
	}
	hist_free(&h);
}
