/* SPDX-License-Identifier: MIT */
/* inprobe.c: the files a cgroup opens for reading, from a program at the
 * entry of security_file_open(struct file *) (see inprobe.h): fentry
 * (5.5) where the kernel has it, else a kprobe (4.17).  The program,
 * assembled here (bpfasm.h), reads through the file: f_mode, f_flags and
 * f_inode; the inode's i_mode, i_ino, i_size and i_sb; the super block's
 * s_dev and s_magic, at offsets the kernel's BTF gives.  It keeps an open
 * by a process of the cgroup (a cgroup array's one entry) when f_mode has
 * FMODE_READ and not FMODE_EXEC, f_flags has neither O_TRUNC nor
 * __FMODE_EXEC, and the inode is a regular file; it stores {size, magic}
 * under {dev, ino}, only if there is none (the first open's size).  A store refused for lack of room counts
 * in a second map, and the figures become a lower bound. */
#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "kernel/bpfasm.h"
#include "kernel/btf.h"
#include "kernel/inprobe.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"
#define HOOK "security_file_open"
#define BTF_MAX (64u << 20)
/* Distinct files a run can note; past them, a lower bound.  The map is
 * made whole at once (9 to 15 ms here): one that allocates its slots as
 * they come (BPF_F_NO_PREALLOC) refused a store when the kernel's per-CPU
 * cache of them ran dry, and a file of the task was missed, in one run
 * of five in the VM. */
#define INPROBE_SLOTS 32768
#define FMODE_READ_BIT 0x1
#define FMODE_EXEC_BIT 0x20		/* f_mode's FMODE_EXEC, f_flags's __FMODE_EXEC */
#define S_IFMT_BITS 0170000
#define S_IFREG_BITS 0100000
#define KDEV_MINOR_BITS 20		/* the kernel's dev_t: major << 20 | minor */

enum { L_OUT, L_MISS };

/* The members read, in the order of enum off. */
enum off { F_MODE, F_FLAGS, F_INODE, I_MODE, I_INO, I_SIZE, I_SB, S_DEV, S_MAGIC, NOFFS };
static const char *const member[NOFFS][2] = {
	{ "file", "f_mode" }, { "file", "f_flags" }, { "file", "f_inode" },
	{ "inode", "i_mode" }, { "inode", "i_ino" }, { "inode", "i_size" },
	{ "inode", "i_sb" }, { "super_block", "s_dev" }, { "super_block", "s_magic" },
};

/* A slot, as the program stores it: under the file's device (the
 * kernel's dev_t in the low half) and inode number, not the inode's
 * address, which an inode evicted and another read in may reuse (9p,
 * with no cache, makes an inode at each open). */
struct slot_key {
	uint64_t dev, ino;
};

struct slot_value {
	uint64_t size, magic;
};

enum inprobe_source { INPROBE_FENTRY, INPROBE_KPROBE };

struct tp_inprobe {
	enum inprobe_source source;
	int map;		/* struct slot_key -> struct slot_value */
	int miss;		/* an array of one: stores refused */
	int cgroup;		/* a cgroup array of one: the tree's cgroup */
	int prog, link;
};

/* probe_read(fp + @at, @len, r@src + @off); out unless it read */
static void read_to(struct bpfasm *p, int16_t at, int32_t len, int src, int32_t off,
		    int probe_read)
{
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, (uint8_t)src, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, off);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_10, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, at);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, len);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, probe_read);
	bpfasm_jump(p, BPF_JNE, BPF_REG_0, 0, L_OUT);
}

/* r1 = the u32 at fp + @at, read at r@src + @off; out unless it read */
static void read_u32(struct bpfasm *p, int16_t at, int src, int32_t off, int probe_read)
{
	read_to(p, at, 4, src, off, probe_read);
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_10, at, 0);
}

/* Out unless the opener is a process of the cgroup (1), or the array is
 * still empty (-EAGAIN, at the self-check). */
static void emit_cgroup_check(struct bpfasm *p, int cgroup)
{
	bpfasm_emit(p, BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, cgroup);
	bpfasm_emit(p, 0, 0, 0, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 0);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_current_task_under_cgroup);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_0, 0, L_OUT);
}

/* The file in r8: out unless it is opened for reading, not truncated,
 * not an exec's; its inode's address into r9. */
static void emit_file(struct bpfasm *p, const size_t *o, int probe_read)
{
	read_u32(p, -8, BPF_REG_8, (int32_t)o[F_MODE], probe_read);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_1, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_2, 0, 0, FMODE_READ_BIT);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_2, 0, L_OUT);
	bpfasm_emit(p, BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_1, 0, 0, FMODE_EXEC_BIT);
	bpfasm_jump(p, BPF_JNE, BPF_REG_1, 0, L_OUT);
	read_u32(p, -8, BPF_REG_8, (int32_t)o[F_FLAGS], probe_read);
	bpfasm_emit(p, BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_1, 0, 0, O_TRUNC | FMODE_EXEC_BIT);
	bpfasm_jump(p, BPF_JNE, BPF_REG_1, 0, L_OUT);
	read_to(p, -16, 8, BPF_REG_8, (int32_t)o[F_INODE], probe_read);
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_9, BPF_REG_10, -16, 0);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_9, 0, L_OUT);
}

/* The inode in r9: out unless it is a regular file; the key {dev, ino}
 * at fp - 32, the value {size, magic} at fp - 48. */
static void emit_inode(struct bpfasm *p, const size_t *o, int probe_read)
{
	bpfasm_emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -56, 0);
	read_to(p, -56, 2, BPF_REG_9, (int32_t)o[I_MODE], probe_read);
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_H, BPF_REG_1, BPF_REG_10, -56, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_1, 0, 0, S_IFMT_BITS);
	bpfasm_jump(p, BPF_JNE, BPF_REG_1, S_IFREG_BITS, L_OUT);
	read_to(p, -24, 8, BPF_REG_9, (int32_t)o[I_INO], probe_read);
	read_to(p, -48, 8, BPF_REG_9, (int32_t)o[I_SIZE], probe_read);
	read_to(p, -64, 8, BPF_REG_9, (int32_t)o[I_SB], probe_read);
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_10, -64, 0);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_7, 0, L_OUT);
	bpfasm_emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -32, 0);
	read_to(p, -32, 4, BPF_REG_7, (int32_t)o[S_DEV], probe_read);
	read_to(p, -40, 8, BPF_REG_7, (int32_t)o[S_MAGIC], probe_read);
}

/* Registers: r6 the context (fentry: the arguments, u64 each; kprobe:
 * pt_regs, the first argument at @arg1), r8 the file, r9 its inode, r7
 * the super block. */
static void assemble(struct bpfasm *p, const struct tp_inprobe *ip, const size_t *o,
		     int arg1, int probe_read)
{
	memset(p, 0, sizeof(*p));
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	emit_cgroup_check(p, ip->cgroup);
	if (ip->source == INPROBE_FENTRY) {	/* read as a number, not a typed pointer */
		read_to(p, -72, 8, BPF_REG_6, 0, probe_read);
		bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_8, BPF_REG_10, -72, 0);
	} else {
		bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_8, BPF_REG_6,
			    (int16_t)arg1, 0);
	}
	bpfasm_jump(p, BPF_JEQ, BPF_REG_8, 0, L_OUT);
	emit_file(p, o, probe_read);
	emit_inode(p, o, probe_read);
	bpfasm_map_update(p, ip->map, -32, -48, BPF_NOEXIST);
	/* the helper's int, sign-extended (6.1 gives -EEXIST's low 32 bits) */
	bpfasm_emit(p, BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_0, 0, 0, 32);
	bpfasm_emit(p, BPF_ALU64 | BPF_ARSH | BPF_K, BPF_REG_0, 0, 0, 32);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_0, 0, L_OUT);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_0, -EEXIST, L_OUT);
	/* refused (full): count it */
	bpfasm_emit(p, BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0);
	bpfasm_map_lookup(p, ip->miss, -4, L_OUT);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1);
	bpfasm_emit(p, BPF_STX | BPF_XADD | BPF_DW, BPF_REG_0, BPF_REG_1, 0, 0);
	bpfasm_place(p, L_OUT);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	bpfasm_emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	bpfasm_link(p);
}

/* The kernel's BTF, read whole: NULL when there is none.  *@len set. */
static void *read_btf(size_t *len)
{
	int fd = open(BTF_PATH, O_RDONLY | O_CLOEXEC);
	size_t cap = 8u << 20, n = 0;
	unsigned char *b;
	ssize_t r;

	if (fd < 0)
		return NULL;
	b = xmalloc(cap);
	while ((r = read(fd, b + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap && cap < BTF_MAX) {
			cap *= 2;
			b = xreallocarray(b, cap, 1);
		} else if (n == cap) {
			break;
		}
	}
	close(fd);
	if (r < 0 || n == 0) {
		free(b);
		return NULL;
	}
	*len = n;
	return b;
}

/* The members' offsets into @o, and security_file_open's type id into
 * *@func (0: none, no fentry): 0, or -1 with @why. */
static int offsets(size_t *o, uint32_t *func, char *why, size_t size)
{
	size_t len = 0, i;
	void *b = read_btf(&len);
	int rc = 0;

	if (!b) {
		snprintf(why, size, "input probe BPF: no kernel BTF (%s)", BTF_PATH);
		return -1;
	}
	for (i = 0; i < NOFFS && rc == 0; i++)
		if (btf_member_offset(b, len, member[i][0], member[i][1], &o[i]) < 0 ||
		    o[i] > INT16_MAX) {
			snprintf(why, size, "input probe BPF: no %s.%s in %s", member[i][0],
				 member[i][1], BTF_PATH);
			rc = -1;
		}
	if (btf_type_id(b, len, BTF_KIND_FUNC, HOOK, func) < 0)
		*func = 0;
	free(b);
	return rc;
}

static int make_maps(struct tp_inprobe *ip)
{
	ip->map = bpfasm_map_create(BPF_MAP_TYPE_HASH, sizeof(struct slot_key),
				    sizeof(struct slot_value), INPROBE_SLOTS);
	ip->miss = bpfasm_map_create(BPF_MAP_TYPE_ARRAY, sizeof(uint32_t), sizeof(uint64_t), 1);
	ip->cgroup = bpfasm_map_create(BPF_MAP_TYPE_CGROUP_ARRAY, sizeof(uint32_t),
				       sizeof(uint32_t), 1);
	return ip->map < 0 || ip->miss < 0 || ip->cgroup < 0 ? -1 : 0;
}

static int load_kprobe(struct tp_inprobe *ip, const size_t *o, char *why, size_t size)
{
	struct bpfasm_regs regs;
	struct bpfasm p;
	struct utsname u;
	uint32_t version;
	int type, retbit;

	if (bpfasm_kprobe_pmu(&type, &retbit, &regs, why, size) < 0)
		return -1;
	version = uname(&u) == 0 ? bpfasm_kversion(u.release) : 0;
	assemble(&p, ip, o, regs.arg1, BPF_FUNC_probe_read_kernel);
	ip->prog = bpfasm_load_version(&p, BPF_PROG_TYPE_KPROBE, 0, version, "inprobe");
	if (ip->prog < 0 && errno == EINVAL) {	/* before 5.5 */
		assemble(&p, ip, o, regs.arg1, BPF_FUNC_probe_read);
		ip->prog = bpfasm_load_version(&p, BPF_PROG_TYPE_KPROBE, 0, version, "inprobe");
	}
	if (ip->prog >= 0)
		ip->link = bpfasm_kprobe_attach(type, retbit, false, HOOK, ip->prog);
	if (ip->prog < 0 || ip->link < 0) {
		snprintf(why, size, "input probe BPF (kprobe %s%s): %s", HOOK,
			 ip->prog < 0 ? ", its program" : "", strerror(errno));
		return -1;
	}
	return 0;
}

static int load_fentry(struct tp_inprobe *ip, const size_t *o, uint32_t func, char *why,
		       size_t size)
{
	struct bpfasm p;

	assemble(&p, ip, o, 0, BPF_FUNC_probe_read_kernel);
	ip->prog = bpfasm_load_fentry(&p, func, "inprobe");
	if (ip->prog >= 0)
		ip->link = bpfasm_fentry_attach(ip->prog);
	if (ip->prog < 0 || ip->link < 0) {
		snprintf(why, size, "input probe BPF (fentry %s%s): %s", HOOK,
			 ip->prog < 0 ? ", its program" : "", strerror(errno));
		return -1;
	}
	return 0;
}

/* At the function's entry (fentry) where the kernel has it, else a
 * kprobe; TPMON_INPROBE=kprobe keeps to the kprobe (to test it). */
static int load_attach(struct tp_inprobe *ip, const size_t *o, uint32_t func, char *why,
		       size_t size)
{
	const char *env = getenv("TPMON_INPROBE");
	char first[256] = "";

	if (func && !(env && strcmp(env, "kprobe") == 0)) {
		ip->source = INPROBE_FENTRY;
		if (load_fentry(ip, o, func, first, sizeof(first)) == 0)
			return 0;
		if (ip->prog >= 0)
			close(ip->prog);
		ip->prog = -1;
	}
	ip->source = INPROBE_KPROBE;
	if (load_kprobe(ip, o, why, size) == 0)
		return 0;
	if (first[0]) {
		char second[512];

		snprintf(second, sizeof(second), "%s", why);
		snprintf(why, size, "%s; %s", first, second);
	}
	return -1;
}

/* The next key after @key (NULL: the first) into @next: 0, or -1. */
static int next_key(const struct tp_inprobe *ip, const struct slot_key *key,
		    struct slot_key *next)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)ip->map;
	a.key = (uint64_t)(uintptr_t)key;
	a.next_key = (uint64_t)(uintptr_t)next;
	return (int)bpfasm_sys(BPF_MAP_GET_NEXT_KEY, &a);
}

static int lookup(int map, const void *key, void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)map;
	a.key = (uint64_t)(uintptr_t)key;
	a.value = (uint64_t)(uintptr_t)value;
	return (int)bpfasm_sys(BPF_MAP_LOOKUP_ELEM, &a);
}

static void to_file(const struct slot_key *k, const struct slot_value *v,
		    struct tp_inprobe_file *f)
{
	uint32_t kdev = (uint32_t)k->dev;

	f->dev = makedev(kdev >> KDEV_MINOR_BITS, kdev & ((1u << KDEV_MINOR_BITS) - 1));
	f->ino = k->ino;
	f->size = v->size;
	f->fs_magic = v->magic;
}

bool inprobe_each(const struct tp_inprobe *ip,
		  void (*fn)(void *arg, const struct tp_inprobe_file *f), void *arg)
{
	struct slot_key key, next;
	const struct slot_key *at = NULL;
	uint64_t missed = 0;
	struct slot_value v;
	struct tp_inprobe_file f;
	uint32_t zero = 0;

	if (!ip)
		return false;
	while (next_key(ip, at, &next) == 0) {
		key = next;
		at = &key;
		if (lookup(ip->map, &key, &v) == 0) {
			to_file(&key, &v, &f);
			fn(arg, &f);
		}
	}
	if (lookup(ip->miss, &zero, &missed) < 0) {
		debug_msg("input probe: its count of refused files: %s", strerror(errno));
		return false;
	}
	if (missed)
		debug_msg("input probe: %lu files not noted (the map was full)",
			  (unsigned long)missed);
	return missed == 0;
}

/* Was tpmon's own open of its program, with the array empty, noted as
 * fstat() sees it, with a file system magic?  The offsets are then right.
 * (Not the magic itself: on 9p, statfs() gives the server's file system,
 * ext4's, where the super block holds 9p's.) */
struct self_seen {
	struct stat st;
	long magic;
	bool seen;
	unsigned long noted;
	struct tp_inprobe_file near;	/* one of the same inode number */
};

static void self_match(void *arg, const struct tp_inprobe_file *f)
{
	struct self_seen *s = arg;

	s->noted++;
	if (f->ino == (uint64_t)s->st.st_ino)
		s->near = *f;
	if (f->dev == s->st.st_dev && f->ino == (uint64_t)s->st.st_ino &&
	    f->size == (uint64_t)s->st.st_size && f->fs_magic != 0)
		s->seen = true;
}

static bool self_check(const struct tp_inprobe *ip)
{
	struct self_seen s;
	struct statfs sf;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	memset(&s, 0, sizeof(s));
	if (fd < 0)
		return false;
	if (fstat(fd, &s.st) == 0 && S_ISREG(s.st.st_mode) && fstatfs(fd, &sf) == 0) {
		s.magic = (long)sf.f_type;
		inprobe_each(ip, self_match, &s);
	}
	close(fd);
	if (!s.seen)
		debug_msg("input probe: %lu files noted, not tpmon's (dev %lx ino %lu size %lu "
			  "magic %lx); of its inode number: dev %lx size %lu magic %lx", s.noted,
			  (unsigned long)s.st.st_dev, (unsigned long)s.st.st_ino,
			  (unsigned long)s.st.st_size, (unsigned long)s.magic,
			  (unsigned long)s.near.dev, (unsigned long)s.near.size,
			  (unsigned long)s.near.fs_magic);
	return s.seen;
}

/* Only the processes of cgroup @dir count from now on; what was noted
 * before (tpmon's, the machine's) is dropped. */
static int set_cgroup(struct tp_inprobe *ip, const char *dir)
{
	uint32_t key = 0;
	struct slot_key k;
	uint64_t none = 0;
	union bpf_attr a;
	int rc = bpfasm_cgroup_array_set(ip->cgroup, dir);

	/* the machine's opens may have filled the map meanwhile */
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)ip->miss;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)&none;
	if (rc == 0)
		rc = (int)bpfasm_sys(BPF_MAP_UPDATE_ELEM, &a);
	while (rc == 0 && next_key(ip, NULL, &k) == 0) {
		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)ip->map;
		a.key = (uint64_t)(uintptr_t)&k;
		if (bpfasm_sys(BPF_MAP_DELETE_ELEM, &a) < 0)
			rc = -1;
	}
	return rc;
}

struct tp_inprobe *inprobe_open(const char *dir, char *why, size_t size)
{
	struct tp_inprobe *ip = xcalloc(1, sizeof(*ip));
	size_t o[NOFFS];
	struct rlimit old;
	uint32_t func;
	bool raised;
	int rc = -1;

	ip->map = ip->miss = ip->cgroup = ip->prog = ip->link = -1;
	if (offsets(o, &func, why, size) < 0) {
		free(ip);
		return NULL;
	}
	raised = bpfasm_memlock_raise(&old);
	if (make_maps(ip) < 0)
		snprintf(why, size, "input probe BPF (maps): %s", strerror(errno));
	else
		rc = load_attach(ip, o, func, why, size);
	if (raised)
		setrlimit(RLIMIT_MEMLOCK, &old);
	if (rc == 0 && !self_check(ip)) {
		snprintf(why, size, "input probe BPF: tpmon's own open was not seen as "
			 "fstat() sees it (the kernel's layout?)");
		rc = -1;
	} else if (rc == 0 && set_cgroup(ip, dir) < 0) {
		snprintf(why, size, "input probe BPF: %s: %s", dir, strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		return ip;
	inprobe_free(ip);
	return NULL;
}

void inprobe_free(struct tp_inprobe *ip)
{
	if (!ip)
		return;
	if (ip->source == INPROBE_KPROBE)
		bpfasm_close_all(&ip->link, 1);
	else if (ip->link >= 0)
		close(ip->link);
	if (ip->prog >= 0)
		close(ip->prog);
	if (ip->map >= 0)
		close(ip->map);
	if (ip->miss >= 0)
		close(ip->miss);
	if (ip->cgroup >= 0)
		close(ip->cgroup);
	free(ip);
}
