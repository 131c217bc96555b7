/* SPDX-License-Identifier: MIT */
/* btf.c: a member's offset from the kernel's BTF (btf.h).  The layout is
 * that of <linux/btf.h>: struct btf_header, then at type_off the types,
 * each a struct btf_type followed by data whose size its kind and vlen
 * give, and at str_off the NUL-terminated names.  A struct's members are
 * struct btf_member: their offset is in bits, and with the type's
 * kind_flag the top 8 bits are a bitfield's size. */
#include <linux/btf.h>
#include <stdint.h>
#include <string.h>
#include "kernel/sigsender/btf.h"

struct blob {
	const unsigned char *types, *strs;
	size_t types_len, strs_len;
};

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Does name @off of the string section equal @want? */
static int name_is(const struct blob *b, uint32_t off, const char *want)
{
	size_t n = strlen(want);

	return off < b->strs_len && b->strs_len - off > n &&
	       memcmp(b->strs + off, want, n) == 0 && b->strs[off + n] == '\0';
}

/* Bytes after a struct btf_type of @kind with @vlen entries; -1 for a
 * kind this parser does not know (then nothing after it can be found). */
static long extra_size(unsigned kind, uint32_t vlen)
{
	switch (kind) {
	case 1: case 14: case 17:	/* INT, VAR, DECL_TAG: a u32 */
		return 4;
	case 3:				/* ARRAY */
		return 12;
	case 4: case 5: case 15: case 19:	/* STRUCT, UNION, DATASEC, ENUM64 */
		return 12L * vlen;
	case 6: case 13:		/* ENUM, FUNC_PROTO */
		return 8L * vlen;
	case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16: case 18:
		return 0;		/* PTR, FWD, TYPEDEF ... FUNC, FLOAT, TYPE_TAG */
	default:
		return -1;
	}
}

/* In the members at @m (@vlen of them) of a struct whose kind_flag is
 * @kflag: @member's byte offset. */
static int find_member(const struct blob *b, const unsigned char *m, uint32_t vlen, int kflag,
		       const char *member, size_t *off)
{
	uint32_t i;

	for (i = 0; i < vlen; i++, m += 12) {
		uint32_t bits = get32(m + 8);

		if (!name_is(b, get32(m), member))
			continue;
		if (kflag && (bits >> 24) != 0)
			return -1;	/* a bitfield */
		if (kflag)
			bits &= 0xffffff;
		if (bits % 8)
			return -1;
		*off = bits / 8;
		return 0;
	}
	return -1;
}

static int find_struct(const struct blob *b, const char *strct, const char *member,
		       size_t *off)
{
	size_t at = 0;

	while (b->types_len - at >= 12) {
		const unsigned char *t = b->types + at;
		uint32_t info = get32(t + 4), vlen = info & 0xffff;
		unsigned kind = (info >> 24) & 0x1f;
		long extra = extra_size(kind, vlen);

		if (extra < 0 || (size_t)extra > b->types_len - at - 12)
			return -1;
		if (kind == BTF_KIND_STRUCT && vlen && name_is(b, get32(t), strct))
			return find_member(b, t + 12, vlen, (int)(info >> 31), member, off);
		at += 12 + (size_t)extra;
	}
	return -1;
}

int btf_member_offset(const void *buf, size_t len, const char *strct, const char *member,
		      size_t *off)
{
	const unsigned char *p = buf;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	struct blob b;
	uint16_t magic;

	if (len < 24)
		return -1;
	memcpy(&magic, p, sizeof(magic));
	hdr_len = get32(p + 4);
	if (magic != BTF_MAGIC || hdr_len < 24 || hdr_len > len)
		return -1;
	type_off = get32(p + 8);
	type_len = get32(p + 12);
	str_off = get32(p + 16);
	str_len = get32(p + 20);
	len -= hdr_len;
	p += hdr_len;
	if (type_off > len || type_len > len - type_off || str_off > len ||
	    str_len > len - str_off)
		return -1;
	b.types = p + type_off;
	b.types_len = type_len;
	b.strs = p + str_off;
	b.strs_len = str_len;
	return find_struct(&b, strct, member, off);
}
