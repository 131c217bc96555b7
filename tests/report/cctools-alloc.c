/* SPDX-License-Identifier: MIT */
/* cctools-alloc.c: the first allocations that cctools' own category code
 * (dttools/src/category.c) computes for a list of summary files, to check
 * `tpmon report` against.  Built by tests/report-cctools.test against the
 * cctools build in $TPMON_CCTOOLS_SRC; not part of tpmon.
 * Usage: cctools-alloc [-c MAX_CORES] [-m MAX_MEMORY] [-d MAX_DISK] FILE...
 * Prints one line per category and mode:
 *   CATEGORY MODE CORES MEMORY DISK   (-1: none) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "category.h"
#include "hash_table.h"
#include "rmsummary.h"

static const struct {
	const char *name;
	category_mode_t mode;
} modes[] = {
	{ "max_throughput", CATEGORY_ALLOCATION_MODE_MAX_THROUGHPUT },
	{ "min_waste", CATEGORY_ALLOCATION_MODE_MIN_WASTE },
	{ "max", CATEGORY_ALLOCATION_MODE_MAX },
};
#define NMODES 3

int main(int argc, char **argv)
{
	struct hash_table *cats[NMODES];
	struct rmsummary *max = rmsummary_create(-1);
	struct category *c;
	char *name;
	int i, m, opt, iter;

	while ((opt = getopt(argc, argv, "c:m:d:")) != -1) {
		if (opt == 'c')
			max->cores = atof(optarg);
		else if (opt == 'm')
			max->memory = atof(optarg);
		else if (opt == 'd')
			max->disk = atof(optarg);
		else
			return 2;
	}
	for (m = 0; m < NMODES; m++)
		cats[m] = hash_table_create(0, 0);
	for (i = optind; i < argc; i++) {
		struct rmsummary *s = rmsummary_parse_file_single(argv[i]);

		if (!s) {
			fprintf(stderr, "cctools-alloc: cannot parse %s\n", argv[i]);
			continue;
		}
		for (m = 0; m < NMODES; m++) {
			c = category_lookup_or_create(cats[m], s->category);
			if (c->allocation_mode != modes[m].mode) {
				category_specify_allocation_mode(c, modes[m].mode);
				category_specify_max_allocation(c, max);
			}
			category_accumulate_summary(c, s, NULL);
		}
		rmsummary_delete(s);
	}
	for (m = 0; m < NMODES; m++) {
		HASH_TABLE_ITERATE(cats[m], iter, name, c) {
			struct rmsummary *f;

			category_update_first_allocation(c, NULL);
			f = c->first_allocation;
			printf("%s %s %lld %lld %lld\n", name, modes[m].name,
			       f ? (long long)f->cores : -1LL,
			       f ? (long long)f->memory : -1LL,
			       f ? (long long)f->disk : -1LL);
		}
	}
	return 0;
}
