/* SPDX-License-Identifier: MIT */
/* cgrun.c: the cgroups of one run (layout in cgrun.h).  The guard is a
 * forked copy of tpmon: it shares no memory with tpmon afterwards, reads
 * only the paths in its copy of struct tp_cgrun, and uses cgroup.c's
 * allocation-free calls. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include "kernel/cgroup.h"
#include "track/cgrun.h"
#include "track/cghome.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"

/* the controllers a run hands to its task, where the base has them */
#define WANTED (TP_CG_CPU | TP_CG_MEMORY | TP_CG_PIDS | TP_CG_IO)

enum { KILL_WAIT_MS = 5000, REMOVE_WAIT_MS = 2000, GUARD_WAIT_MS = 2000 };

/* The whole of a /proc text file, malloc'd, or NULL. */
static int cgrun_sweep(const char *base, const char *except);

static char *read_text(const char *path)
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

static int set_why(char *why, size_t size, const char *fmt, ...) ATTR_FORMAT(3, 4);

static int set_why(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

static bool writable(const char *dir, const char *file)
{
	char p[TP_CGRUN_PATH];

	if (!file)
		return access(dir, W_OK) == 0;
	return cgroup_join(p, sizeof(p), dir, file) == 0 && access(p, W_OK) == 0;
}

/* The hierarchy's real root has no cgroup.type: only it may hold
 * processes and hand controllers down at once. */
static bool is_real_root(const char *dir)
{
	char p[TP_CGRUN_PATH];

	return cgroup_join(p, sizeof(p), dir, "cgroup.type") == 0 &&
	       access(p, F_OK) < 0 && errno == ENOENT;
}

/* Processes in @dir other than @self; -1 when unreadable. */
static int others_in(const char *dir, pid_t self)
{
	char buf[8192];
	const char *p;
	int n = 0;

	if (cgroup_read(dir, "cgroup.procs", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; *p;) {
		long pid = strtol(p, NULL, 10);

		if (pid > 0 && pid != self)
			n++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return n;
}

static bool systemd_unit(const char *dir)
{
	const char *base = strrchr(dir, '/');
	size_t n;

	base = base ? base + 1 : dir;
	n = strlen(base);
	return (n > 6 && !strcmp(base + n - 6, ".slice")) ||
	       (n > 6 && !strcmp(base + n - 6, ".scope")) ||
	       (n > 8 && !strcmp(base + n - 8, ".service"));
}

/* May tpmon empty @dir (its own cgroup) and make its run inside? */
static int own_usable(const char *dir, char *why, size_t size)
{
	int others;

	if (!writable(dir, NULL) || !writable(dir, "cgroup.procs") ||
	    !writable(dir, "cgroup.subtree_control"))
		return set_why(why, size, "%s is not writable by uid %d (no delegated cgroup)",
			       dir, (int)getuid());
	if (getuid() != 0 && !cghome_owned(dir))
		return set_why(why, size, "%s is writable but not delegated to uid %d "
			       "(not its owner)", dir, (int)getuid());
	if ((cgroup_controllers(dir, "cgroup.controllers") & TP_CG_NEEDED) != TP_CG_NEEDED)
		return set_why(why, size, "%s does not offer the memory and pids controllers", dir);
	if (is_real_root(dir))
		return 0;
	others = others_in(dir, getpid());
	if (others != 0)
		return set_why(why, size, "%s holds %d other process%s: tpmon needs a cgroup of its own",
			       dir, others, others == 1 ? "" : "es");
	return 0;
}

/* May tpmon make its run in @dir (tpmon is not in it), as it is? */
static int beside_usable(const char *dir, char *why, size_t size)
{
	if (!writable(dir, NULL) || !writable(dir, "cgroup.procs"))
		return set_why(why, size, "%s is not writable by uid %d", dir, (int)getuid());
	if (getuid() != 0 && !cghome_owned(dir))
		return set_why(why, size, "%s is not delegated to uid %d", dir, (int)getuid());
	if ((cgroup_controllers(dir, "cgroup.subtree_control") & TP_CG_NEEDED) != TP_CG_NEEDED &&
	    (cgroup_controllers(dir, "cgroup.controllers") & TP_CG_NEEDED) != TP_CG_NEEDED)
		return set_why(why, size, "%s does not offer the memory and pids controllers", dir);
	return 0;
}

static void parent_of(const char *dir, char *out, size_t size)
{
	const char *slash = strrchr(dir, '/');
	size_t n = slash ? (size_t)(slash - dir) : 0;

	if (n >= size)
		n = size - 1;
	memcpy(out, dir, n);
	out[n] = '\0';
}

/* A parent that a user's job was given: owned by the user (never root)
 * and holding no process itself, as HTCondor's per-job .slice. */
static bool delegated_parent(const char *dir)
{
	char buf[16];

	return getuid() != 0 && cghome_owned(dir) &&
	       cgroup_read(dir, "cgroup.procs", buf, sizeof(buf)) == 0;
}

/* Where the run goes: BASE in @c.  Returns 1 when BASE is tpmon's own
 * cgroup (tpmon empties it), 2 when it is a delegated parent (tpmon hands
 * its controllers down), 0 when tpmon is not inside, -1 with @why. */
static int choose_base(struct tp_cgrun *c, const char *path, char *why, size_t size)
{
	char parent[TP_CGRUN_PATH], why2[512];

	if (path) {
		if (path[0] != '/')
			return set_why(why, size, "--cgroup=%s: expected an absolute path", path);
		if (strncmp(path, c->mount, strlen(c->mount)) == 0 &&
		    (path[strlen(c->mount)] == '/' || !path[strlen(c->mount)]))
			snprintf(c->base, sizeof(c->base), "%s", path);
		else if (snprintf(c->base, sizeof(c->base), "%s%s", c->mount, path) >= (int)sizeof(c->base))
			return set_why(why, size, "--cgroup=%s: path too long", path);
		while (strlen(c->base) > strlen(c->mount) && c->base[strlen(c->base) - 1] == '/')
			c->base[strlen(c->base) - 1] = '\0';
		if (access(c->base, F_OK) < 0)
			return set_why(why, size, "--cgroup=%s: %s", path, strerror(errno));
		if (!strcmp(c->base, c->origin))
			return own_usable(c->base, why, size) < 0 ? -1 : 1;
		return beside_usable(c->base, why, size) < 0 ? -1 : 0;
	}
	if (own_usable(c->origin, why, size) == 0) {
		snprintf(c->base, sizeof(c->base), "%s", c->origin);
		return 1;
	}
	/* beside tpmon's cgroup, where its parent already hands the
	 * controllers down: the root, or an enclosing tpmon's task */
	if (!strcmp(c->origin, c->mount))
		return -1;
	parent_of(c->origin, parent, sizeof(parent));
	if (delegated_parent(parent)) {
		/* HTCondor's job slice, chowned to the job's user */
		if (beside_usable(parent, why, size) < 0)
			return -1;
		snprintf(c->base, sizeof(c->base), "%s", parent);
		debug_msg("cgroup: %s is delegated to uid %d: the run beside tpmon's cgroup",
			  parent, (int)getuid());
		return 2;
	}
	if (strcmp(parent, c->mount) != 0 && systemd_unit(parent))
		return -1;	/* systemd's own: not to be written into */
	if ((cgroup_controllers(parent, "cgroup.subtree_control") & TP_CG_NEEDED) != TP_CG_NEEDED ||
	    beside_usable(parent, why2, sizeof(why2)) < 0)
		return -1;
	snprintf(c->base, sizeof(c->base), "%s", parent);
	return 0;
}

static int find(struct tp_cgrun *c, const char *path, char *why, size_t size)
{
	char rel[TP_CGRUN_PATH];
	char *text = read_text("/proc/self/mountinfo");
	int r;

	r = text ? cgroup_parse_mount(text, c->mount, sizeof(c->mount)) : -1;
	free(text);
	if (r < 0)
		return set_why(why, size, "no cgroup v2 file system is mounted");
	text = read_text("/proc/self/cgroup");
	r = text ? cgroup_parse_self(text, rel, sizeof(rel)) : -1;
	free(text);
	if (r < 0)
		return set_why(why, size, "tpmon is in no cgroup v2 hierarchy");
	if (snprintf(c->origin, sizeof(c->origin), "%s%s", c->mount,
		     strcmp(rel, "/") ? rel : "") >= (int)sizeof(c->origin))
		return set_why(why, size, "cgroup path too long");
	/* first of all: on a cgroup v1 or hybrid machine the controllers
	 * live elsewhere, and nothing is made */
	if ((cgroup_controllers(c->mount, "cgroup.controllers") & TP_CG_NEEDED) != TP_CG_NEEDED)
		return set_why(why, size, "the memory and pids controllers are not on cgroup v2 "
			       "here (%s; a cgroup v1 or hybrid hierarchy holds them)", c->mount);
	return choose_base(c, path, why, size);
}

static int join_run(struct tp_cgrun *c)
{
	char name[64];
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(name, sizeof(name), "tpmon-%d-%lx", (int)getpid(),
		 (unsigned long)(ts.tv_nsec / 1000) & 0xfffff);
	if (cgroup_join(c->run, sizeof(c->run), c->base, name) < 0 ||
	    cgroup_join(c->monitor, sizeof(c->monitor), c->run, "monitor") < 0 ||
	    cgroup_join(c->task, sizeof(c->task), c->run, "task") < 0 ||
	    cgroup_join(c->leaf, sizeof(c->leaf), c->task, "main") < 0)
		return -1;
	return 0;
}

/* Wait until @dir holds no process but @self (the guard leaving). */
static void wait_alone(const char *dir, pid_t self)
{
	struct timespec ts = { 0, 2000000 };
	int i;

	for (i = 0; i < GUARD_WAIT_MS / 2 && others_in(dir, self) > 0; i++)
		nanosleep(&ts, NULL);
}

/* Undo whatever part of the run exists: used on setup failures, at the
 * end by tpmon, and by the guard.  Async-signal-safe but for wait_alone's
 * strtol. */
static void teardown(const struct tp_cgrun *c, pid_t self)
{
	if (c->task[0] && access(c->task, F_OK) == 0) {
		cgroup_kill(c->task, KILL_WAIT_MS, c->kill_file);
		cgroup_remove(c->task, REMOVE_WAIT_MS);
	}
	wait_alone(c->monitor, self);
	/* tpmon's own cgroup again as it was, so tpmon may go back */
	cgroup_disable(c->run, cgroup_controllers(c->run, "cgroup.subtree_control"));
	if (c->base_added)
		cgroup_disable(c->base, c->base_added);
	cgroup_enter(c->origin, self);
	cgroup_remove(c->run, REMOVE_WAIT_MS);
}

static int make_run(struct tp_cgrun *c, bool own, char *why, size_t size)
{
	unsigned have;

	if (join_run(c) < 0)
		return set_why(why, size, "cgroup path too long");
	if (mkdir(c->run, 0755) < 0 || mkdir(c->monitor, 0755) < 0)
		return set_why(why, size, "cannot create %s: %s", c->monitor, strerror(errno));
	/* tpmon goes into its leaf only where it may come back: a job's
	 * scope in a delegated slice may belong to root */
	if (writable(c->origin, "cgroup.procs") && cgroup_enter(c->monitor, 0) < 0)
		return set_why(why, size, "cannot move tpmon into %s: %s", c->monitor, strerror(errno));
	if (own) {
		have = cgroup_controllers(c->base, "cgroup.subtree_control");
		c->base_added = cgroup_controllers(c->base, "cgroup.controllers") & WANTED & ~have;
		if (cgroup_enable(c->base, c->base_added) < 0) {
			int e = errno;

			c->base_added = 0;
			return set_why(why, size, "cannot hand controllers down in %s: %s",
				       c->base, strerror(e));
		}
	}
	have = cgroup_controllers(c->run, "cgroup.controllers") & WANTED;
	if (cgroup_enable(c->run, have) < 0 || mkdir(c->task, 0755) < 0 ||
	    cgroup_enable(c->task, cgroup_controllers(c->task, "cgroup.controllers") & WANTED) < 0 ||
	    mkdir(c->leaf, 0755) < 0)
		return set_why(why, size, "cannot set up %s: %s", c->task, strerror(errno));
	c->controllers = cgroup_controllers(c->task, "cgroup.controllers");
	if ((c->controllers & TP_CG_NEEDED) != TP_CG_NEEDED)
		return set_why(why, size, "%s lacks the memory or pids controller", c->task);
	/* TPMON_CGROUP_NO_KILL_FILE=1 takes the way of kernels before
	 * 5.14 (freeze and kill each process), to test it on a newer one */
	c->kill_file = cgroup_can_kill(c->task) && !getenv("TPMON_CGROUP_NO_KILL_FILE");
	return 0;
}

struct tp_cgrun *cgrun_open(const char *path, char *why, size_t whysize)
{
	struct tp_cgrun *c = xcalloc(1, sizeof(*c));
	int own;

	c->guard_fd = -1;
	own = find(c, path, why, whysize);
	if (own < 0) {
		free(c);
		return NULL;
	}
	cgrun_sweep(c->base, NULL);
	if (make_run(c, own >= 1, why, whysize) < 0) {
		teardown(c, getpid());
		free(c);
		return NULL;
	}
	debug_msg("cgroup: run in %s (controllers %#x%s)", c->run, c->controllers,
		  c->kill_file ? ", cgroup.kill" : "");
	return c;
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
	for (f = 3; f < 1024; f++)
		if (f != fd)
			close(f);
	do
		n = read(fd, &ch, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && ch == 'q')
		_exit(0);
	/* tpmon is gone without a word: kill the task, remove the run */
	teardown(c, getpid());
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

static int set_limit(const char *dir, const char *file, uint64_t v)
{
	if (cgroup_write_u64(dir, file, v) == 0)
		return 0;
	warn_msg("cgroup: cannot set %s/%s: %s", dir, file, strerror(errno));
	return -1;
}

int cgrun_limit(const struct tp_cgrun *c, uint64_t mem_bytes, uint64_t pids)
{
	int r = 0;

	if (mem_bytes != TP_CG_MAX) {
		/* the kernel lets a task that is being killed charge what it
		 * touches on its way out, past memory.max: 4 kB over 200 MB
		 * in the VM.  The headroom keeps the peak at most the limit. */
		if (mem_bytes > 4 * TP_CG_MEM_HEADROOM)
			mem_bytes -= TP_CG_MEM_HEADROOM;
		r |= set_limit(c->task, "memory.max", mem_bytes);
		/* no swap file, or no swap accounting: nothing to hold */
		if (cgroup_write(c->task, "memory.swap.max", "0") < 0 && errno != ENOENT)
			r |= set_limit(c->task, "memory.swap.max", 0);
		r |= set_limit(c->task, "memory.oom.group", 1);
	}
	if (pids != TP_CG_MAX)
		r |= set_limit(c->task, "pids.max", pids);
	return r ? -1 : 0;
}

int cgrun_kill(const struct tp_cgrun *c, int wait_ms)
{
	return cgroup_kill(c->task, wait_ms, c->kill_file);
}

const char *cgrun_name(const struct tp_cgrun *c)
{
	return c->task + strlen(c->mount);
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
	teardown(c, getpid());
	if (access(c->run, F_OK) == 0)
		warn_msg("cgroup: could not remove %s", c->run);
	free(c);
}

/* Is run directory @dir old enough not to be one being made right now? */
static bool settled(const char *dir)
{
	struct stat st;

	return stat(dir, &st) == 0 && time(NULL) - st.st_mtime > 10;
}

/* Remove the runs in @base that belong to dead tpmons (their monitor leaf
 * is empty), killing what is left in them.  Returns how many. */
static int cgrun_sweep(const char *base, const char *except)
{
	char run[TP_CGRUN_PATH], mon[TP_CGRUN_PATH];
	DIR *d = opendir(base);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "tpmon-", 6) != 0 ||
		    cgroup_join(run, sizeof(run), base, e->d_name) < 0 ||
		    (except && !strcmp(run, except)) ||
		    cgroup_join(mon, sizeof(mon), run, "monitor") < 0)
			continue;
		/* a live tpmon (or its guard) is always in its monitor leaf */
		if (cgroup_populated(mon) > 0 || !settled(run))
			continue;
		cgroup_kill(run, KILL_WAIT_MS, true);
		if (cgroup_remove(run, REMOVE_WAIT_MS) == 0) {
			debug_msg("cgroup: swept %s", run);
			n++;
		}
	}
	closedir(d);
	return n;
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
