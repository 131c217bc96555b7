/* SPDX-License-Identifier: MIT */
/* bpfasm.c: the tiny BPF assembler and loader (bpfasm.h). */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "basic/messages.h"
#include "kernel/bpfasm.h"

long bpfasm_sys(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

void bpfasm_emit(struct bpfasm *p, uint8_t code, uint8_t dst, uint8_t src, int16_t off,
		 int32_t imm)
{
	struct bpf_insn *i;

	if (p->n == BPFASM_MAXINSN)
		return;	/* a program cut short: the verifier refuses it */
	i = &p->insn[p->n++];
	memset(i, 0, sizeof(*i));
	i->code = code;
	i->dst_reg = dst & 0xf;
	i->src_reg = src & 0xf;
	i->off = off;
	i->imm = imm;
}

static void note_jump(struct bpfasm *p, int label)
{
	p->jump[p->njumps].at = p->n;
	p->jump[p->njumps++].label = label;
}

void bpfasm_jump(struct bpfasm *p, uint8_t op, uint8_t dst, int32_t imm, int label)
{
	if (p->njumps == BPFASM_MAXJUMPS || p->n == BPFASM_MAXINSN)
		return;
	note_jump(p, label);
	bpfasm_emit(p, BPF_JMP | op | BPF_K, dst, 0, 0, imm);
}

void bpfasm_jump_reg(struct bpfasm *p, uint8_t op, uint8_t dst, uint8_t src, int label)
{
	if (p->njumps == BPFASM_MAXJUMPS || p->n == BPFASM_MAXINSN)
		return;
	note_jump(p, label);
	bpfasm_emit(p, BPF_JMP | op | BPF_X, dst, src, 0, 0);
}

void bpfasm_place(struct bpfasm *p, int label)
{
	if (label >= 0 && label < BPFASM_MAXLABELS)
		p->label[label] = p->n;
}

void bpfasm_link(struct bpfasm *p)
{
	int i;

	for (i = 0; i < p->njumps; i++)
		p->insn[p->jump[i].at].off =
			(int16_t)(p->label[p->jump[i].label] - p->jump[i].at - 1);
}

void bpfasm_map_lookup(struct bpfasm *p, int map, int16_t key_off, int none)
{
	bpfasm_emit(p, BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map);
	bpfasm_emit(p, 0, 0, 0, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, key_off);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_0, 0, none);
}

void bpfasm_map_update(struct bpfasm *p, int map, int16_t key_off, int16_t value_off,
		       int32_t flags)
{
	bpfasm_emit(p, BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map);
	bpfasm_emit(p, 0, 0, 0, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, key_off);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_10, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, value_off);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, flags);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_update_elem);
}

int bpfasm_map_create(enum bpf_map_type type, uint32_t key_size, uint32_t value_size,
		      uint32_t entries)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = key_size;
	a.value_size = value_size;
	a.max_entries = entries;
	return (int)bpfasm_sys(BPF_MAP_CREATE, &a);
}

int bpfasm_load(const struct bpfasm *p, enum bpf_prog_type type,
		enum bpf_attach_type expected, const char *what)
{
	static char log[4096];
	static const char license[] = "Dual MIT/GPL";
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = type;
	a.expected_attach_type = expected;
	a.insns = (uint64_t)(uintptr_t)p->insn;
	a.insn_cnt = (uint32_t)p->n;
	a.license = (uint64_t)(uintptr_t)license;
	fd = (int)bpfasm_sys(BPF_PROG_LOAD, &a);
	if (fd >= 0 || (errno != EACCES && errno != EINVAL))
		return fd;
	/* refused by the verifier: say why (a defect of the caller) */
	log[0] = '\0';
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	fd = (int)bpfasm_sys(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		int e = errno;

		debug_msg("%s verifier: %s", what, log);
		errno = e;
	}
	return fd;
}

bool bpfasm_memlock_raise(struct rlimit *old)
{
	struct rlimit big = { RLIM_INFINITY, RLIM_INFINITY };

	return getrlimit(RLIMIT_MEMLOCK, old) == 0 && setrlimit(RLIMIT_MEMLOCK, &big) == 0;
}
