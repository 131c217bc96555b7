/* SPDX-License-Identifier: MIT */
/* sigprobe.c: the sender of a process's last signal, from the raw
 * tracepoint signal_generate (see sigprobe.h).  Its arguments are
 * (int sig, struct kernel_siginfo *info, struct task_struct *task,
 * int group, int result).  The program, assembled here (bpfasm.h), keeps
 * a signal that was delivered (result 0, TRACE_SIGNAL_DELIVERED, or 4,
 * delivered without its siginfo) and sent by a process: info 0
 * (SEND_SIG_NOINFO, on behalf of the current process) or a siginfo whose
 * si_code (offset 8) is <= 0 (SI_USER, SI_QUEUE, SI_TKILL); not info 1
 * (SEND_SIG_PRIV: the kernel's) nor si_code > 0 (faults, SIGCHLD, timers).
 * It stores {sig, sender tgid, uid, comm} under the target's tgid, read
 * at task_struct's tgid, whose offset the kernel's BTF gives. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "kernel/bpfasm.h"
#include "kernel/proc.h"
#include "kernel/btf.h"
#include "kernel/sigsender/sigprobe.h"

/* Slots: processes of the machine that were sent a signal; least
 * recently used ones go first when full.  Only the root's is read, as
 * soon as it ended of a signal: 1,024 distinct processes signalled in
 * between would make its sender unknown (null), never another's.  (An
 * LRU map is made whole at once: 4,096 slots took 2 ms a run, 1,024
 * take 0.5.) */
#define SIGPROBE_SLOTS 1024
#define BTF_PATH "/sys/kernel/btf/vmlinux"
#define SI_CODE_OFF 8		/* offsetof(struct kernel_siginfo, si_code) */
#define DELIVERED_NO_INFO 4	/* TRACE_SIGNAL_LOSE_INFO */

enum { L_OUT, L_USER, L_KEEP };

struct slot_value {
	uint32_t sig, pid, uid, pad;
	char comm[16];
};

struct tp_sigprobe {
	int map, prog, link;
};

/* r@dst = (s32) the tracepoint's argument @arg, from r6 */
static void load_int_arg(struct bpfasm *p, int dst, int arg)
{
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, (uint8_t)dst, BPF_REG_6, (int16_t)(arg * 8), 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_LSH | BPF_K, (uint8_t)dst, 0, 0, 32);
	bpfasm_emit(p, BPF_ALU64 | BPF_ARSH | BPF_K, (uint8_t)dst, 0, 0, 32);
}

/* probe_read(fp + @at, 4, r3 + @off); out unless it read */
static void read_u32(struct bpfasm *p, int16_t at, int32_t off, int probe_read)
{
	bpfasm_emit(p, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, at, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, off);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_10, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, at);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 4);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, probe_read);
	bpfasm_jump(p, BPF_JNE, BPF_REG_0, 0, L_OUT);
}

/* The value at fp - 48 ({sig, pid, uid, pad, comm}), stored under the
 * key at fp - 8. */
static void store(struct bpfasm *p, int map)
{
	bpfasm_emit(p, BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_7, -48, 0);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid);
	bpfasm_emit(p, BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_0, 0, 0, 32);
	bpfasm_emit(p, BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_0, -44, 0);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_uid_gid);
	bpfasm_emit(p, BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_0, -40, 0);
	bpfasm_emit(p, BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -36, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_10, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, -32);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 16);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_comm);
	bpfasm_map_update(p, map, -8, -48, BPF_ANY);
}

/* The program, reading kernel memory with helper @probe_read; @tgid_off:
 * task_struct's tgid.  Registers: r6 the arguments, r7 the signal. */
static void assemble(struct bpfasm *p, int map, int32_t tgid_off, int probe_read)
{
	memset(p, 0, sizeof(*p));
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	load_int_arg(p, BPF_REG_1, 4);		/* result */
	bpfasm_jump(p, BPF_JEQ, BPF_REG_1, 0, L_KEEP);
	bpfasm_jump(p, BPF_JNE, BPF_REG_1, DELIVERED_NO_INFO, L_OUT);
	bpfasm_place(p, L_KEEP);
	load_int_arg(p, BPF_REG_7, 0);		/* sig */
	bpfasm_jump(p, BPF_JEQ, BPF_REG_7, SIGCHLD, L_OUT);
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, BPF_REG_6, 8, 0);	/* info */
	bpfasm_jump(p, BPF_JEQ, BPF_REG_3, 0, L_USER);
	bpfasm_jump(p, BPF_JEQ, BPF_REG_3, 1, L_OUT);
	read_u32(p, -16, SI_CODE_OFF, probe_read);
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_10, -16, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_1, 0, 0, 32);
	bpfasm_emit(p, BPF_ALU64 | BPF_ARSH | BPF_K, BPF_REG_1, 0, 0, 32);
	bpfasm_jump(p, BPF_JSGT, BPF_REG_1, 0, L_OUT);
	bpfasm_place(p, L_USER);
	/* the key: the target's tgid, at fp - 8 */
	bpfasm_emit(p, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, BPF_REG_6, 16, 0);	/* task */
	bpfasm_jump(p, BPF_JEQ, BPF_REG_3, 0, L_OUT);
	read_u32(p, -8, tgid_off, probe_read);
	store(p, map);
	bpfasm_place(p, L_OUT);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	bpfasm_emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	bpfasm_link(p);
}

/* The BTF file read through two windows of it (btf.h's btf_read_fn):
 * one follows the types, the other the names they point to.  Both lie
 * near the start, so that a few pages are read, not the 5 MB. */
#define WINDOW 65536

struct btf_file {
	int fd;
	int last;			/* the window used last */
	struct {
		size_t at, n;
		unsigned char b[WINDOW];
	} w[2];
};

static int window_read(void *arg, size_t at, void *buf, size_t len)
{
	struct btf_file *f = arg;
	ssize_t n;
	int k;

	for (k = 0; k < 2; k++)
		if (at >= f->w[k].at && len <= f->w[k].n && at - f->w[k].at <= f->w[k].n - len)
			goto copy;
	if (len > WINDOW)
		return -1;
	k = !f->last;
	n = pread(f->fd, f->w[k].b, WINDOW, (off_t)at);
	f->w[k].at = at;
	f->w[k].n = n > 0 ? (size_t)n : 0;
	if (f->w[k].n < len)
		return -1;
copy:
	f->last = k;
	memcpy(buf, f->w[k].b + (at - f->w[k].at), len);
	return 0;
}

/* task_struct's tgid offset, from the kernel's BTF; -1 with @why. */
static long tgid_offset(char *why, size_t size)
{
	struct btf_file *f = xcalloc(1, sizeof(*f));
	struct stat st;
	size_t off;
	long r = -1;

	f->fd = open(BTF_PATH, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 || fstat(f->fd, &st) < 0 || st.st_size <= 0)
		snprintf(why, size, "signal sender BPF: no kernel BTF (%s)", BTF_PATH);
	else if (btf_member_offset_read(window_read, f, (size_t)st.st_size, "task_struct", "tgid",
					&off) == 0 && off < INT16_MAX)
		r = (long)off;
	else
		snprintf(why, size, "signal sender BPF: no task_struct.tgid in %s", BTF_PATH);
	if (f->fd >= 0)
		close(f->fd);
	free(f);
	return r;
}

/* Are tpmon's pids the kernel's: /proc/self/status's NSpid names one
 * pid namespace only, and it is getpid()'s? */
static bool initial_pid_ns(void)
{
	char buf[4096], *l;
	long pid;
	int used = 0;

	if (proc_read("self/status", buf, sizeof(buf)) <= 0 || !(l = strstr(buf, "\nNSpid:")))
		return false;
	return sscanf(l + 7, "%ld%n", &pid, &used) == 1 && pid == (long)getpid() &&
	       (l[7 + used] == '\n' || l[7 + used] == '\0');
}

static int load_attach(struct tp_sigprobe *sp, int32_t tgid_off)
{
	struct bpfasm p;
	union bpf_attr a;

	assemble(&p, sp->map, tgid_off, BPF_FUNC_probe_read_kernel);
	sp->prog = bpfasm_load(&p, BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "sigprobe");
	if (sp->prog < 0 && errno == EINVAL) {	/* before 5.5 */
		assemble(&p, sp->map, tgid_off, BPF_FUNC_probe_read);
		sp->prog = bpfasm_load(&p, BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "sigprobe");
	}
	if (sp->prog < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.name = (uint64_t)(uintptr_t)"signal_generate";
	a.raw_tracepoint.prog_fd = (uint32_t)sp->prog;
	sp->link = (int)bpfasm_sys(BPF_RAW_TRACEPOINT_OPEN, &a);
	return sp->link < 0 ? -1 : 0;
}

struct tp_sigprobe *sigprobe_open(char *why, size_t size)
{
	struct tp_sigprobe *sp;
	struct rlimit old;
	bool raised;
	long off;

	if (!initial_pid_ns()) {
		snprintf(why, size, "signal sender BPF: not in the initial pid namespace");
		return NULL;
	}
	off = tgid_offset(why, size);
	if (off < 0)
		return NULL;
	sp = xcalloc(1, sizeof(*sp));
	sp->prog = sp->link = -1;
	raised = bpfasm_memlock_raise(&old);
	sp->map = bpfasm_map_create(BPF_MAP_TYPE_LRU_HASH, sizeof(uint32_t),
				    sizeof(struct slot_value), SIGPROBE_SLOTS);
	if (sp->map < 0 && errno == EINVAL)	/* before 4.10 */
		sp->map = bpfasm_map_create(BPF_MAP_TYPE_HASH, sizeof(uint32_t),
					    sizeof(struct slot_value), SIGPROBE_SLOTS);
	if (sp->map < 0 || load_attach(sp, (int32_t)off) < 0) {
		snprintf(why, size, "signal sender BPF (%s): %s",
			 sp->map < 0 ? "map" : "signal_generate", strerror(errno));
		sigprobe_free(sp);
		sp = NULL;
	}
	if (raised)
		setrlimit(RLIMIT_MEMLOCK, &old);
	return sp;
}

/* @s->command: the command line of @pid if its comm is still @comm,
 * else @comm. */
static void sender_command(pid_t pid, const char *comm, struct tp_sender *s)
{
	char path[48], now[32];
	ssize_t n;

	snprintf(path, sizeof(path), "%d/comm", (int)pid);
	n = proc_read(path, now, sizeof(now));
	if (n > 0 && now[n - 1] == '\n')
		now[n - 1] = '\0';
	if (n > 0 && strcmp(now, comm) == 0 &&
	    proc_read_cmdline(pid, s->command, sizeof(s->command)) == 0 && s->command[0])
		return;
	snprintf(s->command, sizeof(s->command), "%s", comm);
}

bool sigprobe_sender(const struct tp_sigprobe *sp, pid_t pid, int sig, struct tp_sender *s)
{
	uint32_t key = (uint32_t)pid;
	struct slot_value v;
	union bpf_attr a;
	char comm[sizeof(v.comm) + 1];

	memset(s, 0, sizeof(*s));
	s->signo = sig;
	if (!sp || pid <= 0)
		return false;
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)sp->map;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)&v;
	if (bpfasm_sys(BPF_MAP_LOOKUP_ELEM, &a) < 0 || (int)v.sig != sig || v.pid == 0)
		return false;
	memcpy(comm, v.comm, sizeof(v.comm));
	comm[sizeof(v.comm)] = '\0';
	s->known = true;
	s->pid = (pid_t)v.pid;
	s->uid = (uid_t)v.uid;
	sender_command(s->pid, comm, s);
	return true;
}

void sigprobe_free(struct tp_sigprobe *sp)
{
	if (!sp)
		return;
	if (sp->link >= 0)
		close(sp->link);
	if (sp->prog >= 0)
		close(sp->prog);
	if (sp->map >= 0)
		close(sp->map);
	free(sp);
}
