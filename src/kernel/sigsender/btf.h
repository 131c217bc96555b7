/* SPDX-License-Identifier: MIT */
/* btf.h: a member's offset in a kernel structure, from the kernel's BTF
 * (/sys/kernel/btf/vmlinux: a header, a type section and a string
 * section).  Pure: the caller reads the blob. */
#ifndef TPMON_BTF_H
#define TPMON_BTF_H

#include <stddef.h>

/* The byte offset of member @member of the struct named @strct in the
 * BTF blob @buf of @len bytes (any alignment, the machine's byte order),
 * into *@off.  Returns 0, or -1 when the blob is malformed, holds no such
 * struct or member, or the member is a bitfield or not byte-aligned.
 * Reads nothing outside @buf. */
int btf_member_offset(const void *buf, size_t len, const char *strct, const char *member,
		      size_t *off);

#endif
