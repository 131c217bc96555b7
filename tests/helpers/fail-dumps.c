/* SPDX-License-Identifier: MIT */
/* fail-dumps: a library to preload whose json_dumps() always fails, as
 * jansson's does when memory runs out.  tpmon then cannot make its
 * summary, a fatal error: tests/quality-outputs.test checks its exit
 * status (4 in cctools mode, resource_monitor's monitor error). */
#include <stddef.h>

struct json_t;

char *json_dumps(const struct json_t *json, size_t flags);

char *json_dumps(const struct json_t *json, size_t flags)
{
	(void)json;
	(void)flags;
	return NULL;
}
