/* SPDX-License-Identifier: MIT */
/* bpfasm.h: a tiny BPF assembler and loader, for the programs tpmon
 * writes by hand (cgskb.c, netprobe.c, sigsender/sigprobe.c): instructions, forward and
 * backward jumps to labels, the raw bpf(2) call, a load that prints
 * the verifier's words when a program is refused, and kprobes through
 * perf_event_open (x86_64 and aarch64).  No compiler and no
 * libbpf at run time. */
#ifndef TPMON_BPFASM_H
#define TPMON_BPFASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <linux/bpf.h>

#define BPFASM_MAXINSN 128
#define BPFASM_MAXJUMPS 32
#define BPFASM_MAXLABELS 8

/* A program being assembled; zero it before the first instruction.  A
 * program that outgrows it is cut short, and the verifier refuses it. */
struct bpfasm {
	struct bpf_insn insn[BPFASM_MAXINSN];
	int n;
	int label[BPFASM_MAXLABELS];
	struct { int at, label; } jump[BPFASM_MAXJUMPS];
	int njumps;
};

/* The bpf(2) system call. */
long bpfasm_sys(int cmd, union bpf_attr *attr);

void bpfasm_emit(struct bpfasm *p, uint8_t code, uint8_t dst, uint8_t src, int16_t off,
		 int32_t imm);
/* if (dst OP imm) goto label */
void bpfasm_jump(struct bpfasm *p, uint8_t op, uint8_t dst, int32_t imm, int label);
/* if (dst OP src) goto label */
void bpfasm_jump_reg(struct bpfasm *p, uint8_t op, uint8_t dst, uint8_t src, int label);
/* The next instruction is @label. */
void bpfasm_place(struct bpfasm *p, int label);
/* Resolve the jumps, once every label is placed. */
void bpfasm_link(struct bpfasm *p);

/* r0 = map_lookup_elem(@map, fp + @key_off); if it is NULL goto
 * @none.  (r1 to r5 are clobbered, as by any call.) */
void bpfasm_map_lookup(struct bpfasm *p, int map, int16_t key_off, int none);

/* r0 = map_update_elem(@map, fp + @key_off, fp + @value_off, @flags).
 * (r1 to r5 are clobbered.) */
void bpfasm_map_update(struct bpfasm *p, int map, int16_t key_off, int16_t value_off,
		       int32_t flags);

/* r0 = map_delete_elem(@map, fp + @key_off).  (r1 to r5 are clobbered.) */
void bpfasm_map_delete(struct bpfasm *p, int map, int16_t key_off);

/* Put the cgroup of directory @dir (v2) in slot 0 of the cgroup array
 * @map, for bpf_current_task_under_cgroup(): 0, or -1 with errno. */
int bpfasm_cgroup_array_set(int map, const char *dir);

/* A map of @type with @entries entries; -1 with errno. */
int bpfasm_map_create(enum bpf_map_type type, uint32_t key_size, uint32_t value_size,
		      uint32_t entries);

/* A hash map whose entries are allocated as they are made
 * (BPF_F_NO_PREALLOC): made in microseconds where a preallocated or LRU
 * one of 16,384 entries takes milliseconds.  Only from 6.1, where the
 * kernel allocates them safely in tracing programs (bpf_mem_alloc; before,
 * it let them in with a warning in its log); elsewhere -1 with EOPNOTSUPP,
 * for the caller's preallocated map. */
int bpfasm_map_create_lazy(uint32_t key_size, uint32_t value_size, uint32_t entries);

/* Load @p (linked) as a program of @type (@expected: its expected attach
 * type, or 0).  Returns its descriptor, or -1 with errno, after a debug
 * line with the verifier's last words, headed @what, when it refused. */
int bpfasm_load(const struct bpfasm *p, enum bpf_prog_type type,
		enum bpf_attach_type expected, const char *what);

/* The same, with the kernel version a kprobe program must carry before
 * Linux 5.0 (KERNEL_VERSION(a, b, c) of the running kernel; ignored
 * since). */
int bpfasm_load_version(const struct bpfasm *p, enum bpf_prog_type type,
			enum bpf_attach_type expected, uint32_t kern_version, const char *what);

/* A tracing program at the entry of the kernel function whose BTF type
 * id (a FUNC of vmlinux's BTF) is @btf_id (fentry: Linux 5.5, x86_64;
 * 6.0 on aarch64).  Its context is the function's arguments, each a u64.
 * Its descriptor, or -1 with errno. */
int bpfasm_load_fentry(const struct bpfasm *p, uint32_t btf_id, const char *what);

/* Attach the fentry program @prog (BPF_RAW_TRACEPOINT_OPEN with no
 * name): the link's descriptor, or -1 with errno.  Detached when it is
 * closed. */
int bpfasm_fentry_attach(int prog);

/* Before 5.11 maps and programs are charged to RLIMIT_MEMLOCK: raise it
 * for the while where tpmon may (the task keeps tpmon's), keeping the
 * old one in @old.  Returns whether it was raised (then restore it with
 * setrlimit()). */
bool bpfasm_memlock_raise(struct rlimit *old);

/* Kprobes and kretprobes made through perf_event_open's kprobe PMU
 * (Linux 4.17), each running a BPF_PROG_TYPE_KPROBE program.  A probe
 * lives as long as its perf event's descriptor: a killed tpmon leaves
 * none behind (nothing is written to tracefs's kprobe_events).  The
 * parsers are pure. */
/* Where a probe's program finds what it reads, in bytes into pt_regs. */
struct bpfasm_regs {
	int ret;	/* the return value (in a kretprobe) */
	int arg1;	/* the first argument (in a kprobe at entry) */
	int arg4;	/* the fourth argument (in a kprobe at entry) */
};

/* The PMU's type, from the text of .../kprobe/type: -1 unless it is a
 * decimal number alone on its line. */
int bpfasm_kprobe_type(const char *text);

/* The retprobe bit, from the text of .../kprobe/format/retprobe
 * ("config:N"): -1 unless N is a bit of the 64-bit config. */
int bpfasm_kprobe_retbit(const char *text);

/* The offsets for uname's @machine: 0, or -1 for an architecture tpmon
 * does not know. */
int bpfasm_regs_of(const char *machine, struct bpfasm_regs *r);

/* KERNEL_VERSION(a, b, c) of uname's @release ("4.18.0-553.el8_10.x86_64"),
 * c at most 255 as the kernel keeps it; 0 when it is not a version. */
uint32_t bpfasm_kversion(const char *release);

/* The kprobe PMU of this kernel: its type and retprobe bit, and the
 * registers' offsets.  0, or -1 with the reason in @why. */
int bpfasm_kprobe_pmu(int *type, int *retbit, struct bpfasm_regs *r, char *why,
		      size_t size);

/* A probe (@ret: a kretprobe) on the kernel function @func, running
 * program @prog, enabled.  Its descriptor, or -1 with errno (ENOENT or
 * EINVAL: no such function, or not one that can be probed). */
int bpfasm_kprobe_attach(int type, int retbit, bool ret, const char *func, int prog);

/* Close the @n kprobes' descriptors @fds (-1: none) at once: each close
 * waits the kernel's RCU grace periods for its unregistering (100 ms each
 * in an emulated VM, 6 a run: the end path's 600 ms there became 300), so
 * each is closed on a thread of its own and the waits overlap (those
 * under the kernel's event_mutex do not); in order, on this thread, where
 * a thread cannot be had.  Sets each to -1. */
void bpfasm_close_all(int *fds, size_t n);

#endif
