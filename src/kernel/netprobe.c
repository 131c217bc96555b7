/* SPDX-License-Identifier: MIT */
/* netprobe.c: per-process IP socket bytes from the socket calls'
 * tracepoints (see netprobe.h).  Each program is a few dozen BPF
 * instructions assembled here (bpfasm.h): it takes the call's result
 * (args[1]; a receive with MSG_PEEK is not counted), reads the socket's
 * family (struct sock_common's skc_family, at offset 16 in every kernel
 * since 2.6) and, for AF_INET and AF_INET6, adds the bytes to the slot
 * of the calling process (bpf_get_current_pid_tgid() >> 32) with an
 * atomic add, making the slot first if there is none. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "kernel/bpfasm.h"
#include "kernel/netprobe.h"

enum { SLOT_SENT, SLOT_RECEIVED, NSLOTS };
enum { L_OUT, L_FAM, L_NEW };

/* Slots: processes of the machine that used an IP socket between two
 * reads, twice over; least recently used ones go first when full. */
#define NETPROBE_SLOTS 16384
#define SKC_FAMILY_OFF 16	/* offsetof(struct sock_common, skc_family) */
#define MSG_PEEK_FLAG 2

static const char *const tracepoint[NSLOTS] = { "sock_send_length", "sock_recv_length" };

struct slot_value {
	uint64_t bytes[NSLOTS];
};

struct tp_netprobe {
	int map;
	int prog[NSLOTS];
	int link[NSLOTS];		/* the raw tracepoints' descriptors */
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

/* The program of @slot, reading kernel memory with helper @probe_read.
 * Registers: r6 the tracepoint's arguments, r7 the bytes. */
static void assemble(struct bpfasm *p, int map, int slot, int probe_read)
{
	memset(p, 0, sizeof(*p));
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	/* the result, an int: nothing moved unless > 0 */
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_6, 8, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_7, 0, 0, 32);
	bpfasm_emit(p, BPF_ALU64 | BPF_ARSH | BPF_K, BPF_REG_7, 0, 0, 32);
	bpfasm_jump(p, BPF_JSLE, BPF_REG_7, 0, L_OUT);
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
	bpfasm_place(p, L_FAM);
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

static int make_map(void)
{
	int fd = bpfasm_map_create(BPF_MAP_TYPE_LRU_HASH, sizeof(uint32_t),
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

	assemble(&p, np->map, slot, BPF_FUNC_probe_read_kernel);
	np->prog[slot] = bpfasm_load(&p, BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "netprobe");
	if (np->prog[slot] < 0 && errno == EINVAL) {
		assemble(&p, np->map, slot, BPF_FUNC_probe_read);
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

struct tp_netprobe *netprobe_open(char *why, size_t size)
{
	struct tp_netprobe *np = xcalloc(1, sizeof(*np));
	struct rlimit old;
	bool raised = bpfasm_memlock_raise(&old);
	const char *step = "map";
	int k;

	np->prog[0] = np->prog[1] = np->link[0] = np->link[1] = -1;
	np->map = make_map();
	for (k = 0; np->map >= 0 && k < NSLOTS; k++) {
		step = tracepoint[k];
		if (load_attach(np, k) < 0)
			break;
	}
	snprintf(why, size, "socket tracepoints BPF (%s): %s", step, strerror(errno));
	if (raised)
		setrlimit(RLIMIT_MEMLOCK, &old);
	if (np->map >= 0 && k == NSLOTS) {
		if (self_check(np))
			return np;
		snprintf(why, size, "socket tracepoints BPF: tpmon's own datagram not counted "
			 "(a pid namespace?)");
	}
	netprobe_free(np);
	return NULL;
}

void netprobe_take(struct tp_netprobe *np, pid_t pid)
{
	struct slot_value v;
	int k;

	if (!np || lookup(np, (uint32_t)pid, &v) < 0)
		return;
	for (k = 0; k < NSLOTS; k++)
		np->ended[k] += v.bytes[k];
	drop(np, (uint32_t)pid);
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
		if (has_pid(live, n, keys[i])) {
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
	for (k = 0; k < NSLOTS; k++) {
		if (np->link[k] >= 0)
			close(np->link[k]);
		if (np->prog[k] >= 0)
			close(np->prog[k]);
	}
	if (np->map >= 0)
		close(np->map);
	free(np->stale);
	free(np);
}
