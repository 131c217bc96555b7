/* SPDX-License-Identifier: MIT */
/* test-btf.c: unit tests of kernel/btf.c, a member's offset
 * from the kernel's BTF, on blobs built here as the kernel lays them out
 * (<linux/btf.h>): an int, a typedef, an array, an enum, a function
 * prototype and a forward declaration of task_struct before the struct
 * itself, whose tgid is then found at its byte offset; the same with
 * kind_flag members (bit offset in the low 24 bits), a bitfield member
 * (refused), a member not byte-aligned (refused), an unknown kind before
 * the struct (nothing after it can be found), a longer header, a wrong
 * magic, lying section lengths, every truncation of a good blob, and an
 * odd address.  On this machine's own BTF, where it can be read, tgid
 * comes 4 bytes after pid, as in every kernel's task_struct. */
#include <linux/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/btf.h"
#include "tap.h"

static unsigned char blob[1024];
static size_t used;
static char strs[256];
static size_t nstrs;

static uint32_t str(const char *s)
{
	uint32_t at = (uint32_t)nstrs;

	memcpy(strs + nstrs, s, strlen(s) + 1);
	nstrs += strlen(s) + 1;
	return at;
}

static void u32(uint32_t v)
{
	memcpy(blob + used, &v, 4);
	used += 4;
}

static void type(uint32_t name, unsigned kind, int kflag, uint32_t vlen, uint32_t size)
{
	u32(name);
	u32(vlen | (uint32_t)kind << 24 | (uint32_t)(kflag ? 1u << 31 : 0));
	u32(size);
}

/* Types in blob + 24, then the strings; the header written last. */
static void begin(void)
{
	memset(blob, 0, sizeof(blob));
	memset(strs, 0, sizeof(strs));
	used = 24;
	nstrs = 1;	/* "" at 0 */
}

static size_t finish(uint32_t hdr_len, uint16_t magic)
{
	uint32_t type_len = (uint32_t)(used - 24);
	unsigned char h[24];

	memcpy(blob + used, strs, nstrs);
	used += nstrs;
	memset(h, 0, sizeof(h));
	memcpy(h, &magic, 2);
	h[2] = 1;
	memcpy(h + 4, &hdr_len, 4);
	memcpy(h + 12, &type_len, 4);
	memcpy(h + 16, &type_len, 4);	/* str_off */
	memcpy(h + 20, &nstrs, 4);
	memcpy(blob, h, sizeof(h));
	return used;
}

/* The usual run of types, then task_struct with @kflag and tgid's
 * offset word @tgid_bits; @unknown puts an unknown kind before it. */
static size_t build(int kflag, uint32_t tgid_bits, int unknown)
{
	uint32_t ts;

	begin();
	ts = str("task_struct");
	type(str("int"), BTF_KIND_INT, 0, 0, 4);
	u32(32);
	type(str("pid_t"), BTF_KIND_TYPEDEF, 0, 0, 1);
	type(0, BTF_KIND_ARRAY, 0, 0, 0);
	u32(1), u32(1), u32(16);
	type(str("state"), BTF_KIND_ENUM, 0, 2, 4);
	u32(str("A")), u32(0), u32(str("B")), u32(1);
	type(0, BTF_KIND_FUNC_PROTO, 0, 1, 1);
	u32(0), u32(1);
	type(ts, BTF_KIND_FWD, 0, 0, 0);
	if (unknown)
		type(0, 31, 0, 0, 0);
	type(ts, BTF_KIND_STRUCT, kflag, 3, 2400);
	u32(str("state")), u32(1), u32(0);
	u32(str("pid")), u32(2), u32(2368 * 8);
	u32(str("tgid")), u32(2), u32(tgid_bits);
	type(str("security_file_open"), BTF_KIND_FUNC, 0, 0, 5);
	return finish(24, BTF_MAGIC);
}

static int offset_of(const void *b, size_t n, const char *member, size_t *off)
{
	return btf_member_offset(b, n, "task_struct", member, off);
}

static void truncations(void)
{
	size_t full = build(0, 2372 * 8, 0), n, off, wrong = 0;

	for (n = 0; n < full; n++) {
		unsigned char *copy = malloc(n ? n : 1);

		memcpy(copy, blob, n);
		if (offset_of(copy, n, "tgid", &off) != -1)
			wrong++;
		free(copy);
	}
	is_int((long long)wrong, 0, "every truncation of the blob: -1");
}

/* What the input probe reads (src/kernel/inprobe.c), in this kernel. */
static void machine_inprobe(const unsigned char *b, size_t n)
{
	static const char *const want[][2] = {
		{ "file", "f_mode" }, { "file", "f_flags" }, { "file", "f_inode" },
		{ "inode", "i_mode" }, { "inode", "i_ino" }, { "inode", "i_size" },
		{ "inode", "i_sb" }, { "super_block", "s_dev" }, { "super_block", "s_magic" },
	};
	size_t i, off, found = 0;
	uint32_t id = 0;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		found += btf_member_offset(b, n, want[i][0], want[i][1], &off) == 0;
	is_int((long long)found, 9, "this kernel's BTF: the input probe's 9 members");
	if (btf_type_id(b, n, BTF_KIND_FUNC, "security_file_open", &id) < 0)
		id = 0;
	ok(id > 0, "this kernel's BTF: security_file_open is a function (type %u)", (unsigned)id);
}

static void machine(void)
{
	FILE *f = fopen("/sys/kernel/btf/vmlinux", "rb");
	size_t cap = 64u << 20, n, pid = 0, tgid = 0;
	unsigned char *b;
	int found;

	if (!f) {
		ok(1, "# SKIP no /sys/kernel/btf/vmlinux");
		ok(1, "# SKIP no /sys/kernel/btf/vmlinux");
		ok(1, "# SKIP no /sys/kernel/btf/vmlinux");
		return;
	}
	b = malloc(cap);
	n = fread(b, 1, cap, f);
	fclose(f);
	found = offset_of(b, n, "pid", &pid) == 0 && offset_of(b, n, "tgid", &tgid) == 0;
	ok(found && tgid == pid + 4,
	   "this kernel's BTF: task_struct's tgid (%zu) just after pid (%zu)", tgid, pid);
	machine_inprobe(b, n);
	free(b);
}

int main(void)
{
	unsigned char *odd = malloc(sizeof(blob) + 1);
	size_t n, off = 0;
	uint32_t id;

	plan(20);
	n = build(0, 2372 * 8, 0);
	is_int(offset_of(blob, n, "tgid", &off), 0, "tgid found");
	is_int((long long)off, 2372, "tgid at byte 2372");
	is_int(offset_of(blob, n, "comm", &off), -1, "no member comm: -1");
	is_int(btf_member_offset(blob, n, "mm_struct", "tgid", &off), -1, "no struct mm_struct: -1");
	memcpy(odd + 1, blob, n);
	off = 0;
	ok(offset_of(odd + 1, n, "tgid", &off) == 0 && off == 2372, "at an odd address");
	n = build(1, 2372 * 8, 0);
	ok(offset_of(blob, n, "tgid", &off) == 0 && off == 2372, "kind_flag: the bit offset's low 24 bits");
	n = build(1, 3u << 24 | 2372 * 8, 0);
	is_int(offset_of(blob, n, "tgid", &off), -1, "a bitfield: -1");
	n = build(0, 2372 * 8 + 3, 0);
	is_int(offset_of(blob, n, "tgid", &off), -1, "not byte-aligned: -1");
	n = build(0, 2372 * 8, 1);
	is_int(offset_of(blob, n, "tgid", &off), -1, "an unknown kind before the struct: -1");
	n = build(0, 2372 * 8, 0);
	blob[0] ^= 1;
	is_int(offset_of(blob, n, "tgid", &off), -1, "a wrong magic: -1");
	n = build(0, 2372 * 8, 0);
	memset(blob + 20, 0xff, 4);	/* str_len far past the end */
	is_int(offset_of(blob, n, "tgid", &off), -1, "a string section longer than the blob: -1");
	/* a header of 32 bytes (a newer kernel's), sections after it */
	n = build(0, 2372 * 8, 0);
	memmove(blob + 32, blob + 24, n - 24);
	memset(blob + 24, 0, 8);
	blob[4] = 32;
	ok(offset_of(blob, n + 8, "tgid", &off) == 0 && off == 2372, "a longer header");
	n = build(0, 2372 * 8, 0);
	id = 0;
	ok(btf_type_id(blob, n, BTF_KIND_FUNC, "security_file_open", &id) == 0 && id == 8,
	   "a function's type id: 8, after the 7 types before it");
	is_int(btf_type_id(blob, n, BTF_KIND_FUNC, "task_struct", &id), -1,
	       "a struct is not a function: -1");
	is_int(btf_type_id(blob, n, BTF_KIND_FUNC, "vfs_open", &id), -1, "no such function: -1");
	n = build(0, 2372 * 8, 1);
	is_int(btf_type_id(blob, n, BTF_KIND_FUNC, "security_file_open", &id), -1,
	       "a function after an unknown kind: -1");
	truncations();
	machine();
	free(odd);
	return done();
}
