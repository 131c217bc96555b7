/* SPDX-License-Identifier: MIT */
/* snapevents.h: the files named by --snapshot-events, polled for the events
 * that resource_monitor's snapshot configuration describes (a file
 * created, deleted or truncated, a line matching a pattern).  Each poll
 * returns the label of the snapshot due, in resource_monitor's form
 * "label(count),label(count)". */
#ifndef TPMON_SNAPEVENTS_H
#define TPMON_SNAPEVENTS_H

#include <stdbool.h>
#include <stddef.h>

struct tp_snapevents;

/* Parse the JSON text of a snapshot configuration:
 *   { "FILE": { "from-start": bool, "from-start-if-truncated": bool,
 *               "delete-if-found": bool,
 *               "events": [ { "label": "NAME", "on-create": bool |
 *                             "on-delete": bool | "on-truncate": bool |
 *                             "on-pattern": "REGEX", "count": N }, ... ] },
 *     ... }
 * Pure: no file is looked at.  Returns a new watch set (free it with
 * snapevents_free()), or NULL with a message in @err. */
struct tp_snapevents *snapevents_parse(const char *text, char *err, size_t errlen);

/* snapevents_parse() of the file @path.  NULL with a message in @err. */
struct tp_snapevents *snapevents_load(const char *path, char *err, size_t errlen);

/* Note the state of every watched file before the task starts: a file
 * that exists now is not "created", and its lines so far are skipped
 * unless "from-start" is true. */
void snapevents_start(struct tp_snapevents *w);

/* Look at every watched file once.  Returns the label of the snapshot
 * due (malloc'd, the caller frees it), or NULL when no event fired. */
char *snapevents_poll(struct tp_snapevents *w);

void snapevents_free(struct tp_snapevents *w);

#endif
