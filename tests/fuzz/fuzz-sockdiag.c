/* SPDX-License-Identifier: MIT */
/* fuzz-sockdiag.c: libFuzzer harness for the sock_diag reader
 * (kernel/sockdiag.c).  Whatever netlink delivers, decoding must neither
 * crash nor read past the batch, at any alignment. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/sockdiag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count(void *arg, const struct tp_sockdiag_sock *s)
{
	size_t *n = arg;

	if (s->family < 0)
		abort();
	(*n)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact copy, so that ASan sees any read past it */
	uint8_t *buf = malloc(size ? size : 1);
	size_t n = 0;
	int r;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	r = sockdiag_parse(buf, size, count, &n);
	if (r < -1 || r > 1)
		abort();
	free(buf);
	return 0;
}
