/* SPDX-License-Identifier: MIT */
/* cgrun.c: the cgroups of one run (layout in cgrun.h), whatever the
 * host's layout (cghost.h): the choice of the layout, the guard, and the
 * calls the rest of tpmon makes.  The guard is a forked copy of tpmon: it
 * shares no memory with tpmon afterwards, reads only the paths in its
 * copy of struct tp_cgrun, and uses the allocation-free calls of
 * cgroup/cgroup.c and cgroup/cgroup_v1.c through its host's teardown(). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include "cgroup/cgroup.h"
#include "cgroup/cghome.h"
#include "cgroup/cghost.h"
#include "cgroup/cgrun.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"

/* The host table: the rows the chooser tries, in this order.  Where a
 * cgroup v2 holds the controllers, it is the host's; v1 (or hybrid)
 * otherwise; then (--cgroup=auto) a scope the user's systemd gives, and
 * last tpmon's own cgroup, read only.  A new backend is one file and one
 * row here. */
static const struct tp_cg_host *const hosts[] = {
	&cgrun_v2_host, &cgrun_v1_host, &cgrun_scope_host, &cgrun_home_host,
};

/* The monotonic clock, s. */
static double now_s(void)
{
	return (double)cgrun_now_ms() / 1000.0;
}

char *cgrun_read_text(const char *path)
{
	size_t cap = 4096, len = 0;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap)
			buf = xreallocarray(buf, cap *= 2, 1);
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

int cgrun_why(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* Add row @host's reason @one to @why ("; " between them). */
static void add_why(char *why, size_t size, const char *one)
{
	size_t n = strlen(why);

	if (!*one || n + 3 >= size)
		return;
	snprintf(why + n, size - n, "%s%s", n ? "; " : "", one);
}

/* Try row @host: the run in @c on success (0), else its reason added to
 * @why (a read-only row's only to the debug output: it is not why the
 * run has no cgroup of its own). */
static int try_row(struct tp_cgrun *c, const struct tp_cg_host *host, const char *path,
		   char *why, size_t size)
{
	char one[1024] = "";

	memset(c, 0, sizeof(*c));
	c->guard_fd = -1;
	c->host = host;
	if (host->open(c, path, one, sizeof(one)) == 0)
		return 0;
	host->teardown(c, getpid());
	if (host->read_only)
		debug_msg("cgroup: no read-only one either (%s)", one);
	else
		add_why(why, size, one);
	return -1;
}

struct tp_cgrun *cgrun_open(const char *path, unsigned allow, char *why, size_t whysize)
{
	struct tp_cgrun *c = xmalloc(sizeof(*c));
	size_t i;

	why[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(hosts); i++) {
		/* --cgroup=PATH names a cgroup v2: the first row alone */
		if ((path && i > 0) || (hosts[i]->needs & ~allow))
			continue;
		if (try_row(c, hosts[i], path, why, whysize) == 0) {
			debug_msg("cgroup: %s, run in %s", c->layout, c->name);
			return c;
		}
	}
	free(c);
	return NULL;
}

bool cgrun_own(const struct tp_cgrun *c)
{
	return c && !c->host->read_only;
}

bool cgrun_scoped(const struct tp_cgrun *c)
{
	return c && c->scoped;
}

bool cgrun_shared(const struct tp_cgrun *c)
{
	return c && c->home && cghome_shared(c->home);
}

/* Close descriptors @from to @to (inclusive; @to < @from: none): one
 * close_range(2) (5.9), or one by one up to the descriptor limit (RHEL
 * 8's 4.18). */
static void close_span(int from, int to)
{
	struct rlimit rl;
	rlim_t f, top = 65536;

	if (to < from)
		return;
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)from, (unsigned)to, 0U) == 0)
		return;
#endif
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < top)
		top = rl.rlim_cur;
	for (f = (rlim_t)from; f < top && f <= (rlim_t)to; f++)
		close((int)f);
}

/* Close every descriptor from 3 up but @keep and @keep2 (-1: none).  The
 * guard must hold nothing of tpmon's or of whoever started it. */
static void close_all_but(int keep, int keep2)
{
	int lo = keep < keep2 ? keep : keep2, hi = keep < keep2 ? keep2 : keep;

	if (lo < 3)		/* one to keep (or none) */
		lo = hi;
	if (lo < 3) {
		close_span(3, INT_MAX);
		return;
	}
	close_span(3, lo - 1);
	close_span(lo + 1, hi - 1);
	close_span(hi + 1, INT_MAX);
}

/* Wait up to @ms (-1: for ever) for tpmon's word on @fd: 'q' (its run
 * is over), or its end (EOF: it died).  1 on either, 0 on time out. */
static int guard_wait(int fd, int ms, bool *quit)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	char ch = 0;
	ssize_t n;
	int r;

	do
		r = poll(&pfd, 1, ms);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	do
		n = read(fd, &ch, 1);
	while (n < 0 && errno == EINTR);
	*quit = n == 1 && ch == 'q';
	return 1;
}

/* The run's deadline is long past and tpmon has not ended it: tpmon is
 * stopped (a task of its user may SIGSTOP it) or stuck.  It is woken to
 * enforce its limit itself (its summary then says so); if it still has
 * not within a second, the guard kills the task. */
static bool guard_overdue(const struct tp_cgrun *c, int fd, bool *quit)
{
	kill(c->maker, SIGCONT);
	if (guard_wait(fd, 1000, quit))
		return true;
	c->host->kill(c, TP_CG_KILL_WAIT_MS);
	kill(c->maker, SIGCONT);
	return false;
}

/* tpmon is gone without a word: kill the task, remove the run, and
 * leave the note @hook writes. */
static void guard_orphaned(const struct tp_cgrun *c, const struct tp_guard_hook *hook)
{
	struct tp_guard_lost l = { c->maker, getpid(), false };

	l.killed = c->procs && c->procs[0] && cgroup_populated(c->procs) == 1;
	c->host->teardown(c, getpid());
	if (hook->lost)
		hook->lost(hook->arg, &l);
}

/* The guard's life: wait for tpmon's word or its death, and past the
 * run's deadline (cgrun_guard()), make sure the task ends. */
static void ATTR_NORETURN guard_main(const struct tp_cgrun *c, int fd, double deadline,
				     const struct tp_guard_hook *hook)
{
	static const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
				       SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2 };
	sigset_t none;
	size_t i;
	bool quit = false;
	int null, f;

	setsid();
	for (i = 0; i < ARRAY_SIZE(ignored); i++)
		signal(ignored[i], SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_NAME, "tpmon-guard", 0, 0, 0);
	/* hold nothing of tpmon's: a pipe that a test reads to its end
	 * must not wait for the guard */
	null = open("/dev/null", O_RDWR);
	for (f = 0; f < 3; f++)
		if (null >= 0 && null != f)
			dup2(null, f);
	close_all_but(fd, hook->keep_fd);
	/* where tpmon could not go into its monitor leaf, the guard holds it:
	 * an empty leaf is how other tpmons know a run is dead */
	if (!c->in_monitor && c->monitor[0])
		cgroup_enter(c->monitor, 0);
	for (;;) {
		double left = deadline - now_s();
		/* (a wait is at most 11 days: a longer limit waits again) */
		int ms = deadline <= 0 ? -1 : left <= 0 ? 0 : left > 1e6 ? 1000000000 :
			 (int)(left * 1000) + 1;

		if (guard_wait(fd, ms, &quit))
			break;
		if (now_s() < deadline)
			continue;
		if (guard_overdue(c, fd, &quit))
			break;
		deadline = 0;	/* the task was killed: now tpmon's word */
	}
	if (!quit)
		guard_orphaned(c, hook);
	_exit(0);
}

int cgrun_guard(struct tp_cgrun *c, double deadline, const struct tp_guard_hook *hook)
{
	static const struct tp_guard_hook no_hook = { NULL, NULL, -1 };
	int p[2];
	pid_t mid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		perror_msg("cgroup guard: pipe");
		return -1;
	}
	c->maker = getpid();
	mid = fork();
	if (mid < 0) {
		perror_msg("cgroup guard: fork");
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (mid == 0) {
		/* the guard is a grandchild: not tpmon's child, so tpmon's
		 * wait4(-1) never sees it */
		close(p[1]);
		if (fork() == 0)
			guard_main(c, p[0], deadline, hook ? hook : &no_hook);
		_exit(0);
	}
	close(p[0]);
	c->guard_mid = mid;
	c->guard_fd = p[1];
	return 0;
}

void cgrun_guard_settle(struct tp_cgrun *c)
{
	int st;

	if (!c || c->guard_mid <= 0)
		return;
	while (waitpid(c->guard_mid, &st, 0) < 0 && errno == EINTR)
		;
	c->guard_mid = 0;
}

int cgrun_kill(const struct tp_cgrun *c, int wait_ms)
{
	return c->host->kill(c, wait_ms);
}

int cgrun_limit(const struct tp_cgrun *c, uint64_t mem_bytes, uint64_t pids)
{
	return c->host->limit(c, mem_bytes, pids);
}

const char *cgrun_name(const struct tp_cgrun *c)
{
	return c->name;
}

const char *cgrun_layout(const struct tp_cgrun *c)
{
	return c->layout;
}

const char *cgrun_v2_task(const struct tp_cgrun *c)
{
	return c->task[0] ? c->task : NULL;
}

void cgrun_figures(const struct tp_cgrun *c, struct tp_cg_figures *f)
{
	c->host->figures(c, f);
}

size_t cgrun_members(const struct tp_cgrun *c, pid_t **out)
{
	if (!c->procs) {
		*out = NULL;
		return 0;
	}
	return cgroup_members(c->procs, out);
}

uint64_t cgrun_oom_kills(const struct tp_cgrun *c)
{
	struct tp_cg_figures f;

	cgrun_figures(c, &f);
	return (f.known & TP_CGF_MEM_EVENTS) ? f.oom_kill + f.oom_group_kill : 0;
}

void cgrun_run_name(char *out, size_t size)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(out, size, "tpmon-%d-%lx", (int)getpid(),
		 (unsigned long)(ts.tv_nsec / 1000) & 0xfffff);
}

bool cgrun_run_named(const char *name)
{
	const char *p = name;
	size_t digits, hex;

	if (strncmp(p, "tpmon-", 6) != 0)
		return false;
	p += 6;
	digits = strspn(p, "0123456789");
	if (digits == 0 || digits > 10 || p[digits] != '-')
		return false;
	p += digits + 1;
	hex = strspn(p, "0123456789abcdef");
	return hex > 0 && hex <= 5 && p[hex] == '\0';
}

/* Is @name one of the NULL-ended @want? */
static bool wanted(const char *name, const char *const *want)
{
	for (; *want; want++)
		if (!strcmp(name, *want))
			return true;
	return false;
}

/* Is @run this user's directory whose subdirectories are all among
 * @want, and (@whole) every one of them there? */
static bool run_shaped(const char *run, const char *const *want, bool whole)
{
	struct stat st;
	struct dirent *e;
	size_t n = 0, nwant = 0;
	bool ok = true;
	DIR *d;

	if (lstat(run, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return false;
	d = opendir(run);
	if (!d)
		return false;
	while (ok && (e = readdir(d))) {
		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		ok = wanted(e->d_name, want);
		n++;
	}
	closedir(d);
	while (want[nwant])
		nwant++;
	return ok && (n == nwant || (!whole && n < nwant));
}

bool cgrun_is_run(const char *run, const char *const *want)
{
	return run_shaped(run, want, true);
}

bool cgrun_is_run_part(const char *run, const char *const *want)
{
	return run_shaped(run, want, false);
}

bool cgrun_is_run_mark(const char *run)
{
	static const char *const mark[] = { "monitor", NULL };

	return run_shaped(run, mark, true);
}

int cgrun_remove_run(const char *run, int wait_ms)
{
	char task[TP_CGRUN_PATH];
	uint64_t deadline = cgrun_now_ms() + (uint64_t)(wait_ms > 0 ? wait_ms : 0);

	if (cgroup_join(task, sizeof(task), run, "task") == 0 && access(task, F_OK) == 0 &&
	    cgroup_remove(task, wait_ms) < 0)
		return -1;
	return cgroup_remove(run, cgrun_ms_left(deadline));
}

uint64_t cgrun_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int cgrun_ms_left(uint64_t deadline)
{
	uint64_t now = cgrun_now_ms();

	return now >= deadline ? 0 : (int)(deadline - now);
}

void cgrun_sweep(const struct tp_cgrun *c)
{
	int n;

	if (!c || getenv("TPMON_CGROUP_NO_SWEEP"))
		return;
	n = c->host->sweep(c, cgrun_now_ms() + TP_CG_SWEEP_MS);
	if (n > 0)
		debug_msg("cgroup: swept %d run%s that dead tpmons left", n, n == 1 ? "" : "s");
}

bool cgrun_settled(const char *dir)
{
	struct stat st;

	return stat(dir, &st) == 0 && time(NULL) - st.st_mtime > 10;
}

int cgrun_set(const char *dir, const char *file, uint64_t v)
{
	if (cgroup_write_u64(dir, file, v) == 0)
		return 0;
	warn_msg("cgroup: cannot set %s/%s: %s", dir, file, strerror(errno));
	return -1;
}

uint64_t cgrun_mem_limit(uint64_t mem_bytes)
{
	/* the kernel lets a task that is being killed charge what it
	 * touches on its way out, past the limit: 4 kB over 200 MB in the
	 * VM.  The headroom keeps the peak at most the limit. */
	return mem_bytes > 4 * TP_CG_MEM_HEADROOM ? mem_bytes - TP_CG_MEM_HEADROOM : mem_bytes;
}

void cgrun_close(struct tp_cgrun *c)
{
	if (!c)
		return;
	cgrun_guard_settle(c);
	if (c->guard_fd >= 0) {
		ssize_t n;

		do
			n = write(c->guard_fd, "q", 1);
		while (n < 0 && errno == EINTR);
		close(c->guard_fd);
	}
	c->host->teardown(c, getpid());
	if (c->run[0] && access(c->run, F_OK) == 0)
		warn_msg("cgroup: could not remove %s", c->run);
	free(c);
}

const char *cgrun_hint(void)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char path[TP_CGRUN_PATH];

	if (getuid() == 0 || !rt || !*rt)
		return NULL;
	if (snprintf(path, sizeof(path), "%s/systemd/private", rt) >= (int)sizeof(path) ||
	    access(path, F_OK) < 0)
		return NULL;
	return "systemd-run --user --scope -p Delegate=yes tpmon ...";
}
