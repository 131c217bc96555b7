/* SPDX-License-Identifier: MIT */
/* livedir.c: the runtime directory of the live files and the liveness of
 * their writers (see livedir.h).  A file names its tpmon by pid and by
 * that process's start time, so a pid reused after a SIGKILL is no
 * match.  The file targets (runfile.c, promfile.c) replace their files
 * through livedir_file_*(). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/outfile.h"
#include "live/livedir.h"
#include "basic/xmalloc.h"

char *livedir_path(void)
{
	const char *env = getenv("TPMON_RUNTIME_DIR");

	if (env && *env)
		return xstrdup(env);
	env = getenv("XDG_RUNTIME_DIR");
	if (env && *env == '/')
		return xasprintf("%s/tpmon", env);
	if (geteuid() == 0)
		return xstrdup("/run/tpmon");
	return xasprintf("/tmp/tpmon-%u", (unsigned)geteuid());
}

int livedir_open(const char *dir, char *why, size_t whylen)
{
	struct stat st;
	int fd;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		snprintf(why, whylen, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid()) {
		snprintf(why, whylen, "%s: not owned by this user", dir);
		close(fd);
		errno = EPERM;
		return -1;
	}
	if ((st.st_mode & 0077) && fchmod(fd, 0700) < 0) {
		snprintf(why, whylen, "%s: cannot make it private: %s", dir, strerror(errno));
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

uint64_t livedir_starttime(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long long start = 0;
	const char *p;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* the comm may hold ')': the fields start after the last one */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	/* field 3 (state) follows; starttime is field 22 */
	for (field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &start) != 1)
		return 0;
	return start;
}

bool livedir_alive(pid_t pid, uint64_t starttime)
{
	return pid > 0 && starttime && livedir_starttime(pid) == starttime;
}

int livedir_replace(int dfd, const char *name, const char *data, size_t len, mode_t mode)
{
	char *tmp = xasprintf(".%s.tmp", name);
	int fd, err = 0;
	ssize_t n;

	/* what another user planted at either name stays as it is */
	if (outfile_planted_at(dfd, name) < 0 || outfile_planted_at(dfd, tmp) < 0) {
		err = errno;
		free(tmp);
		errno = err;
		return -1;
	}
	unlinkat(dfd, tmp, 0);	/* a leftover of a killed run of this pid */
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0) {
		err = errno;
		free(tmp);
		errno = err;
		return -1;
	}
	fchmod(fd, mode);	/* whatever the umask */
	n = write(fd, data, len);
	if (n != (ssize_t)len)
		err = n < 0 ? errno : ENOSPC;
	if (close(fd) < 0 && !err)
		err = errno;
	if (!err && renameat(dfd, tmp, dfd, name) < 0)
		err = errno;
	if (err)
		unlinkat(dfd, tmp, 0);
	free(tmp);
	errno = err;
	return err ? -1 : 0;
}

int livedir_file_open(struct tp_livefile *f, const char *dir, char *name, mode_t mode,
		      bool private_dir, char *why, size_t whylen)
{
	memset(f, 0, sizeof(*f));
	if (private_dir) {
		f->dfd = livedir_open(dir, why, whylen);
	} else {
		f->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (f->dfd < 0)
			snprintf(why, whylen, "%s: %s", dir, strerror(errno));
	}
	if (f->dfd >= 0 && outfile_planted_at(f->dfd, name) < 0) {
		snprintf(why, whylen, "%s/%s: %s", dir, name, outfile_strerror(errno));
		close(f->dfd);
		f->dfd = -1;
	}
	if (f->dfd < 0) {
		int err = errno;

		free(name);
		errno = err;
		return -1;
	}
	f->name = name;
	f->mode = mode;
	f->dir = xstrdup(dir);
	return 0;
}

void livedir_file_write(struct tp_livefile *f, const char *text)
{
	if (livedir_replace(f->dfd, f->name, text, strlen(text), f->mode) == 0) {
		f->failed = false;
		return;
	}
	if (!f->failed)
		warn_msg("cannot write %s/%s: %s", f->dir, f->name, outfile_strerror(errno));
	f->failed = true;
}

void livedir_file_close(struct tp_livefile *f)
{
	if (outfile_planted_at(f->dfd, f->name) == 0 && unlinkat(f->dfd, f->name, 0) < 0 &&
	    errno != ENOENT)
		warn_msg("cannot remove %s/%s: %s", f->dir, f->name, strerror(errno));
	close(f->dfd);
	free(f->dir);
	free(f->name);
}
