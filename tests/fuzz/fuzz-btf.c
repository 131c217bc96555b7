/* SPDX-License-Identifier: MIT */
/* fuzz-btf.c: libFuzzer harness for the BTF reader
 * (kernel/btf.c).  Whatever the blob holds, finding a member's
 * offset must neither crash nor read past it, and an offset found lies
 * inside a struct of at most 2^21 bytes (24 bits of bit offset).  Two
 * lookups per input: task_struct's tgid (the one tpmon makes), and a
 * struct and member named by the input's first bytes, so that names the
 * blob itself holds are reached too; and a function's type id (the input
 * probe's security_file_open, and the first name), never 0. */
#include <linux/btf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/btf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void judge(const uint8_t *blob, size_t size, const char *strct, const char *member)
{
	size_t off = 0;
	int r = btf_member_offset(blob, size, strct, member, &off);

	if (r < -1 || r > 0 || (r == 0 && off >= (1u << 29)))
		abort();
}

static void judge_func(const uint8_t *blob, size_t size, const char *name)
{
	uint32_t id = 0;
	int r = btf_type_id(blob, size, BTF_KIND_FUNC, name, &id);

	if (r < -1 || r > 0 || (r == 0 && id == 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char names[2][8];
	size_t skip = size < 16 ? 0 : 16;
	/* an exact copy of the blob, so that ASan sees any read past it */
	uint8_t *blob = malloc(size - skip ? size - skip : 1);

	if (!blob)
		return 0;
	memcpy(blob, data + skip, size - skip);
	judge(blob, size - skip, "task_struct", "tgid");
	if (skip) {
		memcpy(names, data, sizeof(names));
		names[0][7] = names[1][7] = '\0';
		judge(blob, size - skip, names[0], names[1]);
		judge_func(blob, size - skip, names[0]);
	}
	judge_func(blob, size - skip, "security_file_open");
	free(blob);
	return 0;
}
