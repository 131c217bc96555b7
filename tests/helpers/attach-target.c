/* SPDX-License-Identifier: MIT */
/* attach-target: a process tree to follow with --pid.  Before the attach
 * it uses PRE_MB MiB (then frees it) and PRE_MS ms of CPU, starts KIDS
 * children that wait on a pipe and THREADS threads that wait; it then
 * creates GO.ready and waits for the file GO.  After GO: POST_FORKS
 * children that exit at once, POST_MS ms of CPU in the main thread and in
 * each thread, POST_MB MiB held HOLD s; then it ends its children and
 * exits with EXIT.  With --leave, one more child is started after GO and
 * left sleeping 30 s when the process exits.
 * Ground truth from the attach on: total processes 1 + KIDS + POST_FORKS
 * (+1 with --leave), CPU (1 + THREADS) x POST_MS, peak memory POST_MB.
 *   usage: attach-target GO PRE_MB PRE_MS KIDS THREADS POST_FORKS POST_MS
 *          POST_MB HOLD EXIT [--leave] */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "GO PRE_MB PRE_MS KIDS THREADS POST_FORKS POST_MS POST_MB HOLD EXIT [--leave]"

static const char *go;
static double post_ms;

static void wait_for_go(void)
{
	while (access(go, F_OK) != 0)
		helper_sleep(0.01);
}

static void *thread_main(void *arg)
{
	(void)arg;
	wait_for_go();
	helper_burn_cpu_ms(post_ms);
	return NULL;
}

static void touch_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		helper_die("create %s", path);
	close(fd);
}

int main(int argc, char **argv)
{
	long pre_mb, kids, threads, forks, post_mb, i;
	double pre_ms, hold;
	int code, pipefd[2], leave;
	pthread_t *tids;
	char ready[4096];
	char *mem;

	helper_init(argc, argv);
	if (argc != 11 && argc != 12)
		helper_usage(USAGE);
	go = argv[1];
	pre_mb = helper_arg_long(argv[2], USAGE);
	pre_ms = helper_arg_double(argv[3], USAGE);
	kids = helper_arg_long(argv[4], USAGE);
	threads = helper_arg_long(argv[5], USAGE);
	forks = helper_arg_long(argv[6], USAGE);
	post_ms = helper_arg_double(argv[7], USAGE);
	post_mb = helper_arg_long(argv[8], USAGE);
	hold = helper_arg_double(argv[9], USAGE);
	code = (int)helper_arg_long(argv[10], USAGE);
	leave = argc == 12 && !strcmp(argv[11], "--leave");
	if (argc == 12 && !leave)
		helper_usage(USAGE);

	/* before the attach */
	if (pre_mb) {
		mem = helper_alloc_touched((size_t)pre_mb);
		munmap(mem, (size_t)pre_mb * MIB);
	}
	helper_burn_cpu_ms(pre_ms);
	if (pipe(pipefd) < 0)
		helper_die("pipe");
	for (i = 0; i < kids; i++) {
		pid_t pid = fork();
		char c;

		if (pid < 0)
			helper_die("fork");
		if (pid == 0) {
			close(pipefd[1]);
			while (read(pipefd[0], &c, 1) > 0)
				;
			_exit(0);
		}
	}
	close(pipefd[0]);
	tids = calloc((size_t)threads + 1, sizeof(*tids));
	for (i = 0; i < threads; i++)
		if (pthread_create(&tids[i], NULL, thread_main, NULL) != 0)
			helper_die("pthread_create");
	snprintf(ready, sizeof(ready), "%s.ready", go);
	touch_file(ready);
	wait_for_go();

	/* after the attach */
	for (i = 0; i < forks; i++) {
		pid_t pid = fork();

		if (pid < 0)
			helper_die("fork");
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	if (leave && fork() == 0) {
		close(pipefd[1]);
		helper_sleep(30);
		_exit(0);
	}
	helper_burn_cpu_ms(post_ms);
	mem = post_mb ? helper_alloc_touched((size_t)post_mb) : NULL;
	helper_sleep(hold);
	for (i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	close(pipefd[1]);
	for (i = 0; i < kids; i++)
		wait(NULL);
	(void)mem;
	return code;
}
