/* SPDX-License-Identifier: MIT */
/* jsontext.h: JSON strings from untrusted text (command lines, host and
 * file names) for the files tpmon writes with jansson. */
#ifndef TPMON_JSONTEXT_H
#define TPMON_JSONTEXT_H

#include <jansson.h>

/* A new JSON string holding @s, with every byte that is not valid UTF-8
 * replaced by U+FFFD, so it can always be written. */
json_t *jsontext_new(const char *s);

#endif
