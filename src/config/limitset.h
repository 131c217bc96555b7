/* SPDX-License-Identifier: MIT */
/* limitset.h: limit specifications (parsed from JSON files, "res: value"
 * strings and files) and their evaluation against measured values. */
#ifndef TPMON_LIMITSET_H
#define TPMON_LIMITSET_H

#include <stdbool.h>
#include <stddef.h>
#include "basic/figtable.h"

struct tp_limits {
	bool set[TP_RES__COUNT];
	double value[TP_RES__COUNT];	/* in the resource's summary unit */
	bool end_set;			/* "end": an absolute deadline */
	double end;			/* s since the epoch */
};

/* All parsers below add to @l (a later value for the same resource
 * replaces an earlier one) and return 0, or return -1 with a one-line
 * message in @err naming the origin (file name or "-L"), the resource and
 * the offending value; @l is then left unchanged. */

/* A JSON object, e.g. {"memory": 2048, "wall_time": "90s", "disk": [1, "GB"]}.
 * @origin names where the text came from, for messages. */
int limitset_parse_json(struct tp_limits *l, const char *text, size_t len,
		      const char *origin, char *err, size_t errlen);

/* resource_monitor's text form: "memory: 2048, cores: 2" (commas or
 * newlines separate entries; '#' starts a comment line). */
int limitset_parse_text(struct tp_limits *l, const char *text,
		      const char *origin, char *err, size_t errlen);

/* A file: JSON when its first non-blank byte is '{', text form otherwise. */
int limitset_parse_file(struct tp_limits *l, const char *path,
		      char *err, size_t errlen);

/* The -L argument: an existing regular file is read as limitset_parse_file(),
 * anything else as limitset_parse_text() with origin "-L". */
int limitset_parse_arg(struct tp_limits *l, const char *arg,
		     char *err, size_t errlen);

/* Is @value over the limit for @r?  False when no limit is set.
 * Counts and sizes are over when strictly greater than the limit. */
bool limitset_exceeded(const struct tp_limits *l, enum tp_res r, double value);

#endif
