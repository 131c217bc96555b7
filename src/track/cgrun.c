/* SPDX-License-Identifier: MIT */
/* cgrun.c: the cgroups of one run (layout in cgrun.h), whatever the
 * host's layout (cghost.h): the choice of the layout, the guard, and the
 * calls the rest of tpmon makes.  The guard is a forked copy of tpmon: it
 * shares no memory with tpmon afterwards, reads only the paths in its
 * copy of struct tp_cgrun, and uses the allocation-free calls of
 * kernel/cgroup.c and kernel/cgroup_v1.c through its host's teardown(). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include "kernel/cgroup.h"
#include "track/cghost.h"
#include "track/cgrun.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"

/* The layouts, tried in this order: where a cgroup v2 holds the
 * controllers, it is the host's; v1 (or hybrid) otherwise. */
static const struct tp_cg_host *const hosts[] = { &cgrun_v2_host, &cgrun_v1_host };

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

struct tp_cgrun *cgrun_open(const char *path, char *why, size_t whysize)
{
	struct tp_cgrun *c = xmalloc(sizeof(*c));
	char why1[512] = "";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hosts); i++) {
		memset(c, 0, sizeof(*c));
		c->guard_fd = -1;
		c->host = hosts[i];
		if (hosts[i]->open(c, path, i ? why : why1, i ? whysize : sizeof(why1)) == 0) {
			debug_msg("cgroup: %s, run in %s", c->layout, c->name);
			return c;
		}
		hosts[i]->teardown(c, getpid());
		/* --cgroup=PATH names a cgroup v2 */
		if (path)
			break;
	}
	if (!path) {
		char why2[512];

		snprintf(why2, sizeof(why2), "%s", why);
		snprintf(why, whysize, "%s; %s", why1, why2);
	} else {
		snprintf(why, whysize, "%s", why1);
	}
	free(c);
	return NULL;
}

/* Close every descriptor from 3 up but @keep: close_range(2) (5.9), or
 * one by one up to the descriptor limit (RHEL 8's 4.18).  The guard must
 * hold nothing of tpmon's or of whoever started it. */
static void close_all_but(int keep)
{
	struct rlimit rl;
	rlim_t f, top = 65536;

#ifdef SYS_close_range
	if ((keep <= 3 || syscall(SYS_close_range, 3U, (unsigned)keep - 1, 0U) == 0) &&
	    syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0U) == 0)
		return;
#endif
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < top)
		top = rl.rlim_cur;
	for (f = 3; f < top; f++)
		if (f != (rlim_t)keep)
			close((int)f);
}

/* The guard's life: wait for tpmon's word or its death. */
static void ATTR_NORETURN guard_main(const struct tp_cgrun *c, int fd)
{
	static const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
				       SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2 };
	sigset_t none;
	size_t i;
	char ch = 0;
	ssize_t n;
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
	close_all_but(fd);
	do
		n = read(fd, &ch, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && ch == 'q')
		_exit(0);
	/* tpmon is gone without a word: kill the task, remove the run */
	c->host->teardown(c, getpid());
	_exit(0);
}

int cgrun_guard(struct tp_cgrun *c)
{
	int p[2], st;
	pid_t mid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		perror_msg("cgroup guard: pipe");
		return -1;
	}
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
			guard_main(c, p[0]);
		_exit(0);
	}
	close(p[0]);
	while (waitpid(mid, &st, 0) < 0 && errno == EINTR)
		;
	c->guard_fd = p[1];
	return 0;
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
