/* SPDX-License-Identifier: MIT */
/*
 * rusage-of: run one command for the bench and report what it cost.
 *
 * The command is usually a monitor wrapping a task.  We report the wall
 * time, the CPU time and peak RSS of that one process only (not of the
 * task it runs), and, given the task's pid file, when the task was gone.
 *
 * Method: every INTERVAL ms we read VmHWM from /proc/PID/status (the
 * high-water mark only grows, so the last reading misses at most what the
 * process added in its last interval).  When the process exits we keep it
 * a zombie (waitid WNOWAIT) and read utime+stime from /proc/PID/stat: the
 * whole thread group's CPU, its children excluded, at 1/CLK_TCK
 * resolution.  Then we reap it with wait4(), whose rusage covers the
 * process and every descendant it waited for (the "tree" CPU).
 *
 * Usage: rusage-of -r REPORT [-o OUT] [-e ERR] [-C DIR] [-P PIDFILE]
 *                  [-I INTERVAL_MS] [-T TIMEOUT_S] -- COMMAND [ARGS...]
 * The report is "key value" lines: status start exit dead wall self_cpu
 * self_hwm_kb tree_cpu timed_out.  Times since the epoch are
 * CLOCK_REALTIME, so they compare with stamps the workloads write.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct opts {
	const char *report;
	const char *out;
	const char *err;
	const char *dir;
	const char *pidfile;
	long interval_ms;
	double timeout_s;
};

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "rusage-of: %s: %s\n", what, strerror(errno));
	exit(125);
}

/* Read a small /proc file into buf; return its length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* VmHWM of pid in kB, or -1 (gone, or a zombie without an mm). */
static long read_hwm_kb(pid_t pid)
{
	char path[64], buf[4096];
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nVmHWM:");
	return p ? strtol(p + 7, NULL, 10) : -1;
}

/*
 * State letter and utime+stime ticks of pid from /proc/PID/stat, anchored
 * on the last ')' as comm may hold anything.  Returns 0, or -1 if gone.
 */
static int read_stat(pid_t pid, char *state, unsigned long long *ticks)
{
	char path[64], buf[1024];
	unsigned long long ut = 0, st = 0;
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* field 3 state, then 4..13 skipped, 14 utime, 15 stime */
	if (sscanf(p + 2, "%c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu",
		   state, &ut, &st) != 3)
		return -1;
	*ticks = ut + st;
	return 0;
}

static pid_t read_pidfile(const char *path)
{
	char buf[64];

	if (!path || read_small(path, buf, sizeof(buf)) <= 0)
		return 0;
	return (pid_t)strtol(buf, NULL, 10);
}

/* Wait (1 ms steps, 60 s at most) until pid is gone or a zombie. */
static double wait_gone(pid_t pid)
{
	double limit = now(CLOCK_MONOTONIC) + 60;
	struct timespec ms = { 0, 1000000 };
	unsigned long long ticks;
	char state;

	while (now(CLOCK_MONOTONIC) < limit) {
		if (read_stat(pid, &state, &ticks) < 0 || state == 'Z' || state == 'X')
			return now(CLOCK_REALTIME);
		nanosleep(&ms, NULL);
	}
	return -1;
}

static void redirect(const char *path, int fd, int flags)
{
	int nfd;

	if (!path)
		return;
	nfd = open(path, flags, 0644);
	if (nfd < 0 || dup2(nfd, fd) < 0)
		_exit(125);
	close(nfd);
}

static pid_t spawn(const struct opts *o, char **argv, const sigset_t *old)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid > 0)
		return pid;
	sigprocmask(SIG_SETMASK, old, NULL);
	redirect("/dev/null", 0, O_RDONLY);
	redirect(o->out, 1, O_WRONLY | O_CREAT | O_TRUNC);
	redirect(o->err, 2, O_WRONLY | O_CREAT | O_TRUNC);
	if (o->dir && chdir(o->dir) < 0)
		_exit(125);
	execvp(argv[0], argv);
	_exit(errno == ENOENT ? 127 : 126);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int c;

	o->interval_ms = 50;
	while ((c = getopt(argc, argv, "+r:o:e:C:P:I:T:")) != -1) {
		switch (c) {
		case 'r': o->report = optarg; break;
		case 'o': o->out = optarg; break;
		case 'e': o->err = optarg; break;
		case 'C': o->dir = optarg; break;
		case 'P': o->pidfile = optarg; break;
		case 'I': o->interval_ms = atol(optarg); break;
		case 'T': o->timeout_s = atof(optarg); break;
		default: return -1;
		}
	}
	if (!o->report || optind >= argc || o->interval_ms <= 0)
		return -1;
	return optind;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	sigset_t chld, old;
	struct timespec tick;
	struct rusage ru;
	siginfo_t si;
	double start, t0, t_exit, wall, dead;
	unsigned long long ticks = 0, t;
	long hwm = -1, h;
	int first, status, timed_out = 0;
	char state;
	pid_t pid, task;
	FILE *f;

	first = parse_opts(argc, argv, &o);
	if (first < 0) {
		fprintf(stderr, "usage: rusage-of -r REPORT [-o OUT] [-e ERR] [-C DIR] "
			"[-P PIDFILE] [-I MS] [-T S] -- COMMAND [ARGS...]\n");
		return 125;
	}
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	tick.tv_sec = o.interval_ms / 1000;
	tick.tv_nsec = (o.interval_ms % 1000) * 1000000L;

	start = now(CLOCK_REALTIME);
	t0 = now(CLOCK_MONOTONIC);
	pid = spawn(&o, argv + first, &old);
	for (;;) {
		h = read_hwm_kb(pid);
		if (h > hwm)
			hwm = h;
		if (read_stat(pid, &state, &t) == 0)
			ticks = t;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
			die("waitid");
		if (si.si_pid == pid)
			break;
		if (!timed_out && o.timeout_s > 0 && now(CLOCK_MONOTONIC) - t0 > o.timeout_s) {
			kill(pid, SIGKILL);
			timed_out = 1;
		}
		sigtimedwait(&chld, NULL, &tick);
	}
	wall = now(CLOCK_MONOTONIC) - t0;
	t_exit = now(CLOCK_REALTIME);
	if (read_stat(pid, &state, &t) == 0)
		ticks = t;	/* the zombie still holds its final times */
	if (wait4(pid, &status, 0, &ru) < 0)
		die("wait4");

	dead = t_exit;
	task = read_pidfile(o.pidfile);
	if (task > 0) {
		double gone = wait_gone(task);

		dead = gone < 0 ? -1 : (gone > t_exit ? gone : t_exit);
	}

	f = fopen(o.report, "w");
	if (!f)
		die(o.report);
	fprintf(f, "status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) :
		128 + WTERMSIG(status));
	fprintf(f, "start %.6f\nexit %.6f\ndead %.6f\nwall %.6f\n", start, t_exit, dead, wall);
	fprintf(f, "self_cpu %.3f\n", (double)ticks / sysconf(_SC_CLK_TCK));
	fprintf(f, "self_hwm_kb %ld\n", hwm);
	fprintf(f, "tree_cpu %.6f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	fprintf(f, "timed_out %d\n", timed_out);
	if (fclose(f) != 0)
		die(o.report);
	return 0;
}
