/* SPDX-License-Identifier: MIT */
/* threads-exec: a thread that is not the thread-group leader calls
 * execve(); the kernel kills the other threads and the exec'ing thread
 * takes over the leader's pid.  With --busy N, N more threads each burn
 * BUSY_MS of CPU before the exec happens, and keep burning until the exec
 * kills them.  The program run is /bin/true, or the command after "--".
 * Ground truth: 1 process (plus what the new program starts); the threads
 * are not processes; at least N * BUSY_MS of CPU before the exec.
 *   usage: threads-exec [--busy N] [-- PROGRAM ARGS...] */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "[--busy N] [-- PROGRAM ARGS...]"
#define BUSY_MS 50

static atomic_long busy_done;
static long busy_threads;

extern char **environ;

static char *default_argv[] = { (char *)"/bin/true", NULL };

static void *busy_thread(void *arg)
{
	(void)arg;
	helper_burn_cpu_ms(BUSY_MS);
	atomic_fetch_add(&busy_done, 1);
	for (;;)
		helper_burn_cpu_ms(1000);
	return NULL;
}

static void *exec_thread(void *arg)
{
	char **cmd = arg;

	/* Let the busy threads burn their share first. */
	while (atomic_load(&busy_done) < busy_threads)
		helper_sleep(0.001);
	execve(cmd[0], cmd, environ);
	helper_die("execve %s", cmd[0]);
}

int main(int argc, char **argv)
{
	char **cmd = default_argv;
	pthread_t tid;
	long i;
	int argi = 1, err;

	helper_init(argc, argv);
	if (argi + 1 < argc && strcmp(argv[argi], "--busy") == 0) {
		busy_threads = helper_arg_long(argv[argi + 1], USAGE);
		argi += 2;
	}
	if (argi < argc) {
		if (strcmp(argv[argi], "--") != 0 || argi + 1 >= argc)
			helper_usage(USAGE);
		cmd = argv + argi + 1;
	}
	for (i = 0; i < busy_threads; i++) {
		err = pthread_create(&tid, NULL, busy_thread, NULL);
		if (err) {
			errno = err;
			helper_die("pthread_create");
		}
	}
	err = pthread_create(&tid, NULL, exec_thread, cmd);
	if (err) {
		errno = err;
		helper_die("pthread_create");
	}
	/* The leader waits; the exec replaces the whole thread group. */
	pthread_join(tid, NULL);
	return HELPER_EXIT_SETUP;
}
