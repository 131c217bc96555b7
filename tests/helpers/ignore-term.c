/* SPDX-License-Identifier: MIT */
/* ignore-term: ignore SIGTERM (and SIGINT, SIGHUP with --all) and sleep
 * SECONDS; with --child, first fork a child that ignores them too and
 * sleeps as long.  Only SIGKILL ends it early: for kill-grace escalation.
 *   usage: ignore-term SECONDS [--child] [--all] */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "SECONDS [--child] [--all]"

static void ignore(int sig)
{
	if (signal(sig, SIG_IGN) == SIG_ERR)
		helper_die("signal %d", sig);
}

int main(int argc, char **argv)
{
	int child = 0, all = 0, i;
	double seconds, end;
	pid_t pid;

	helper_init(argc, argv);
	if (argc < 2)
		helper_usage(USAGE);
	seconds = helper_arg_double(argv[1], USAGE);
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--child") == 0)
			child = 1;
		else if (strcmp(argv[i], "--all") == 0)
			all = 1;
		else
			helper_usage(USAGE);
	}
	ignore(SIGTERM);
	if (all) {
		ignore(SIGINT);
		ignore(SIGHUP);
	}
	end = helper_now() + seconds;
	if (child) {
		pid = fork();
		if (pid < 0)
			helper_die("fork");
		if (pid == 0) {
			helper_sleep(end - helper_now());
			_exit(0);
		}
	}
	helper_sleep(end - helper_now());
	if (child)
		while (wait(NULL) > 0)
			;
	return 0;
}
