/* SPDX-License-Identifier: MIT */
/* bpfasm.c: the tiny BPF assembler and loader (bpfasm.h).  Kprobes are
 * perf events of the kprobe PMU: the event names the function (config1,
 * a pointer to its name; config2, the offset: 0), and is a kretprobe
 * when the PMU's retprobe bit is set in config; the program is attached
 * with PERF_EVENT_IOC_SET_BPF.  A kprobe program reads struct pt_regs,
 * whose layout is the architecture's:
 *   x86_64: r15 r14 r13 r12 bp bx r11 r10 r9 r8 ax cx dx si di ...:
 *           the return value in ax (80), the fourth argument in cx (88);
 *   aarch64: regs[31] first: the return value in x0 (0), the fourth
 *           argument in x3 (24). */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
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

void bpfasm_map_delete(struct bpfasm *p, int map, int16_t key_off)
{
	bpfasm_emit(p, BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map);
	bpfasm_emit(p, 0, 0, 0, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	bpfasm_emit(p, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, key_off);
	bpfasm_emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_delete_elem);
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

int bpfasm_cgroup_array_set(int map, const char *dir)
{
	uint32_t key = 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc, e;
	uint32_t value = (uint32_t)fd;
	union bpf_attr a;

	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)map;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)&value;
	rc = (int)bpfasm_sys(BPF_MAP_UPDATE_ELEM, &a);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

static int map_create(enum bpf_map_type type, uint32_t key_size, uint32_t value_size,
		      uint32_t entries, uint32_t flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = key_size;
	a.value_size = value_size;
	a.max_entries = entries;
	a.map_flags = flags;
	return (int)bpfasm_sys(BPF_MAP_CREATE, &a);
}

int bpfasm_map_create(enum bpf_map_type type, uint32_t key_size, uint32_t value_size,
		      uint32_t entries)
{
	return map_create(type, key_size, value_size, entries, 0);
}

int bpfasm_map_create_lazy(uint32_t key_size, uint32_t value_size, uint32_t entries)
{
	struct utsname u;

	if (uname(&u) < 0 || bpfasm_kversion(u.release) < (6u << 16) + (1u << 8)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return map_create(BPF_MAP_TYPE_HASH, key_size, value_size, entries, BPF_F_NO_PREALLOC);
}

int bpfasm_load(const struct bpfasm *p, enum bpf_prog_type type,
		enum bpf_attach_type expected, const char *what)
{
	return bpfasm_load_version(p, type, expected, 0, what);
}

/* Load the program @a describes, with @p's instructions. */
static int load(union bpf_attr *a, const struct bpfasm *p, const char *what)
{
	static char log[4096];
	static const char license[] = "Dual MIT/GPL";
	int fd;

	a->insns = (uint64_t)(uintptr_t)p->insn;
	a->insn_cnt = (uint32_t)p->n;
	a->license = (uint64_t)(uintptr_t)license;
	fd = (int)bpfasm_sys(BPF_PROG_LOAD, a);
	if (fd >= 0 || (errno != EACCES && errno != EINVAL))
		return fd;
	/* refused by the verifier: say why (a defect of the caller) */
	log[0] = '\0';
	a->log_buf = (uint64_t)(uintptr_t)log;
	a->log_size = sizeof(log);
	a->log_level = 1;
	fd = (int)bpfasm_sys(BPF_PROG_LOAD, a);
	if (fd < 0) {
		int e = errno;

		debug_msg("%s verifier: %s", what, log);
		errno = e;
	}
	return fd;
}

int bpfasm_load_version(const struct bpfasm *p, enum bpf_prog_type type,
			enum bpf_attach_type expected, uint32_t kern_version, const char *what)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = type;
	a.expected_attach_type = expected;
	a.kern_version = kern_version;
	return load(&a, p, what);
}

int bpfasm_load_fentry(const struct bpfasm *p, uint32_t btf_id, const char *what)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACING;
	a.expected_attach_type = BPF_TRACE_FENTRY;
	a.attach_btf_id = btf_id;
	return load(&a, p, what);
}

int bpfasm_fentry_attach(int prog)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.prog_fd = (uint32_t)prog;
	return (int)bpfasm_sys(BPF_RAW_TRACEPOINT_OPEN, &a);
}

bool bpfasm_memlock_raise(struct rlimit *old)
{
	struct rlimit big = { RLIM_INFINITY, RLIM_INFINITY };

	return getrlimit(RLIMIT_MEMLOCK, old) == 0 && setrlimit(RLIMIT_MEMLOCK, &big) == 0;
}

#define PMU_DIR "/sys/bus/event_source/devices/kprobe"

/* A decimal number at the start of @s, up to @max: its end, or NULL. */
static const char *number(const char *s, long max, long *v)
{
	long n = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		n = n * 10 + (*s - '0');
		if (n > max)
			return NULL;
	}
	*v = n;
	return s;
}

/* Only a newline, or nothing, after the value. */
static bool line_end(const char *s)
{
	return s && (*s == '\0' || (*s == '\n' && s[1] == '\0'));
}

int bpfasm_kprobe_type(const char *text)
{
	long v;
	const char *end = number(text, 0x7fffffff, &v);

	return line_end(end) ? (int)v : -1;
}

int bpfasm_kprobe_retbit(const char *text)
{
	long v;
	const char *end;

	if (strncmp(text, "config:", 7) != 0)
		return -1;
	end = number(text + 7, 63, &v);
	return line_end(end) ? (int)v : -1;
}

int bpfasm_regs_of(const char *machine, struct bpfasm_regs *r)
{
	if (strcmp(machine, "x86_64") == 0) {
		r->ret = 80;	/* ax */
		r->arg1 = 112;	/* di */
		r->arg4 = 88;	/* cx */
		return 0;
	}
	if (strcmp(machine, "aarch64") == 0) {
		r->ret = 0;	/* regs[0] */
		r->arg1 = 0;
		r->arg4 = 24;
		return 0;
	}
	return -1;
}

uint32_t bpfasm_kversion(const char *release)
{
	long a, b, c = 0;
	const char *s = number(release, 255, &a);

	if (!s || *s != '.' || !(s = number(s + 1, 255, &b)))
		return 0;
	if (*s == '.' && !number(s + 1, 0x7fffffff, &c))
		return 0;
	return (uint32_t)((a << 16) + (b << 8) + (c > 255 ? 255 : c));
}

/* The first line of @path into @buf; false when it cannot be read. */
static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok = f && fgets(buf, (int)size, f) != NULL;

	if (f)
		fclose(f);
	return ok;
}

int bpfasm_kprobe_pmu(int *type, int *retbit, struct bpfasm_regs *r, char *why,
		      size_t size)
{
	char buf[64];
	struct utsname u;

	if (uname(&u) < 0 || bpfasm_regs_of(u.machine, r) < 0) {
		snprintf(why, size, "kprobes: the registers of %s are not known to tpmon",
			 u.machine);
		return -1;
	}
	if (!read_line(PMU_DIR "/type", buf, sizeof(buf))) {
		snprintf(why, size, "kprobes: no kprobe PMU (%s: %s; Linux 4.17 and "
			 "CONFIG_KPROBE_EVENTS needed)", PMU_DIR, strerror(errno));
		return -1;
	}
	*type = bpfasm_kprobe_type(buf);
	*retbit = read_line(PMU_DIR "/format/retprobe", buf, sizeof(buf)) ?
		  bpfasm_kprobe_retbit(buf) : -1;
	if (*type < 0 || *retbit < 0) {
		snprintf(why, size, "kprobes: the kprobe PMU's type or retprobe bit "
			 "cannot be read");
		return -1;
	}
	return 0;
}

int bpfasm_kprobe_attach(int type, int retbit, bool ret, const char *func, int prog)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = ret ? 1ULL << retbit : 0;
	a.config1 = (uint64_t)(uintptr_t)func;	/* kprobe_func */
	a.config2 = 0;				/* probe_offset */
	a.sample_period = 1;
	a.wakeup_events = 1;
	/* any process, on CPU 0: the program runs on every CPU */
	fd = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) < 0 ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static void *close_one(void *fd)
{
	close((int)(intptr_t)fd);
	return NULL;
}

void bpfasm_close_all(int *fds, size_t n)
{
	pthread_t th[16];
	size_t i, started = 0;

	for (i = 0; i < n; i++) {
		if (fds[i] < 0)
			continue;
		if (started < sizeof(th) / sizeof(th[0]) &&
		    pthread_create(&th[started], NULL, close_one, (void *)(intptr_t)fds[i]) == 0)
			started++;
		else
			close(fds[i]);
		fds[i] = -1;
	}
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}
