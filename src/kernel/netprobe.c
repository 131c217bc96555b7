/* SPDX-License-Identifier: MIT */
/* netprobe.c: per-process IP socket bytes from BPF programs on the
 * socket calls (see netprobe.h).  Each program is a few dozen BPF
 * instructions assembled here (bpfasm.h) that adds a call's positive
 * result to the slot of the calling process (bpf_get_current_pid_tgid()
 * >> 32) with an atomic add, making the slot first if there is none.
 * Two sources, tried in this order (netprobe_sources()):
 *
 * The raw tracepoints sock_send_length and sock_recv_length (6.4): the
 * program takes the result (args[1]; a receive with MSG_PEEK is not
 * counted) and reads the socket's family (struct sock_common's
 * skc_family, at offset 16 in every kernel since 2.6): AF_INET and
 * AF_INET6 only.
 *
 * Kprobes, on the kernels before (4.17 on, bpfasm_kprobe_attach()):
 * kretprobes on the functions that sock_sendmsg() and sock_recvmsg()
 * call through the socket's proto_ops, inet_sendmsg and inet_recvmsg
 * (AF_INET; AF_INET6 too where the next two are missing, as in upstream
 * 4.18) and inet6_sendmsg and inet6_recvmsg (AF_INET6, where they
 * exist: around 5.0 on), whose return value is the very
 * result the tracepoints pass (they are called through the ops table or
 * INDIRECT_CALL_INET, so never inlined; the family is the function's).
 * tcptop's tcp_sendmsg and tcp_cleanup_rbuf were not chosen: the one's
 * size is what was asked, not what was sent, and neither sees UDP.  A
 * MSG_PEEK receive is told by a kprobe at inet_recvmsg's and
 * inet6_recvmsg's entry (flags, the fourth argument), which marks the
 * thread (its pid_tgid) in a second map; the kretprobe drops a marked
 * thread's mark and counts nothing.  A kretprobe has a fixed number of
 * instances (max(10, 2 x CPUs), not settable through the PMU): when more
 * threads are inside the calls at once, the kernel misses the returns of
 * the others (see doc/INTERNALS.md). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "kernel/bpfasm.h"
#include "kernel/netprobe.h"

enum { SLOT_SENT, SLOT_RECEIVED, NSLOTS };
enum { L_OUT, L_FAM, L_NEW, L_GO };
/* the programs: one per tracepoint; or the kretprobes' two and the entry's */
enum { P_SEND, P_RECV, P_PEEK, NPROGS };
#define NLINKS 8

/* Slots: processes of the machine that used an IP socket between two
 * reads, twice over; least recently used ones go first when full. */
#define NETPROBE_SLOTS 16384
#define SKC_FAMILY_OFF 16	/* offsetof(struct sock_common, skc_family) */
#define MSG_PEEK_FLAG 2
/* threads inside a MSG_PEEK receive at once */
#define PEEK_SLOTS 4096

static const char *const tracepoint[NSLOTS] = { "sock_send_length", "sock_recv_length" };

/* The kprobes, in the order attached (a receive's entry before its
 * return); the inet6_ ones only where the kernel has them. */
static const struct kfunc {
	const char *name;
	int prog;
	bool needed;
} kfunc[] = {
	{ "inet_recvmsg", P_PEEK, true },
	{ "inet6_recvmsg", P_PEEK, false },
	{ "inet_recvmsg", P_RECV, true },
	{ "inet6_recvmsg", P_RECV, false },
	{ "inet_sendmsg", P_SEND, true },
	{ "inet6_sendmsg", P_SEND, false },
};

struct slot_value {
	uint64_t bytes[NSLOTS];
};

struct tp_netprobe {
	int map;
	int peek;			/* kprobes: threads in a MSG_PEEK receive */
	int cgroup;			/* a cgroup array: the tree's cgroup, or -1 */
	int prog[NPROGS];
	int link[NLINKS];		/* the raw tracepoints' or perf events' */
	enum netprobe_source source;
	uint64_t ended[NSLOTS];		/* bytes of the tree's ended processes */
	uint32_t *stale;		/* owned: slots of no live process last time */
	size_t nstale;
	bool full;			/* the map came near its size */
};

/* r1 = map, r2 = fp - 16 (the key); lookup; if found, add r7 to its
 * @slot atomically and go out; else on to @none. */
static void add_to_slot(struct bpfasm *p, int map, int slot, int none)
{
	bpfasm_map_lookup(p, map, -16, none);
	bpfasm_emit(p, BPF_STX | BPF_XADD | BPF_DW, BPF_REG_0, BPF_REG_7,
		    (int16_t)(slot * 8), 0);
	bpfasm_jump(p, BPF_JA, 0, 0, L_OUT);
}

/* From L_FAM on, with the bytes in r7: add them to the caller's @slot. */
static void emit_count(struct bpfasm *p, int map, int cgroup, int slot)
{
	bpfasm_place(p, L_FAM);
	if (cgroup >= 0) {
		/* not a process of the cgroup (0): out; 1, or the array
		 * still empty (-EAGAIN, at the self-check): counted */
		bpfasm_emit(p, BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, cgroup);
		bpfasm_emit(p, 0, 0, 0, 0, 0);
		bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 0);
		bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_current_task_under_cgroup);
		bpfasm_jump(p, BPF_JEQ, BPF_REG_0, 0, L_OUT);
	}
	/* the key, the caller's thread-group id, at fp - 16 */
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid);
	bpfasm_emit(p, BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_0, 0, 0, 32);
	bpfasm_emit(p, BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_0, -16, 0);
	add_to_slot(p, map, slot, L_NEW);
	/* no slot yet: make one holding these bytes (another CPU may make
	 * it meanwhile: then add to that one) */
	bpfasm_place(p, L_NEW);
	bpfasm_emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -32, 0);
	bpfasm_emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -24, 0);
	bpfasm_emit(p, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_7,
		    (int16_t)(-32 + slot * 8), 0);
	bpfasm_map_update(p, map, -16, -32, BPF_NOEXIST);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_0, 0, L_OUT);
	add_to_slot(p, map, slot, L_OUT);
	bpfasm_place(p, L_OUT);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	bpfasm_emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	bpfasm_link(p);
}

/* r7 = the int at r6 + @off, sign-extended; nothing moved unless > 0. */
static void emit_result(struct bpfasm *p, int16_t off)
{
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_6, off, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_7, 0, 0, 32);
	bpfasm_emit(p, BPF_ALU64 | BPF_ARSH | BPF_K, BPF_REG_7, 0, 0, 32);
	bpfasm_jump(p, BPF_JSLE, BPF_REG_7, 0, L_OUT);
}

/* The tracepoint's program of @slot, reading kernel memory with helper
 * @probe_read.  Registers: r6 the tracepoint's arguments, r7 the bytes. */
static void assemble(struct bpfasm *p, int map, int cgroup, int slot, int probe_read)
{
	memset(p, 0, sizeof(*p));
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	emit_result(p, 8);
	if (slot == SLOT_RECEIVED) {
		bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_6, 16, 0);
		bpfasm_emit(p, BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_1, 0, 0, MSG_PEEK_FLAG);
		bpfasm_jump(p, BPF_JNE, BPF_REG_1, 0, L_OUT);
	}
	/* the socket's family, read into fp - 8 */
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, BPF_REG_6, 0, 0);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_3, 0, L_OUT);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, SKC_FAMILY_OFF);
	bpfasm_emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -8, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_10, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, -8);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 2);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, probe_read);
	bpfasm_jump(p, BPF_JNE, BPF_REG_0, 0, L_OUT);
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_H, BPF_REG_1, BPF_REG_10, -8, 0);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_1, AF_INET, L_FAM);
	bpfasm_jump(p, BPF_JNE, BPF_REG_1, AF_INET6, L_OUT);
	emit_count(p, map, cgroup, slot);
}

/* The kretprobes' program of @slot (pt_regs in r6, the bytes in r7):
 * the return value; for a receive, first the thread's MSG_PEEK mark,
 * dropped if there is one, and then nothing is counted. */
static void assemble_ret(struct bpfasm *p, const struct tp_netprobe *np, int slot,
			 const struct bpfasm_regs *regs)
{
	memset(p, 0, sizeof(*p));
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	if (slot == SLOT_RECEIVED) {
		bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid);
		bpfasm_emit(p, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_0, -8, 0);
		bpfasm_map_lookup(p, np->peek, -8, L_GO);
		bpfasm_map_delete(p, np->peek, -8);
		bpfasm_jump(p, BPF_JA, 0, 0, L_OUT);
		bpfasm_place(p, L_GO);
	}
	emit_result(p, (int16_t)regs->ret);
	emit_count(p, np->map, np->cgroup, slot);
}

/* The receives' entry: mark the thread when flags has MSG_PEEK. */
static void assemble_peek(struct bpfasm *p, int peek, const struct bpfasm_regs *regs)
{
	memset(p, 0, sizeof(*p));
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_6, BPF_REG_1, (int16_t)regs->arg4, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_6, 0, 0, MSG_PEEK_FLAG);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_6, 0, L_OUT);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid);
	bpfasm_emit(p, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_0, -8, 0);
	bpfasm_emit(p, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_6, -16, 0);
	bpfasm_map_update(p, peek, -8, -16, BPF_ANY);
	bpfasm_place(p, L_OUT);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	bpfasm_emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	bpfasm_link(p);
}

/* The slots: kept to a cgroup, only the tree's processes make one, and
 * a map that allocates them as they come is made at once (6.1); else
 * LRU, whose least recently used slots (of other processes of the
 * machine) go first.  Either way a map near full makes the figures
 * lower bounds (np->full). */
static int make_map(const struct tp_netprobe *np)
{
	int fd = np->cgroup >= 0 ? bpfasm_map_create_lazy(sizeof(uint32_t),
							  sizeof(struct slot_value), NETPROBE_SLOTS) : -1;

	if (fd >= 0)
		return fd;
	fd = bpfasm_map_create(BPF_MAP_TYPE_LRU_HASH, sizeof(uint32_t),
			       sizeof(struct slot_value), NETPROBE_SLOTS);

	if (fd < 0 && errno == EINVAL)	/* before 4.10 */
		fd = bpfasm_map_create(BPF_MAP_TYPE_HASH, sizeof(uint32_t),
				       sizeof(struct slot_value), NETPROBE_SLOTS);
	return fd;
}

/* Load and attach the program of @slot: bpf_probe_read_kernel (5.5),
 * else bpf_probe_read. */
static int load_attach(struct tp_netprobe *np, int slot)
{
	struct bpfasm p;
	union bpf_attr a;

	assemble(&p, np->map, np->cgroup, slot, BPF_FUNC_probe_read_kernel);
	np->prog[slot] = bpfasm_load(&p, BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "netprobe");
	if (np->prog[slot] < 0 && errno == EINVAL) {
		assemble(&p, np->map, np->cgroup, slot, BPF_FUNC_probe_read);
		np->prog[slot] = bpfasm_load(&p, BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "netprobe");
	}
	if (np->prog[slot] < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.name = (uint64_t)(uintptr_t)tracepoint[slot];
	a.raw_tracepoint.prog_fd = (uint32_t)np->prog[slot];
	np->link[slot] = (int)bpfasm_sys(BPF_RAW_TRACEPOINT_OPEN, &a);
	return np->link[slot] < 0 ? -1 : 0;
}

static int lookup(const struct tp_netprobe *np, uint32_t key, struct slot_value *v)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)np->map;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)v;
	return (int)bpfasm_sys(BPF_MAP_LOOKUP_ELEM, &a);
}

static void drop(const struct tp_netprobe *np, uint32_t key)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)np->map;
	a.key = (uint64_t)(uintptr_t)&key;
	(void)bpfasm_sys(BPF_MAP_DELETE_ELEM, &a);
}

/* One datagram to itself over loopback: counted in tpmon's own slot?
 * Then the programs run, and tpmon's pids are the kernel's. */
static bool self_check(struct tp_netprobe *np)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	struct slot_value v;
	char c = 'x';
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool ok = false;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sa, &len) == 0 &&
	    sendto(fd, &c, 1, 0, (struct sockaddr *)&sa, sizeof(sa)) == 1 &&
	    recv(fd, &c, 1, 0) == 1 && lookup(np, (uint32_t)getpid(), &v) == 0)
		ok = v.bytes[SLOT_SENT] >= 1 && v.bytes[SLOT_RECEIVED] >= 1;
	if (fd >= 0)
		close(fd);
	drop(np, (uint32_t)getpid());
	return ok;
}

static int open_tracepoints(struct tp_netprobe *np, char *why, size_t size)
{
	const char *step = "map";
	int k;

	np->map = make_map(np);
	for (k = 0; np->map >= 0 && k < NSLOTS; k++) {
		step = tracepoint[k];
		if (load_attach(np, k) < 0)
			break;
	}
	if (np->map >= 0 && k == NSLOTS)
		return 0;
	snprintf(why, size, "socket tracepoints BPF (%s): %s", step, strerror(errno));
	return -1;
}

/* The program @prog of the kprobes. */
static int load_kprobe(struct tp_netprobe *np, int prog, const struct bpfasm_regs *regs,
		       uint32_t version)
{
	struct bpfasm p;

	if (prog == P_PEEK)
		assemble_peek(&p, np->peek, regs);
	else
		assemble_ret(&p, np, prog == P_SEND ? SLOT_SENT : SLOT_RECEIVED, regs);
	np->prog[prog] = bpfasm_load_version(&p, BPF_PROG_TYPE_KPROBE, 0, version, "netprobe");
	return np->prog[prog];
}

static int open_kprobes(struct tp_netprobe *np, char *why, size_t size)
{
	struct bpfasm_regs regs;
	struct utsname u;
	uint32_t version;
	size_t k, nlinks = 0;
	int type, retbit;

	if (bpfasm_kprobe_pmu(&type, &retbit, &regs, why, size) < 0)
		return -1;
	version = uname(&u) == 0 ? bpfasm_kversion(u.release) : 0;
	np->map = make_map(np);
	np->peek = bpfasm_map_create(BPF_MAP_TYPE_HASH, sizeof(uint64_t), sizeof(uint64_t),
				     PEEK_SLOTS);
	for (k = 0; np->map >= 0 && np->peek >= 0 && k < NPROGS; k++)
		if (load_kprobe(np, (int)k, &regs, version) < 0)
			break;
	if (np->map < 0 || np->peek < 0 || k < NPROGS) {
		snprintf(why, size, "kprobes BPF (%s): %s", np->map < 0 || np->peek < 0 ?
			 "map" : "program", strerror(errno));
		return -1;
	}
	for (k = 0; k < sizeof(kfunc) / sizeof(*kfunc); k++) {
		int fd = bpfasm_kprobe_attach(type, retbit, kfunc[k].prog != P_PEEK, kfunc[k].name,
					      np->prog[kfunc[k].prog]);
		if (fd >= 0) {
			np->link[nlinks++] = fd;
		} else if (kfunc[k].needed) {
			snprintf(why, size, "kprobes BPF (%s): %s", kfunc[k].name,
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

size_t netprobe_sources(const char *env, enum netprobe_source out[2])
{
	if (env && strcmp(env, "kprobe") == 0) {
		out[0] = NETPROBE_KPROBES;
		return 1;
	}
	out[0] = NETPROBE_TRACEPOINTS;
	if (env && strcmp(env, "tracepoint") == 0)
		return 1;
	out[1] = NETPROBE_KPROBES;
	return 2;
}

const char *netprobe_source_name(enum netprobe_source s)
{
	return s == NETPROBE_TRACEPOINTS ? "the socket tracepoints (sock_send_length, "
		"sock_recv_length)" : "kprobes (inet_sendmsg, inet_recvmsg and their inet6_ twins)";
}

static const char *source_word(enum netprobe_source s)
{
	return s == NETPROBE_TRACEPOINTS ? "socket tracepoints" : "kprobes";
}

static struct tp_netprobe *fresh(void)
{
	struct tp_netprobe *np = xcalloc(1, sizeof(*np));
	int k;

	np->map = np->peek = np->cgroup = -1;
	for (k = 0; k < NPROGS; k++)
		np->prog[k] = -1;
	for (k = 0; k < NLINKS; k++)
		np->link[k] = -1;
	return np;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static bool has_pid(const pid_t *v, size_t n, uint32_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uint32_t)v[mid] == key)
			return true;
		if ((uint32_t)v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Every key of the map: an owned array, *@n of them, sorted. */
static uint32_t *all_keys(const struct tp_netprobe *np, size_t *n)
{
	uint32_t *keys = xreallocarray(NULL, NETPROBE_SLOTS, sizeof(*keys));
	uint32_t key = 0, next;
	union bpf_attr a;
	size_t k = 0;

	while (k < NETPROBE_SLOTS) {
		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)np->map;
		/* the first key: after one the map never holds (tgid 0), not
		 * after none (a NULL key, which valgrind takes for a fault) */
		a.key = (uint64_t)(uintptr_t)&key;
		a.next_key = (uint64_t)(uintptr_t)&next;
		if (bpfasm_sys(BPF_MAP_GET_NEXT_KEY, &a) < 0)
			break;
		keys[k++] = next;
		key = next;
	}
	qsort(keys, k, sizeof(*keys), cmp_u32);
	*n = k;
	return keys;
}

/* Only the processes of cgroup @dir (v2) count from now on: the cgroup
 * into the array, then every slot made before (tpmon's, others') gone. */
static int set_cgroup(struct tp_netprobe *np, const char *dir)
{
	int rc = bpfasm_cgroup_array_set(np->cgroup, dir);
	size_t n, i;
	uint32_t *keys;

	keys = all_keys(np, &n);
	for (i = 0; i < n; i++)
		drop(np, keys[i]);
	free(keys);
	return rc;
}

/* One source, loaded, attached and checked (and kept to cgroup @dir, if
 * not NULL); NULL with the reason. */
static struct tp_netprobe *open_source(enum netprobe_source s, const char *dir, char *why,
				       size_t size)
{
	struct tp_netprobe *np = fresh();
	struct rlimit old;
	bool raised = bpfasm_memlock_raise(&old);
	int rc = -1;

	np->source = s;
	if (dir)
		np->cgroup = bpfasm_map_create(BPF_MAP_TYPE_CGROUP_ARRAY, sizeof(uint32_t),
					       sizeof(uint32_t), 1);
	if (dir && np->cgroup < 0)
		snprintf(why, size, "%s BPF (cgroup array): %s", source_word(s), strerror(errno));
	else
		rc = s == NETPROBE_TRACEPOINTS ? open_tracepoints(np, why, size) :
		     open_kprobes(np, why, size);
	if (raised)
		setrlimit(RLIMIT_MEMLOCK, &old);
	if (rc == 0 && !self_check(np))
		snprintf(why, size, "%s BPF: tpmon's own datagram not counted "
			 "(a pid namespace?)", source_word(s));
	else if (rc == 0 && dir && set_cgroup(np, dir) < 0)
		snprintf(why, size, "%s BPF: %s: %s", source_word(s), dir, strerror(errno));
	else if (rc == 0)
		return np;
	netprobe_free(np);
	return NULL;
}

struct tp_netprobe *netprobe_open(const char *dir, char *why, size_t size)
{
	enum netprobe_source src[2];
	size_t n = netprobe_sources(getenv("TPMON_NETPROBE"), src), i, used = 0;
	char one[256];

	why[0] = '\0';
	for (i = 0; i < n; i++) {
		struct tp_netprobe *np = open_source(src[i], dir, one, sizeof(one));

		if (np) {
			debug_msg("socket probes: %s%s", netprobe_source_name(src[i]),
				  dir ? ", the processes of the task's cgroup" : "");
			return np;
		}
		if (used < size)
			used += (size_t)snprintf(why + used, size - used, "%s%s",
						 i ? "; " : "", one);
	}
	return NULL;
}

void netprobe_take(struct tp_netprobe *np, pid_t pid)
{
	struct slot_value v;
	int k;

	if (!np || np->cgroup >= 0 || lookup(np, (uint32_t)pid, &v) < 0)
		return;	/* (kept to a cgroup, every slot is the tree's) */
	for (k = 0; k < NSLOTS; k++)
		np->ended[k] += v.bytes[k];
	drop(np, (uint32_t)pid);
}

int netprobe_totals(struct tp_netprobe *np, const pid_t *live, size_t n, uint64_t *sent,
		    uint64_t *received)
{
	uint64_t sum[NSLOTS] = { np->ended[SLOT_SENT], np->ended[SLOT_RECEIVED] };
	size_t nkeys, i, nstale = 0;
	uint32_t *keys = all_keys(np, &nkeys);
	struct slot_value v;

	if (nkeys >= NETPROBE_SLOTS - NETPROBE_SLOTS / 8)
		np->full = true;	/* evictions may have begun */
	for (i = 0; i < nkeys; i++) {
		if (np->cgroup >= 0 || has_pid(live, n, keys[i])) {
			if (lookup(np, keys[i], &v) == 0) {
				sum[SLOT_SENT] += v.bytes[SLOT_SENT];
				sum[SLOT_RECEIVED] += v.bytes[SLOT_RECEIVED];
			}
		} else if (np->nstale &&
			   bsearch(&keys[i], np->stale, np->nstale, sizeof(*keys), cmp_u32)) {
			drop(np, keys[i]);	/* of no process of the tree */
		} else {
			keys[nstale++] = keys[i];	/* (sorted still) */
		}
	}
	free(np->stale);
	np->stale = keys;
	np->nstale = nstale;
	*sent = sum[SLOT_SENT];
	*received = sum[SLOT_RECEIVED];
	return 0;
}

bool netprobe_complete(const struct tp_netprobe *np)
{
	return np && !np->full;
}

void netprobe_free(struct tp_netprobe *np)
{
	int k;

	if (!np)
		return;
	/* a kprobe's close waits grace periods: at once (bpfasm.h); a raw
	 * tracepoint's does not, and threads would cost more than they save
	 * (4.3 ms against 2.2 here) */
	if (np->source == NETPROBE_KPROBES) {
		bpfasm_close_all(np->link, NLINKS);
	} else {
		for (k = 0; k < NLINKS; k++)
			if (np->link[k] >= 0)
				close(np->link[k]);
	}
	for (k = 0; k < NPROGS; k++)
		if (np->prog[k] >= 0)
			close(np->prog[k]);
	if (np->map >= 0)
		close(np->map);
	if (np->peek >= 0)
		close(np->peek);
	if (np->cgroup >= 0)
		close(np->cgroup);
	free(np->stale);
	free(np);
}
