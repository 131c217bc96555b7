/* SPDX-License-Identifier: MIT */
/* fuzz-live.c: libFuzzer harness for the live formats (src/live): random
 * bytes as a Prometheus label value, an InfluxDB tag value and a runtime
 * file.  Each output is judged by a checker written here, as the
 * collectors' parsers read it: the label value must hold no newline and
 * no quote not escaped; the tag value, scanned as InfluxDB 1.x scans it
 * (a backslash takes the next byte with it), no line end, no separator
 * (comma, '=', space) outside a pair, and no backslash left unpaired at
 * its end.  The reader must only refuse or parse.  Aborts on any breach. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "live/liveint.h"
#include "live/liveread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_label(const char *v)
{
	const char *p;

	for (p = v; *p; p++) {
		if (*p == '\n' || *p == '"')
			abort();
		if (*p == '\\' && !*++p)
			abort();	/* a backslash escaping the closing quote */
	}
}

static void check_tag(const char *v)
{
	const char *p;

	if (!*v)
		abort();
	for (p = v; *p; p++) {
		if (*p == '\n' || *p == '\r' || *p == ',' || *p == '=' || *p == ' ')
			abort();
		if (*p == '\\') {
			if (!p[1] || p[1] == '\n' || p[1] == '\r')
				abort();
			p++;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *v;
	struct tp_liverun r;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	v = prom_label_value(s);
	check_label(v);
	free(v);
	v = influx_tag_value(s);
	check_tag(v);
	free(v);
	if (liveread_parse((const char *)data, size, &r) == 0) {
		free(r.command);
		free(r.category);
		free(r.task);
		free(r.state);
	}
	free(s);
	return 0;
}
