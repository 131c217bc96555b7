/* SPDX-License-Identifier: MIT */
/* btf.h: a member's offset in a kernel structure, and a function's type
 * id (for a program at its entry), from the kernel's BTF
 * (/sys/kernel/btf/vmlinux: a header, a type section and a string
 * section).  Pure: the caller reads the blob, whole or through a
 * function that gives the bytes asked for (the kernel's is 5 MB, and
 * task_struct comes early in it). */
#ifndef TPMON_BTF_H
#define TPMON_BTF_H

#include <stddef.h>
#include <stdint.h>

/* The byte offset of member @member of the struct named @strct in the
 * BTF blob @buf of @len bytes (any alignment, the machine's byte order),
 * into *@off.  Returns 0, or -1 when the blob is malformed, holds no such
 * struct or member, or the member is a bitfield or not byte-aligned.
 * Reads nothing outside @buf. */
int btf_member_offset(const void *buf, size_t len, const char *strct, const char *member,
		      size_t *off);

/* The id of the first type of kind @kind (BTF_KIND_FUNC, ...) named
 * @name in the blob @buf of @len bytes into *@id: 0, or -1 when the blob
 * is malformed or holds none.  Reads nothing outside @buf. */
int btf_type_id(const void *buf, size_t len, unsigned kind, const char *name, uint32_t *id);

/* Copy @len bytes at @at of the blob into @buf: 0, or -1 (none past the
 * end of the blob are asked for). */
typedef int btf_read_fn(void *arg, size_t at, void *buf, size_t len);

/* The same on a blob of @len bytes read through @read(@arg, ...).  Names
 * (@strct, @member) are at most 63 bytes long. */
int btf_member_offset_read(btf_read_fn *read, void *arg, size_t len, const char *strct,
			   const char *member, size_t *off);

#endif
