/* SPDX-License-Identifier: MIT */
/* fuzz-netlink.c: libFuzzer harness for the parsers of the kernel's
 * netlink datagrams: taskstats' exit records and the proc connector's
 * events.  Whatever a datagram holds, parsing must neither crash nor read
 * past it, and a record it accepts names a task. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/procconn.h"
#include "kernel/taskstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so that reading past the datagram is caught */
	uint8_t *buf = malloc(size ? size : 1);
	struct tp_taskstats r;
	struct tp_pc_event ev;
	uint16_t family = 27;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	/* the family the message claims, so that its records are reached */
	if (size >= 6)
		memcpy(&family, buf + 4, sizeof(family));
	if (taskstats_parse(buf, size, family, &r) == 1 && r.tid <= 0)
		abort();
	(void)taskstats_parse(buf, size, 27, &r);
	(void)procconn_parse(buf, size, &ev);
	free(buf);
	return 0;
}
