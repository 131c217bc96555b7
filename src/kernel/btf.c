/* SPDX-License-Identifier: MIT */
/* btf.c: a member's offset and a type's id from the kernel's BTF (btf.h).  The layout is
 * that of <linux/btf.h>: struct btf_header, then at type_off the types,
 * each a struct btf_type followed by data whose size its kind and vlen
 * give, and at str_off the NUL-terminated names.  A struct's members are
 * struct btf_member: their offset is in bits, and with the type's
 * kind_flag the top 8 bits are a bitfield's size.  Every byte is read
 * through the caller's function, bounds checked first. */
#include <linux/btf.h>
#include <stdint.h>
#include <string.h>
#include "kernel/btf.h"

#define NAME_MAX_LEN 63

struct blob {
	btf_read_fn *read;
	void *arg;
	size_t types, types_len, strs, strs_len;	/* offsets in the blob */
};

/* Does name @off of the string section equal @want? */
static int name_is(const struct blob *b, uint32_t off, const char *want)
{
	char got[NAME_MAX_LEN + 1];
	size_t n = strlen(want);

	return n <= NAME_MAX_LEN && off < b->strs_len && b->strs_len - off > n &&
	       b->read(b->arg, b->strs + off, got, n + 1) == 0 && memcmp(got, want, n) == 0 &&
	       got[n] == '\0';
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

/* In the members at @m (@vlen of them, in bounds) of a struct whose
 * kind_flag is @kflag: @member's byte offset. */
static int find_member(const struct blob *b, size_t m, uint32_t vlen, int kflag,
		       const char *member, size_t *off)
{
	uint32_t i, w[3];

	for (i = 0; i < vlen; i++, m += 12) {
		if (b->read(b->arg, m, w, sizeof(w)) < 0)
			return -1;
		if (!name_is(b, w[0], member))
			continue;
		if (kflag && (w[2] >> 24) != 0)
			return -1;	/* a bitfield */
		if (kflag)
			w[2] &= 0xffffff;
		if (w[2] % 8)
			return -1;
		*off = w[2] / 8;
		return 0;
	}
	return -1;
}

/* The type at *@at of the type section into @t (name, info, size/type),
 * its kind and vlen, and *@at past it: 1, 0 at the end of the section, or
 * -1 when it cannot be read or is of a kind this parser does not know. */
static int next_type(const struct blob *b, size_t *at, uint32_t t[3], unsigned *kind,
		     uint32_t *vlen)
{
	long extra;

	if (b->types_len - *at < 12)
		return 0;
	if (b->read(b->arg, b->types + *at, t, 3 * sizeof(uint32_t)) < 0)
		return -1;
	*vlen = t[1] & 0xffff;
	*kind = (t[1] >> 24) & 0x1f;
	extra = extra_size(*kind, *vlen);
	if (extra < 0 || (size_t)extra > b->types_len - *at - 12)
		return -1;
	*at += 12 + (size_t)extra;
	return 1;
}

static int find_struct(const struct blob *b, const char *strct, const char *member,
		       size_t *off)
{
	size_t at = 0, start = 0;
	uint32_t t[3], vlen;
	unsigned kind;

	while (next_type(b, &at, t, &kind, &vlen) == 1) {
		if (kind == BTF_KIND_STRUCT && vlen && name_is(b, t[0], strct))
			return find_member(b, b->types + start + 12, vlen, (int)(t[1] >> 31),
					   member, off);
		start = at;
	}
	return -1;
}

/* The blob's sections into @b: 0, or -1 when its header is not sound. */
static int open_blob(btf_read_fn *read, void *arg, size_t len, struct blob *b)
{
	uint32_t h[6];		/* magic, version, flags; hdr_len; types; strings */
	uint16_t magic;

	b->read = read;
	b->arg = arg;
	if (len < sizeof(h) || read(arg, 0, h, sizeof(h)) < 0)
		return -1;
	memcpy(&magic, h, sizeof(magic));
	if (magic != BTF_MAGIC || h[1] < sizeof(h) || h[1] > len)
		return -1;
	len -= h[1];
	if (h[2] > len || h[3] > len - h[2] || h[4] > len || h[5] > len - h[4])
		return -1;
	b->types = h[1] + (size_t)h[2];
	b->types_len = h[3];
	b->strs = h[1] + (size_t)h[4];
	b->strs_len = h[5];
	return 0;
}

int btf_member_offset_read(btf_read_fn *read, void *arg, size_t len, const char *strct,
			   const char *member, size_t *off)
{
	struct blob b;

	if (open_blob(read, arg, len, &b) < 0)
		return -1;
	return find_struct(&b, strct, member, off);
}

/* The id of the first type of @kind named @name (ids count from 1, the
 * first type of the section; 0 is void). */
static int find_type(const struct blob *b, unsigned want, const char *name, uint32_t *id)
{
	size_t at = 0;
	uint32_t t[3], vlen, n;
	unsigned kind;

	for (n = 1; n < UINT32_MAX && next_type(b, &at, t, &kind, &vlen) == 1; n++)
		if (kind == want && name_is(b, t[0], name)) {
			*id = n;
			return 0;
		}
	return -1;
}

struct mem {
	const unsigned char *p;
	size_t len;
};

static int mem_read(void *arg, size_t at, void *buf, size_t len)
{
	const struct mem *m = arg;

	if (at > m->len || len > m->len - at)
		return -1;
	memcpy(buf, m->p + at, len);
	return 0;
}

int btf_member_offset(const void *buf, size_t len, const char *strct, const char *member,
		      size_t *off)
{
	struct mem m = { buf, len };

	return btf_member_offset_read(mem_read, &m, len, strct, member, off);
}

int btf_type_id(const void *buf, size_t len, unsigned kind, const char *name, uint32_t *id)
{
	struct mem m = { buf, len };
	struct blob b;

	if (open_blob(mem_read, &m, len, &b) < 0)
		return -1;
	return find_type(&b, kind, name, id);
}
