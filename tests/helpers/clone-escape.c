/* SPDX-License-Identifier: MIT */
/* clone-escape: tries to leave the traced tree.  The main process starts
 * one child with clone(CLONE_UNTRACED) (MODE clone) or with a raw clone3
 * carrying CLONE_UNTRACED (MODE clone3); when the call is refused it says
 * so on stdout ("refused ERRNO-NAME") and falls back to fork(), as a
 * determined task would.  The child becomes a setsid daemon that ignores
 * SIGTERM and forks N children, each holding MB MiB of touched memory;
 * so the truth is N + 2 processes.  Every process exits SECONDS after the
 * start (default 20), whatever happens, so nothing can run away.
 * MODE attach tries to take tpmon over instead: PTRACE_SEIZE of its
 * parent (tpmon), then a write to the parent's /proc/PID/mem; it prints
 * "attach ok|EPERM|..." and "mem ok|EACCES|...".
 * MODE probe instead checks that the usual ways of making processes and
 * threads still work (fork, posix_spawn, pthread_create) and prints how
 * raw clone3 and clone(CLONE_UNTRACED) answer (on x86-64 also the i386
 * ABI's clone through int 0x80); exits 1 if one failed.
 *   usage: clone-escape clone|clone3 N MB [SECONDS]
 *          clone-escape attach|probe */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <pthread.h>
#include <setjmp.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "clone|clone3 N MB [SECONDS] | attach | probe"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

extern char **environ;

/* A fork-like raw clone3 or clone with CLONE_UNTRACED: 0 in the child,
 * the child's pid in the parent, -1 with errno when refused. */
static long untraced_clone(int use_clone3)
{
	if (use_clone3) {
		struct clone_args ca;

		memset(&ca, 0, sizeof(ca));
		ca.flags = CLONE_UNTRACED;
		ca.exit_signal = SIGCHLD;
		return syscall(SYS_clone3, &ca, sizeof(ca));
	}
	/* x86-64 order: flags, stack, parent_tid, child_tid, tls */
	return syscall(SYS_clone, (unsigned long)(CLONE_UNTRACED | SIGCHLD), 0L, 0L, 0L, 0L);
}

static const char *errno_name(int e)
{
	return e == EPERM ? "EPERM" : e == ENOSYS ? "ENOSYS" : e == EINVAL ? "EINVAL" :
	       e == EACCES ? "EACCES" : "other";
}

static int attach(void)
{
	pid_t parent = getppid();
	char path[64];
	int fd;

	if (ptrace(PTRACE_SEIZE, parent, 0L, 0L) == 0) {
		printf("attach ok\n");
		ptrace(PTRACE_DETACH, parent, 0L, 0L);
	} else {
		printf("attach %s\n", errno_name(errno));
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)parent);
	fd = open(path, O_RDWR);
	printf("mem %s\n", fd >= 0 ? "ok" : errno_name(errno));
	if (fd >= 0)
		close(fd);
	return 0;
}

static void daemon_part(long n, long mb, double end)
{
	long i;

	setsid();
	signal(SIGTERM, SIG_IGN);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			helper_die("fork");
		if (pid == 0) {
			helper_alloc_touched((size_t)mb);
			helper_sleep(end - helper_now());
			_exit(0);
		}
	}
	helper_sleep(end - helper_now());
	while (wait(NULL) > 0 || errno == EINTR)
		;
	_exit(0);
}

static void *thread_main(void *arg)
{
	return arg;
}

#if defined(__x86_64__)
static sigjmp_buf no_i386;

/* int 0x80 without the kernel's i386 emulation (ia32_emulation=0, or
 * CONFIG_IA32_EMULATION off) is a SIGSEGV: no such ABI here */
static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(no_i386, 1);
}
#endif

static int probe(void)
{
	static char true_name[] = "true";
	char *argv[] = { true_name, NULL };
	pthread_t th;
	pid_t pid;
	int st;
	volatile int bad = 0;
	long r;

	pid = fork();
	if (pid == 0)
		_exit(7);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 7) {
		printf("fork failed\n");
		bad = 1;
	}
	if (posix_spawnp(&pid, "true", NULL, NULL, argv, environ) != 0 ||
	    waitpid(pid, &st, 0) != pid || st != 0) {
		printf("posix_spawn failed\n");
		bad = 1;
	}
	if (pthread_create(&th, NULL, thread_main, NULL) != 0 || pthread_join(th, NULL) != 0) {
		printf("pthread_create failed\n");
		bad = 1;
	}
	r = untraced_clone(1);
	if (r == 0)
		_exit(0);
	printf("clone3 %s\n", r > 0 ? "escaped" : errno_name(errno));
	r = untraced_clone(0);
	if (r == 0)
		_exit(0);
	printf("clone %s\n", r > 0 ? "escaped" : errno_name(errno));
#if defined(__x86_64__)
	/* the i386 ABI's clone (120), flags in ebx, through int 0x80 */
	signal(SIGSEGV, on_segv);
	if (sigsetjmp(no_i386, 1) == 0) {
		__asm__ volatile ("int $0x80" : "=a"(r)
				  : "0"(120L), "b"((long)(CLONE_UNTRACED | SIGCHLD)), "c"(0L),
				    "d"(0L), "S"(0L), "D"(0L) : "memory");
		if (r == 0)
			_exit(0);
		printf("clone-i386 %s\n", r > 0 ? "escaped" : r == -EPERM ? "EPERM" : "other");
	}
	signal(SIGSEGV, SIG_DFL);
#endif
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return bad;
}

int main(int argc, char **argv)
{
	double seconds = 20, end;
	long n, mb, pid;
	int use_clone3;

	helper_init(argc, argv);
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 2 && strcmp(argv[1], "probe") == 0)
		return probe();
	if (argc == 2 && strcmp(argv[1], "attach") == 0)
		return attach();
	if (argc < 4 || argc > 5)
		helper_usage(USAGE);
	if (strcmp(argv[1], "clone") && strcmp(argv[1], "clone3"))
		helper_usage(USAGE);
	use_clone3 = strcmp(argv[1], "clone3") == 0;
	n = helper_arg_long(argv[2], USAGE);
	mb = helper_arg_long(argv[3], USAGE);
	if (argc > 4)
		seconds = helper_arg_double(argv[4], USAGE);
	end = helper_now() + seconds;
	pid = untraced_clone(use_clone3);
	if (pid < 0) {
		printf("refused %s\n", errno_name(errno));
		pid = fork();
	} else if (pid > 0) {
		printf("escaped\n");
	}
	if (pid < 0)
		helper_die("fork");
	if (pid == 0)
		daemon_part(n, mb, end);
	helper_sleep(end - helper_now());
	while (wait(NULL) > 0 || errno == EINTR)
		;
	return 0;
}
