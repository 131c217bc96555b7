/* SPDX-License-Identifier: MIT */
/* livedir.h: where the runtime files of the running tpmons are, their
 * names, and how a reader tells a live one from one a killed tpmon left.
 * Shared by the monitor (publish.c) and `tpmon top` (top.c). */
#ifndef TPMON_LIVEDIR_H
#define TPMON_LIVEDIR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The runtime directory, newly allocated: $TPMON_RUNTIME_DIR, else
 * $XDG_RUNTIME_DIR/tpmon, else /run/tpmon as root, else
 * /tmp/tpmon-UID.  NULL if none can be named. */
char *livedir_path(void);

/* Make @dir (one level) if needed and check that it is ours: a directory,
 * not a link, owned by this user, mode 0700 (narrowed if wider).  Returns
 * a descriptor or -1 after filling @why, errno EPERM when it exists but
 * is not ours (or cannot be made private). */
int livedir_open(const char *dir, char *why, size_t whylen);

/* The start time of process @pid, in clock ticks after boot (field 22 of
 * /proc/PID/stat); 0 if it does not exist. */
uint64_t livedir_starttime(pid_t pid);

/* Is the tpmon @pid that wrote a file with @starttime still running? */
bool livedir_alive(pid_t pid, uint64_t starttime);

/* Replace @name in @dfd with @len bytes of @data, atomically (a
 * temporary ".NAME.tmp" renamed over it), mode @mode whatever the umask.
 * The temporary name is fixed: NAME holds the writer's pid, so only one
 * writer uses it.  0, or -1 with errno set and nothing left behind. */
int livedir_replace(int dfd, const char *name, const char *data, size_t len, mode_t mode);

/* A file of a live target, replaced at each point and removed at the
 * end (the runtime file, the .prom textfile). */
struct tp_livefile {
	int dfd;			/* its directory */
	char *dir, *name;
	mode_t mode;
	bool failed;			/* a failure was told */
};

/* Open @dir for the file @name (taken over) of @mode: made private
 * (livedir_open()) if @private_dir.  0, or -1 after filling @why
 * ("DIR: REASON"), errno set, @name freed. */
int livedir_file_open(struct tp_livefile *f, const char *dir, char *name, mode_t mode,
		      bool private_dir, char *why, size_t whylen);
/* Replace the file with @text; a failure is told once until it works
 * again. */
void livedir_file_write(struct tp_livefile *f, const char *text);
/* Remove the file, close and free @f's parts. */
void livedir_file_close(struct tp_livefile *f);

/* The suffix of a runtime file's name ("PID.json"). */
#define LIVEDIR_SUFFIX ".json"

#endif
