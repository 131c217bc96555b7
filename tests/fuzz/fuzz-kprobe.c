/* SPDX-License-Identifier: MIT */
/* fuzz-kprobe.c: libFuzzer harness for the readers of the kprobe PMU's
 * sysfs texts and uname's strings (kernel/bpfasm.c): whatever the kernel
 * writes there, they must neither crash nor read past the text, and give
 * only values in range. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/bpfasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact copy with its terminator, so that ASan sees any read past it */
	char *text = malloc(size + 1);
	struct bpfasm_regs r;
	int type, bit;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	type = bpfasm_kprobe_type(text);
	bit = bpfasm_kprobe_retbit(text);
	if (type < -1 || bit < -1 || bit > 63)
		abort();
	if (bpfasm_regs_of(text, &r) == 0 && (r.ret < 0 || r.arg4 < 0))
		abort();
	(void)bpfasm_kversion(text);
	free(text);
	return 0;
}
