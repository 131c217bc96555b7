/* SPDX-License-Identifier: MIT */
/* spawn: run /bin/true N times with posix_spawn() and N times with
 * posix_spawnp("true"), waiting for each (glibc's posix_spawn is a
 * clone(CLONE_VM | CLONE_VFORK), which trackers built on fork miss).
 * Ground truth: 2N + 1 processes (N + 1 with a mode other than both).
 *   usage: spawn N [both|spawn|spawnp] */
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define USAGE "N [both|spawn|spawnp]"

extern char **environ;

static void spawn_one(int use_path, long i)
{
	char *argv_true[] = { (char *)"true", NULL };
	int status, err;
	pid_t pid;

	if (use_path)
		err = posix_spawnp(&pid, "true", NULL, NULL, argv_true, environ);
	else
		err = posix_spawn(&pid, "/bin/true", NULL, NULL, argv_true, environ);
	if (err) {
		errno = err;
		helper_die("posix_spawn%s #%ld", use_path ? "p" : "", i);
	}
	if (waitpid(pid, &status, 0) != pid)
		helper_die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errno = 0;
		helper_die("true #%ld failed (status 0x%x)", i, status);
	}
}

int main(int argc, char **argv)
{
	int do_spawn = 1, do_spawnp = 1;
	long n, i;

	helper_init(argc, argv);
	if (argc < 2 || argc > 3)
		helper_usage(USAGE);
	n = helper_arg_long(argv[1], USAGE);
	if (argc == 3) {
		if (strcmp(argv[2], "spawn") == 0)
			do_spawnp = 0;
		else if (strcmp(argv[2], "spawnp") == 0)
			do_spawn = 0;
		else if (strcmp(argv[2], "both") != 0)
			helper_usage(USAGE);
	}
	for (i = 0; i < n; i++) {
		if (do_spawn)
			spawn_one(0, i);
		if (do_spawnp)
			spawn_one(1, i);
	}
	return 0;
}
