/* SPDX-License-Identifier: MIT */
/* cgskb.c: per-cgroup TCP byte counters in the kernel (see cgskb.h).
 * The two programs are a few dozen BPF instructions assembled here and
 * loaded with the raw bpf(2) call: no compiler, no libbpf.  Each reads
 * the IP header (version 4 or 6, protocol TCP), the TCP header length,
 * and adds skb->len less both headers to its slot of a two-slot array
 * (0: sent, 1: received) with an atomic add.  It always lets the packet
 * pass (returns 1). */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "kernel/cgskb.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"

enum { SLOT_SENT, SLOT_RECEIVED, NSLOTS };

struct tp_cgskb {
	int map;		/* BPF_MAP_TYPE_ARRAY of NSLOTS u64 */
	int prog[NSLOTS];	/* egress, ingress */
	int cgroup;		/* the cgroup's directory, for the detach */
	bool attached[NSLOTS];
	bool seq_aware;		/* retransmissions and duplicates not counted */
};

static const enum bpf_attach_type attach_type[NSLOTS] = {
	BPF_CGROUP_INET_EGRESS, BPF_CGROUP_INET_INGRESS
};

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* ---- a tiny assembler: instructions, and jumps to labels ---- */

enum { L_OUT, L_V4, L_TCP, L_ADD, NLABELS };
#define MAXINSN 128
#define MAXJUMPS 32

struct prog {
	struct bpf_insn insn[MAXINSN];
	int n;
	int label[NLABELS];
	struct { int at, label; } jump[MAXJUMPS];
	int njumps;
};

static void emit(struct prog *p, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct bpf_insn *i;

	if (p->n == MAXINSN)
		return;	/* a program cut short: the verifier refuses it */
	i = &p->insn[p->n++];
	memset(i, 0, sizeof(*i));
	i->code = code;
	i->dst_reg = dst & 0xf;
	i->src_reg = src & 0xf;
	i->off = off;
	i->imm = imm;
}

/* if (dst OP imm) goto label */
static void jump(struct prog *p, uint8_t op, uint8_t dst, int32_t imm, int label)
{
	if (p->njumps == MAXJUMPS || p->n == MAXINSN)
		return;
	p->jump[p->njumps].at = p->n;
	p->jump[p->njumps++].label = label;
	emit(p, BPF_JMP | op | BPF_K, dst, 0, 0, imm);
}

/* if (dst OP src) goto label */
static void jump_reg(struct prog *p, uint8_t op, uint8_t dst, uint8_t src, int label)
{
	if (p->njumps == MAXJUMPS || p->n == MAXINSN)
		return;
	p->jump[p->njumps].at = p->n;
	p->jump[p->njumps++].label = label;
	emit(p, BPF_JMP | op | BPF_X, dst, src, 0, 0);
}

static void place(struct prog *p, int label)
{
	p->label[label] = p->n;
}

static void link_jumps(struct prog *p)
{
	int i;

	for (i = 0; i < p->njumps; i++)
		p->insn[p->jump[i].at].off =
			(int16_t)(p->label[p->jump[i].label] - p->jump[i].at - 1);
}

/* r1 = skb, r2 = r7 + @off (or @off when @reg_off is false),
 * r3 = fp - @stack, r4 = @len; call bpf_skb_load_bytes; out unless 0 */
static void load_bytes(struct prog *p, bool reg_off, int off, int stack, int len)
{
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_6, 0, 0);
	if (reg_off) {
		emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_7, 0, 0);
		emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, off);
	} else {
		emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, off);
	}
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_10, 0, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, -stack);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, len);
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_skb_load_bytes);
	jump(p, BPF_JNE, BPF_REG_0, 0, L_OUT);
}

/* Cut the payload (r9) to the bytes the socket has not sent, or not
 * received, before: those past its snd_nxt (egress: a retransmission
 * lies before it) or its rcv_nxt (ingress: a duplicate lies before it),
 * read from the socket (bpf_tcp_sock, 5.1).  Then the figures are those
 * of tcpi_bytes_sent less retransmissions, and of tcpi_bytes_received.
 * A packet of a listener (data on the handshake's last ACK) or without
 * a full TCP socket counts whole (goto L_ADD). */
static void only_new(struct prog *p, int slot)
{
	emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_6,
	     (int16_t)offsetof(struct __sk_buff, sk), 0);
	jump(p, BPF_JEQ, BPF_REG_1, 0, L_ADD);
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_sk_fullsock);
	jump(p, BPF_JEQ, BPF_REG_0, 0, L_ADD);
	emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_0,
	     (int16_t)offsetof(struct bpf_sock, state), 0);
	jump(p, BPF_JEQ, BPF_REG_1, 10 /* TCP_LISTEN */, L_ADD);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_0, 0, 0);
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tcp_sock);
	jump(p, BPF_JEQ, BPF_REG_0, 0, L_ADD);
	emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_8, BPF_REG_0,
	     (int16_t)(slot == SLOT_SENT ? offsetof(struct bpf_tcp_sock, snd_nxt) :
		       offsetof(struct bpf_tcp_sock, rcv_nxt)), 0);
	/* the segment's sequence number (TCP header bytes 4-7) */
	load_bytes(p, true, 4, 56, 4);
	emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_10, -56, 0);
	emit(p, BPF_ALU | BPF_END | BPF_TO_BE, BPF_REG_1, 0, 0, 32);
	/* new = (s32)(seq + payload - next): none, some, or all of it */
	emit(p, BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_1, BPF_REG_9, 0, 0);
	emit(p, BPF_ALU64 | BPF_SUB | BPF_X, BPF_REG_1, BPF_REG_8, 0, 0);
	emit(p, BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_1, 0, 0, 32);
	emit(p, BPF_ALU64 | BPF_ARSH | BPF_K, BPF_REG_1, 0, 0, 32);
	jump(p, BPF_JSLE, BPF_REG_1, 0, L_OUT);
	jump_reg(p, BPF_JSGE, BPF_REG_1, BPF_REG_9, L_ADD);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_9, BPF_REG_1, 0, 0);
}

/* The program that adds the TCP payload of each packet to @slot of @map,
 * with @seq_aware only what is new (only_new()).  Registers: r6 skb, r7
 * IP header length, r8 scratch, r9 payload. */
static void assemble(struct prog *p, int map, int slot, bool seq_aware)
{
	memset(p, 0, sizeof(*p));
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	/* the first 40 bytes (an IPv6 header; an IPv4 one and more) */
	load_bytes(p, false, 0, 40, 40);
	emit(p, BPF_LDX | BPF_MEM | BPF_B, BPF_REG_7, BPF_REG_10, -40, 0);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_8, BPF_REG_7, 0, 0);
	emit(p, BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_8, 0, 0, 4);
	jump(p, BPF_JEQ, BPF_REG_8, 4, L_V4);
	jump(p, BPF_JNE, BPF_REG_8, 6, L_OUT);
	/* IPv6: next header TCP (extension headers: not counted) */
	emit(p, BPF_LDX | BPF_MEM | BPF_B, BPF_REG_8, BPF_REG_10, -40 + 6, 0);
	jump(p, BPF_JNE, BPF_REG_8, 6 /* IPPROTO_TCP */, L_OUT);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_7, 0, 0, 40);
	jump(p, BPF_JA, 0, 0, L_TCP);
	/* IPv4: protocol TCP, header length from IHL */
	place(p, L_V4);
	emit(p, BPF_LDX | BPF_MEM | BPF_B, BPF_REG_8, BPF_REG_10, -40 + 9, 0);
	jump(p, BPF_JNE, BPF_REG_8, 6, L_OUT);
	emit(p, BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_7, 0, 0, 0xf);
	emit(p, BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_7, 0, 0, 2);
	/* the TCP header's data offset (byte 12, high nibble, in words) */
	place(p, L_TCP);
	load_bytes(p, true, 12, 48, 1);
	emit(p, BPF_LDX | BPF_MEM | BPF_B, BPF_REG_8, BPF_REG_10, -48, 0);
	emit(p, BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_8, 0, 0, 4);
	emit(p, BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_8, 0, 0, 2);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_8, BPF_REG_7, 0, 0);
	emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_9, BPF_REG_6,
	     (int16_t)offsetof(struct __sk_buff, len), 0);
	/* if (headers >= len) no payload */
	jump_reg(p, BPF_JGE, BPF_REG_8, BPF_REG_9, L_OUT);
	emit(p, BPF_ALU64 | BPF_SUB | BPF_X, BPF_REG_9, BPF_REG_8, 0, 0);
	if (seq_aware)
		only_new(p, slot);
	place(p, L_ADD);
	/* *map_lookup_elem(map, &slot) += payload, atomically */
	emit(p, BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -52, slot);
	emit(p, BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map);
	emit(p, 0, 0, 0, 0, 0);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -52);
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	jump(p, BPF_JEQ, BPF_REG_0, 0, L_OUT);
	emit(p, BPF_STX | BPF_XADD | BPF_DW, BPF_REG_0, BPF_REG_9, 0, 0);
	/* every packet passes */
	place(p, L_OUT);
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 1);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	link_jumps(p);
}

/* ---- loading and attaching ---- */

static int make_map(void)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = sizeof(uint32_t);
	a.value_size = sizeof(uint64_t);
	a.max_entries = NSLOTS;
	return (int)sys_bpf(BPF_MAP_CREATE, &a);
}

/* Load the program of @slot; -1 with the verifier's last words in the
 * debug output. */
static int load_prog(int map, int slot, bool seq_aware)
{
	static char log[4096];
	static const char license[] = "Dual MIT/GPL";
	struct prog p;
	union bpf_attr a;
	int fd;

	assemble(&p, map, slot, seq_aware);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_CGROUP_SKB;
	a.expected_attach_type = attach_type[slot];
	a.insns = (uint64_t)(uintptr_t)p.insn;
	a.insn_cnt = (uint32_t)p.n;
	a.license = (uint64_t)(uintptr_t)license;
	fd = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if (fd >= 0 || (errno != EACCES && errno != EINVAL))
		return fd;
	/* refused by the verifier: say why (a defect of this file) */
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	fd = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		int e = errno;

		debug_msg("cgroup_skb verifier: %s", log);
		errno = e;
	}
	return fd;
}

static int attach(struct tp_cgskb *c, int slot)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)c->cgroup;
	a.attach_bpf_fd = (uint32_t)c->prog[slot];
	a.attach_type = attach_type[slot];
	a.attach_flags = BPF_F_ALLOW_MULTI;
	if (sys_bpf(BPF_PROG_ATTACH, &a) < 0) {
		if (errno != EINVAL)
			return -1;
		a.attach_flags = 0;	/* before 4.15 */
		if (sys_bpf(BPF_PROG_ATTACH, &a) < 0)
			return -1;
	}
	c->attached[slot] = true;
	return 0;
}

/* The map and programs; before 5.11 they are charged to RLIMIT_MEMLOCK,
 * raised for the while where tpmon may (the task keeps tpmon's). */
static int load_all(struct tp_cgskb *c)
{
	struct rlimit old, big = { RLIM_INFINITY, RLIM_INFINITY };
	bool raised = getrlimit(RLIMIT_MEMLOCK, &old) == 0 &&
		      setrlimit(RLIMIT_MEMLOCK, &big) == 0;
	int r = -1, e;

	c->map = make_map();
	if (c->map >= 0) {
		c->seq_aware = true;
		c->prog[SLOT_SENT] = load_prog(c->map, SLOT_SENT, true);
		if (c->prog[SLOT_SENT] < 0 && (errno == EINVAL || errno == EACCES)) {
			/* before 5.1: no bpf_tcp_sock; every segment counts */
			debug_msg("cgroup_skb: no bpf_tcp_sock, retransmissions count");
			c->seq_aware = false;
			c->prog[SLOT_SENT] = load_prog(c->map, SLOT_SENT, false);
		}
		if (c->prog[SLOT_SENT] >= 0)
			c->prog[SLOT_RECEIVED] = load_prog(c->map, SLOT_RECEIVED, c->seq_aware);
		r = c->prog[SLOT_SENT] >= 0 && c->prog[SLOT_RECEIVED] >= 0 ? 0 : -1;
	}
	e = errno;
	if (raised)
		setrlimit(RLIMIT_MEMLOCK, &old);
	errno = e;
	return r;
}

struct tp_cgskb *cgskb_attach(const char *dir, char *why, size_t size)
{
	struct tp_cgskb *c = xcalloc(1, sizeof(*c));
	const char *step = "open";

	c->map = c->prog[0] = c->prog[1] = -1;
	c->cgroup = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->cgroup >= 0) {
		step = "load";
		if (load_all(c) == 0) {
			step = "attach";
			if (attach(c, SLOT_SENT) == 0 && attach(c, SLOT_RECEIVED) == 0)
				return c;
		}
	}
	snprintf(why, size, "cgroup_skb BPF (%s %s): %s", step, dir, strerror(errno));
	cgskb_free(c);
	return NULL;
}

int cgskb_read(const struct tp_cgskb *c, uint64_t *sent, uint64_t *received)
{
	uint64_t v[NSLOTS];
	uint32_t k;
	union bpf_attr a;

	for (k = 0; k < NSLOTS; k++) {
		memset(&a, 0, sizeof(a));
		a.map_fd = (uint32_t)c->map;
		a.key = (uint64_t)(uintptr_t)&k;
		a.value = (uint64_t)(uintptr_t)&v[k];
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a) < 0)
			return -1;
	}
	*sent = v[SLOT_SENT];
	*received = v[SLOT_RECEIVED];
	return 0;
}

void cgskb_free(struct tp_cgskb *c)
{
	union bpf_attr a;
	int k;

	if (!c)
		return;
	for (k = 0; k < NSLOTS; k++) {
		if (c->attached[k]) {
			memset(&a, 0, sizeof(a));
			a.target_fd = (uint32_t)c->cgroup;
			a.attach_bpf_fd = (uint32_t)c->prog[k];
			a.attach_type = attach_type[k];
			sys_bpf(BPF_PROG_DETACH, &a);	/* gone with the cgroup: fine */
		}
		if (c->prog[k] >= 0)
			close(c->prog[k]);
	}
	if (c->map >= 0)
		close(c->map);
	if (c->cgroup >= 0)
		close(c->cgroup);
	free(c);
}
