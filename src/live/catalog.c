/* SPDX-License-Identifier: MIT */
/* catalog.c: an update for cctools' catalog server in resource_monitor's
 * format (its send_catalog_update()): the summary as cctools reads it,
 * with "type": "task", a uuid made once per run, the owner ($USER), the
 * task's name (--catalog-task-name) and the project (--catalog-project,
 * by default the task's name).  live.c sends it. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "basic/jsontext.h"
#include "live/liveint.h"
#include "basic/xmalloc.h"

char *catalog_text(const char *json, const char *uuid, const char *owner,
		   const char *task, const char *project)
{
	json_t *root = json_loads(json, 0, NULL);
	char *text;

	if (!json_is_object(root)) {
		json_decref(root);
		return NULL;
	}
	json_object_set_new(root, "type", json_string("task"));
	json_object_set_new(root, "uuid", jsontext_new(uuid));
	json_object_set_new(root, "owner", jsontext_new(owner));
	json_object_set_new(root, "task", jsontext_new(task));
	json_object_set_new(root, "project", jsontext_new(project));
	text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(root);
	return text;
}

void catalog_uuid(char *out)
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), GRND_NONBLOCK) != (ssize_t)sizeof(b)) {
		struct timespec ts;
		uint64_t x;
		size_t i;

		clock_gettime(CLOCK_REALTIME, &ts);
		x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() << 32 ^
		    (uint64_t)ts.tv_sec;
		for (i = 0; i < sizeof(b); i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			b[i] = (unsigned char)(x >> 56);
		}
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);	/* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);	/* RFC 4122 variant */
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
}
