/* SPDX-License-Identifier: MIT */
/* cgroup.c: cgroup v2 interface files (Documentation/admin-guide/
 * cgroup-v2.rst): parsers of their text, and reads and writes of one
 * cgroup directory with plain system calls, no allocation and no stdio,
 * so that the guard process may use them after fork(). */
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "cgroup/cgroup.h"
#include "basic/xmalloc.h"

/* ---- parsers ---- */

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

static size_t line_len(const char *p)
{
	return strcspn(p, "\n");
}

int cgroup_parse_self(const char *buf, char *out, size_t size)
{
	const char *p;

	for (p = buf; *p; p = next_line(p)) {
		size_t n;

		if (strncmp(p, "0::", 3) != 0)
			continue;
		p += 3;
		n = line_len(p);
		if (n == 0 || *p != '/' || n >= size)
			return -1;
		memcpy(out, p, n);
		out[n] = '\0';
		return 0;
	}
	return -1;
}

/* Copy field @p (up to a space) into @out, undoing mountinfo's octal
 * escapes (\040 is a space).  Returns the length, or -1. */
static int unescape_field(const char *p, char *out, size_t size)
{
	size_t n = 0;

	while (*p && *p != ' ' && *p != '\n') {
		char c = *p++;

		if (c == '\\' && p[0] >= '0' && p[0] <= '3' && p[1] >= '0' &&
		    p[1] <= '7' && p[2] >= '0' && p[2] <= '7') {
			c = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0'));
			p += 3;
		}
		if (n + 1 >= size)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return (int)n;
}

/* The start of field @i (from 0) of a line, or NULL. */
static const char *field(const char *line, int i)
{
	const char *p = line;

	while (i-- > 0) {
		p += strcspn(p, " \n");
		if (*p != ' ')
			return NULL;
		p++;
	}
	return p;
}

/* Does the comma-separated list @opts (up to a space or the line's end)
 * hold @name? */
static bool has_option(const char *opts, const char *name)
{
	size_t n = strlen(name);

	while (*opts && *opts != ' ' && *opts != '\n') {
		size_t len = strcspn(opts, ", \n");

		if (len == n && !strncmp(opts, name, n))
			return true;
		opts += len;
		if (*opts == ',')
			opts++;
	}
	return false;
}

int cgroup_parse_mount_of(const char *buf, const char *type, const char *option,
			  char *out, size_t size)
{
	const char *p;
	size_t tlen = strlen(type);

	for (p = buf; *p; p = next_line(p)) {
		size_t n = line_len(p);
		const char *root = field(p, 3), *dash, *end = p + n, *super;

		/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPT...] - TYPE SRC SUPER" */
		for (dash = p; dash && dash < end; dash = strchr(dash + 1, ' ')) {
			if (!strncmp(dash, " - ", 3))
				break;
		}
		if (!dash || dash >= end || !root || root >= end)
			continue;
		if (strncmp(dash + 3, type, tlen) != 0 || dash[3 + tlen] != ' ')
			continue;
		super = field(dash + 3, 2);
		if (option && (!super || super >= end || !has_option(super, option)))
			continue;
		/* the hierarchy's own root: paths of /proc/self/cgroup are
		 * relative to it */
		if (strncmp(root, "/ ", 2) != 0)
			continue;
		if (unescape_field(field(p, 4), out, size) <= 0)
			return -1;
		return 0;
	}
	return -1;
}

int cgroup_parse_mount(const char *buf, char *out, size_t size)
{
	return cgroup_parse_mount_of(buf, "cgroup2", NULL, out, size);
}

static const struct {
	const char *name;
	unsigned bit;
} controller_names[] = {
	{ "cpu", TP_CG_CPU }, { "memory", TP_CG_MEMORY },
	{ "pids", TP_CG_PIDS }, { "io", TP_CG_IO },
};

unsigned cgroup_parse_controllers(const char *buf)
{
	unsigned mask = 0;
	const char *p = buf;

	for (;;) {
		size_t n, i;

		p += strspn(p, " \t\n");
		if (!*p)
			break;
		n = strcspn(p, " \t\n");
		for (i = 0; i < sizeof(controller_names) / sizeof(controller_names[0]); i++)
			if (strlen(controller_names[i].name) == n &&
			    !strncmp(p, controller_names[i].name, n))
				mask |= controller_names[i].bit;
		p += n;
	}
	return mask;
}

/* A decimal u64 at @p ending at a space, newline or NUL.  0, or -1. */
static int parse_u64(const char *p, uint64_t *v, const char **end)
{
	uint64_t x = 0;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (*p && *p != ' ' && *p != '\n')
		return -1;
	*v = x;
	if (end)
		*end = p;
	return 0;
}

int cgroup_parse_key(const char *buf, const char *key, uint64_t *v)
{
	size_t k = strlen(key);
	const char *p;

	for (p = buf; *p; p = next_line(p))
		if (!strncmp(p, key, k) && p[k] == ' ')
			return parse_u64(p + k + 1, v, NULL);
	return -1;
}

int cgroup_parse_value(const char *buf, uint64_t *v)
{
	if (!strncmp(buf, "max", 3) && (buf[3] == '\n' || !buf[3])) {
		*v = TP_CG_MAX;
		return 0;
	}
	return parse_u64(buf, v, NULL);
}

static int add_u64(uint64_t *sum, uint64_t v)
{
	if (*sum > UINT64_MAX - v)
		return -1;
	*sum += v;
	return 0;
}

int cgroup_parse_io(const char *buf, uint64_t *rbytes, uint64_t *wbytes)
{
	uint64_t r = 0, w = 0;
	const char *p;

	for (p = buf; *p; p = next_line(p)) {
		const char *end = p + line_len(p), *q = p;

		if (q == end)
			continue;
		/* "MAJ:MIN key=value key=value ..." */
		q += strcspn(q, " \n");
		while (q < end && *q == ' ') {
			uint64_t v;
			const char *after;

			q++;
			if (!strncmp(q, "rbytes=", 7) || !strncmp(q, "wbytes=", 7)) {
				if (parse_u64(q + 7, &v, &after) < 0 ||
				    add_u64(*q == 'r' ? &r : &w, v) < 0)
					return -1;
				q = after;
			} else {
				q += strcspn(q, " \n");
			}
		}
	}
	*rbytes = r;
	*wbytes = w;
	return 0;
}

/* The total= of one pressure line [@p, @end).  0, or -1. */
static int pressure_total(const char *p, const char *end, uint64_t *v)
{
	const char *q;

	for (q = p; q < end; q += strcspn(q, " \n"), q += strspn(q, " "))
		if (!strncmp(q, "total=", 6))
			return parse_u64(q + 6, v, NULL);
	return -1;
}

int cgroup_parse_pressure(const char *buf, uint64_t *some, uint64_t *full, bool *has_full)
{
	bool has_some = false;
	const char *p;

	*has_full = false;
	for (p = buf; *p; p = next_line(p)) {
		const char *end = p + line_len(p);

		if (!strncmp(p, "some ", 5)) {
			if (pressure_total(p + 5, end, some) < 0)
				return -1;
			has_some = true;
		} else if (!strncmp(p, "full ", 5)) {
			if (pressure_total(p + 5, end, full) < 0)
				return -1;
			*has_full = true;
		}
	}
	return has_some ? 0 : -1;
}

/* For the tests only (tests/conformance-*.test): TPMON_TEST_HIDE_CGROUP_FILES,
 * a comma-separated list of interface file names (cgroup.kill,
 * memory.peak), makes tpmon see a kernel without them, as RHEL 8's and
 * 9's are.  Is @name one of them?  No allocation: the guard calls this
 * after fork(). */
static bool hidden_for_test(const char *name, size_t len)
{
	const char *p = getenv("TPMON_TEST_HIDE_CGROUP_FILES");

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n == len && memcmp(p, name, len) == 0)
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

int cgroup_join(char *out, size_t size, const char *dir, const char *name)
{
	static const char hide[] = ".hidden-by-test";
	size_t a = strlen(dir), b = strlen(name);
	bool hidden = hidden_for_test(name, b);

	if (a + 1 + b + (hidden ? sizeof(hide) - 1 : 0) + 1 > size)
		return -1;
	memcpy(out, dir, a);
	out[a] = '/';
	memcpy(out + a + 1, name, b + 1);
	/* a name no kernel has: opening it fails with ENOENT, as the file
	 * that is not there does on an older kernel, by the same path */
	if (hidden)
		memcpy(out + a + 1 + b, hide, sizeof(hide));
	return 0;
}

/* ---- one cgroup directory ---- */

#define CG_PATH 4096

ssize_t cgroup_read(const char *dir, const char *name, char *buf, size_t size)
{
	char path[CG_PATH];
	ssize_t got = 0;
	int fd, e;

	if (size == 0 || cgroup_join(path, sizeof(path), dir, name) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((size_t)got < size - 1) {
		ssize_t n = read(fd, buf + got, size - 1 - (size_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0) {
				e = errno;
				close(fd);
				errno = e;
				return -1;
			}
			break;
		}
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	return got;
}

int cgroup_write(const char *dir, const char *name, const char *value)
{
	char path[CG_PATH];
	size_t len = strlen(value);
	ssize_t n;
	int fd, e;

	if (cgroup_join(path, sizeof(path), dir, name) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n != (ssize_t)len) {
		errno = n < 0 ? e : EIO;
		return -1;
	}
	return 0;
}

/* @v in decimal into @out (at least 21 bytes). */
static void u64_text(uint64_t v, char *out)
{
	char tmp[21];
	int n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
}

int cgroup_write_u64(const char *dir, const char *name, uint64_t v)
{
	char text[24];

	if (v == TP_CG_MAX)
		return cgroup_write(dir, name, "max");
	u64_text(v, text);
	return cgroup_write(dir, name, text);
}

int cgroup_enter(const char *dir, pid_t pid)
{
	return cgroup_write_u64(dir, "cgroup.procs", (uint64_t)pid);
}

unsigned cgroup_controllers(const char *dir, const char *file)
{
	char buf[256];

	if (cgroup_read(dir, file, buf, sizeof(buf)) < 0)
		return 0;
	return cgroup_parse_controllers(buf);
}

static int subtree(const char *dir, unsigned mask, char sign)
{
	char text[64] = "";
	size_t i, n = 0;

	for (i = 0; i < sizeof(controller_names) / sizeof(controller_names[0]); i++) {
		size_t k = strlen(controller_names[i].name);

		if (!(mask & controller_names[i].bit))
			continue;
		if (n)
			text[n++] = ' ';
		text[n++] = sign;
		memcpy(text + n, controller_names[i].name, k);
		n += k;
		text[n] = '\0';
	}
	if (!n)
		return 0;
	return cgroup_write(dir, "cgroup.subtree_control", text);
}

int cgroup_enable(const char *dir, unsigned mask)
{
	return subtree(dir, mask, '+');
}

int cgroup_disable(const char *dir, unsigned mask)
{
	return subtree(dir, mask, '-');
}

/* Read single-value file @name into *@v; sets @bit in @known on success. */
static void read_value(const char *dir, const char *name, uint64_t *v,
		       unsigned *known, unsigned bit)
{
	char buf[64];

	if (cgroup_read(dir, name, buf, sizeof(buf)) >= 0 && cgroup_parse_value(buf, v) == 0)
		*known |= bit;
}

/* @dir/@name's totals into f->psi[@some] and f->psi[@some + 1] (full). */
static void read_pressure(const char *dir, const char *name, struct tp_cg_figures *f,
			  enum tp_psi some)
{
	char buf[256];
	bool has_full;

	if (cgroup_read(dir, name, buf, sizeof(buf)) < 0 ||
	    cgroup_parse_pressure(buf, &f->psi[some], &f->psi[some + 1], &has_full) < 0)
		return;
	f->psi_known |= 1u << some;
	if (has_full)
		f->psi_known |= 1u << (some + 1);
}

void cgroup_figures(const char *dir, struct tp_cg_figures *f)
{
	char buf[4096];

	memset(f, 0, sizeof(*f));
	if (cgroup_read(dir, "cpu.stat", buf, sizeof(buf)) >= 0 &&
	    cgroup_parse_key(buf, "usage_usec", &f->usage_usec) == 0 &&
	    cgroup_parse_key(buf, "user_usec", &f->user_usec) == 0 &&
	    cgroup_parse_key(buf, "system_usec", &f->system_usec) == 0)
		f->known |= TP_CGF_CPU;
	read_value(dir, "memory.current", &f->mem_current, &f->known, TP_CGF_MEM_CURRENT);
	read_value(dir, "memory.peak", &f->mem_peak, &f->known, TP_CGF_MEM_PEAK);
	if (cgroup_read(dir, "memory.events", buf, sizeof(buf)) >= 0 &&
	    cgroup_parse_key(buf, "oom", &f->oom) == 0 &&
	    cgroup_parse_key(buf, "oom_kill", &f->oom_kill) == 0 &&
	    cgroup_parse_key(buf, "max", &f->mem_max_events) == 0) {
		f->known |= TP_CGF_MEM_EVENTS;
		if (cgroup_parse_key(buf, "oom_group_kill", &f->oom_group_kill) == 0)
			f->known |= TP_CGF_GROUP_KILL;
	}
	read_value(dir, "pids.current", &f->pids_current, &f->known, TP_CGF_PIDS);
	read_value(dir, "pids.peak", &f->pids_peak, &f->known, TP_CGF_PIDS_PEAK);
	if (cgroup_read(dir, "io.stat", buf, sizeof(buf)) >= 0 &&
	    cgroup_parse_io(buf, &f->rbytes, &f->wbytes) == 0)
		f->known |= TP_CGF_IO;
	read_pressure(dir, "cpu.pressure", f, TP_PSI_CPU_SOME);
	read_pressure(dir, "memory.pressure", f, TP_PSI_MEMORY_SOME);
	read_pressure(dir, "io.pressure", f, TP_PSI_IO_SOME);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Wait up to @wait_ms for @dir to hold no live process.  0, or -1. */
static int cgroup_wait_empty(const char *dir, int wait_ms)
{
	int waited = 0, step = 1;

	for (;;) {
		int p = cgroup_populated(dir);

		if (p <= 0)
			return p == 0 ? 0 : -1;
		if (waited >= wait_ms)
			break;
		sleep_ms(step);
		waited += step;
		step = step < 32 ? step * 2 : 32;
	}
	errno = EBUSY;
	return -1;
}

bool cgroup_can_kill(const char *dir)
{
	char path[CG_PATH];

	return cgroup_join(path, sizeof(path), dir, "cgroup.kill") == 0 &&
	       access(path, F_OK) == 0;
}

/* Call @fn for each pid in @dir/cgroup.procs, read in pieces (a big
 * cgroup lists more than any one buffer holds).  Returns -1 when the
 * file cannot be opened. */
static int each_pid(const char *dir, void (*fn)(pid_t pid, void *arg), void *arg)
{
	char path[CG_PATH], buf[4096];
	size_t have = 0;
	int fd;

	if (cgroup_join(path, sizeof(path), dir, "cgroup.procs") < 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *line, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
			uint64_t pid;

			*nl = '\0';
			if (parse_u64(line, &pid, NULL) == 0 && pid > 0 && pid < (1u << 30))
				fn((pid_t)pid, arg);
		}
		/* keep the piece of a line that the next read completes */
		have = strlen(line);
		memmove(buf, line, have);
		if (have >= sizeof(buf) - 1)
			have = 0;	/* no pid is that long */
	}
	close(fd);
	return 0;
}

/* Call @fn for each cgroup directly below @dir. */
static void each_child(const char *dir, void (*fn)(const char *sub, void *arg), void *arg)
{
	char dents[4096];
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, dents, sizeof(dents))) > 0) {
		long off = 0;

		while (off < n) {
			const struct dirent64 *d = (const struct dirent64 *)(void *)(dents + off);
			char sub[CG_PATH];

			off += d->d_reclen;
			if (d->d_type == DT_DIR && d->d_name[0] != '.' &&
			    cgroup_join(sub, sizeof(sub), dir, d->d_name) == 0)
				fn(sub, arg);
		}
	}
	close(fd);
}

struct walk {
	int depth;
	int count;		/* kills sent */
	int *budget_ms;		/* removal: time left to retry EBUSY */
	pid_t **v;		/* members */
	size_t n, cap;
};

static void kill_one(pid_t pid, void *arg)
{
	struct walk *w = arg;

	if (kill(pid, SIGKILL) == 0)
		w->count++;
}

/* SIGKILL every process listed in @dir/cgroup.procs and, recursively
 * (depth-bounded), in the cgroups below. */
static void kill_listed(const char *dir, void *arg)
{
	struct walk *w = arg;

	each_pid(dir, kill_one, w);
	if (w->depth >= 32)
		return;
	w->depth++;
	each_child(dir, kill_listed, w);
	w->depth--;
}

/* SIGKILL what @dir and below list, again and again, until it is empty
 * or @wait_ms have passed.  0 when empty. */
static int kill_until_empty(const char *dir, int wait_ms)
{
	int waited = 0;

	for (;;) {
		struct walk w = { 0, 0, NULL, NULL, 0, 0 };

		kill_listed(dir, &w);
		if (cgroup_wait_empty(dir, 20) == 0)
			return 0;
		waited += 20;
		if (waited >= wait_ms)
			return -1;
	}
}

int cgroup_kill(const char *dir, int wait_ms, bool kill_file)
{
	bool frozen;

	if (kill_file && cgroup_write(dir, "cgroup.kill", "1") == 0)
		return cgroup_wait_empty(dir, wait_ms);
	/* before 5.14: freeze (5.2) so that nothing forks between reading
	 * cgroup.procs and the kills, and kill what is listed until none is
	 * left (a frozen task still dies of SIGKILL in cgroup v2) */
	frozen = cgroup_write(dir, "cgroup.freeze", "1") == 0;
	kill_until_empty(dir, wait_ms);
	if (frozen)
		cgroup_write(dir, "cgroup.freeze", "0");
	return cgroup_populated(dir) == 0 ? 0 : -1;
}

int cgroup_kill_unfrozen(const char *dir, int wait_ms)
{
	if (cgroup_write(dir, "cgroup.kill", "1") == 0)
		return cgroup_wait_empty(dir, wait_ms);
	return kill_until_empty(dir, wait_ms);
}

/* rmdir @dir's subdirectories (depth-bounded), then @dir itself. */
static void remove_below(const char *dir, void *arg)
{
	struct walk *w = arg;
	int step = 1;

	if (w->depth < 32) {
		w->depth++;
		each_child(dir, remove_below, w);
		w->depth--;
	}
	/* EBUSY: the last process has gone but the cgroup is not released
	 * yet; retry while the budget lasts */
	while (rmdir(dir) < 0) {
		if (errno == ENOENT)
			return;
		if (errno != EBUSY || *w->budget_ms <= 0) {
			w->count++;
			return;
		}
		sleep_ms(step);
		*w->budget_ms -= step;
		step = step < 32 ? step * 2 : 32;
	}
}

int cgroup_remove(const char *dir, int wait_ms)
{
	int budget = wait_ms;
	struct walk w = { 0, 0, &budget, NULL, 0, 0 };

	remove_below(dir, &w);
	return access(dir, F_OK) < 0 && errno == ENOENT ? 0 : -1;
}

/* Add @pid to the walk's members, or only count it (no array: the count
 * allocates nothing). */
static void add_member(pid_t pid, void *arg)
{
	struct walk *w = arg;

	if (!w->v) {
		w->n++;
		return;
	}
	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 64;
		*w->v = xreallocarray(*w->v, w->cap, sizeof(**w->v));
	}
	(*w->v)[w->n++] = pid;
}

static void add_members(const char *dir, void *arg)
{
	struct walk *w = arg;

	each_pid(dir, add_member, w);
	if (w->depth >= 32)
		return;
	w->depth++;
	each_child(dir, add_members, w);
	w->depth--;
}

size_t cgroup_members(const char *dir, pid_t **out)
{
	struct walk w = { 0, 0, NULL, out, 0, 0 };

	*out = NULL;
	add_members(dir, &w);
	return w.n;
}

int cgroup_populated(const char *dir)
{
	char buf[256];
	uint64_t v;

	if (cgroup_read(dir, "cgroup.events", buf, sizeof(buf)) < 0) {
		char procs[CG_PATH];

		/* cgroup v1: its members, listed */
		if (errno != ENOENT || cgroup_join(procs, sizeof(procs), dir, "cgroup.procs") < 0 ||
		    access(procs, F_OK) < 0)
			return -1;
		{
			struct walk w = { 0, 0, NULL, NULL, 0, 0 };

			add_members(dir, &w);	/* counted: no array */
			return w.n > 0;
		}
	}
	if (cgroup_parse_key(buf, "populated", &v) < 0) {
		errno = EINVAL;
		return -1;
	}
	return v != 0;
}
