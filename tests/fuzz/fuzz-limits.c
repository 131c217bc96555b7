/* SPDX-License-Identifier: MIT */
/* fuzz-limits.c: libFuzzer harness for the limit parsers.  Feeds the input
 * to limitset_parse_json() (with its length, NULs and all) and, NUL-terminated,
 * to limitset_parse_text() and units_parse(); aborts when a parser breaks its
 * contract (limits changed on error, a value out of range, a message that
 * is not one terminated printable line). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/limitset.h"
#include "basic/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_message(int rc, const char *err, size_t errlen)
{
	size_t i;

	if (rc == 0)
		return;
	if (err[0] == '\0' || memchr(err, '\0', errlen) == NULL)
		abort();
	for (i = 0; err[i]; i++)
		if ((unsigned char)err[i] < 0x20 || (unsigned char)err[i] >= 0x7f)
			abort();
}

/* After a parse: unchanged on error; on success every set value is a
 * finite, non-negative number no larger than the units' maximum. */
static void check_limits(int rc, const struct tp_limits *before,
			 const struct tp_limits *after)
{
	int r;

	if (rc != 0 && rc != -1)
		abort();
	if (rc == -1) {
		if (memcmp(before, after, sizeof(*before)) != 0)
			abort();
		return;
	}
	for (r = 0; r < TP_RES__COUNT; r++) {
		double v = after->value[r];

		if (!after->set[r])
			continue;
		if (!isfinite(v) || v < 0 || v > 1e15)
			abort();
		if (v == 0 && !res_info(r)->zero_ok)
			abort();
		if (res_info(r)->kind == TP_UNIT_COUNT && v != floor(v))
			abort();
	}
}

static void fuzz_units(const char *text)
{
	static const enum tp_unit_kind kinds[] = {
		TP_UNIT_TIME, TP_UNIT_SIZE, TP_UNIT_CORES, TP_UNIT_COUNT
	};
	char why[128];
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		double v = -1;
		int rc = units_parse(kinds[i], text, &v, why, sizeof(why));

		if (rc == 0 && (!isfinite(v) || v < 0 || v > 1e15))
			abort();
		if (rc < 0 && v != -1)
			abort();
		check_message(rc, why, sizeof(why));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tp_limits before, l;
	char err[256];
	char *text = malloc(size + 1);
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	/* Start from a non-empty state to see that errors leave it alone. */
	memset(&before, 0, sizeof(before));
	before.set[TP_RES_DISK] = true;
	before.value[TP_RES_DISK] = 77;

	l = before;
	rc = limitset_parse_json(&l, text, size, "fuzz.json", err, sizeof(err));
	check_limits(rc, &before, &l);
	check_message(rc, err, sizeof(err));

	l = before;
	rc = limitset_parse_text(&l, text, "-L", err, sizeof(err));
	check_limits(rc, &before, &l);
	check_message(rc, err, sizeof(err));

	if (size < 64)
		fuzz_units(text);
	free(text);
	return 0;
}
