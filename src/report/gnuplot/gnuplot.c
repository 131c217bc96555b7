/* SPDX-License-Identifier: MIT */
/* gnuplot.c: scripts for gnuplot with no untrusted text in them, their
 * data files, the one run of gnuplot and the picture it drew read back
 * (gnuplot.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "basic/messages.h"
#include "report/gnuplot/gnuplot.h"

/* blue filled circle, orange filled triangle, black cross */
const struct gp_endstyle gp_endstyle[GP_ENDSTYLES] = {
	{ "succeeded", "#0072b2", 7 },
	{ "stopped at a limit", "#e69f00", 11 },
	{ "failed", "#000000", 2 },
};
#include "report/files/infile.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

extern char **environ;

int gp_open(struct gp *g, const char *who)
{
	const char *tmpdir = getenv("TMPDIR");

	memset(g, 0, sizeof(*g));
	g->who = who;
	g->dir = xasprintf("%s/tpmon-%s-XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp", who);
	if (!mkdtemp(g->dir)) {
		error_msg("%s: cannot create a temporary directory: %s", who, strerror(errno));
		free(g->dir);
		g->dir = NULL;
		return -1;
	}
	g->script_path = gp_path(g, "script.gp");
	g->script = fopen(g->script_path, "wxe");
	if (!g->script) {
		error_msg("%s: cannot write a gnuplot script: %s", who, strerror(errno));
		gp_close(g);
		return -1;
	}
	return 0;
}

char *gp_path(const struct gp *g, const char *name)
{
	return xasprintf("%s/%s", g->dir, name);
}

FILE *gp_data_open(const struct gp *g, const char *name, char **path)
{
	FILE *f;

	*path = gp_path(g, name);
	f = fopen(*path, "wxe");
	if (!f)
		error_msg("%s: cannot write %s: %s", g->who, *path, strerror(errno));
	return f;
}

int gp_data_close(const struct gp *g, FILE *f, const char *path)
{
	int failed;

	if (!f)
		return -1;
	/* an error of an earlier write (a full disk) sticks to the stream */
	failed = ferror(f);
	if (fclose(f) != 0 || failed) {
		error_msg("%s: cannot write %s: %s", g->who, path,
			  strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

char *gp_picture(const struct gp *g, const char *made, size_t *len)
{
	char why[256], *data;

	data = rp_infile_slurp(made, RP_PICTURE_MAX, "a picture", len, why, sizeof(why));
	if (!data) {
		error_msg("%s: gnuplot drew no picture: %s", g->who, why);
	} else if (*len == 0) {
		error_msg("%s: gnuplot drew an empty picture", g->who);
		free(data);
		data = NULL;
	}
	return data;
}

void gp_file(FILE *f, const char *path)
{
	const char *p;

	fputc('"', f);
	for (p = path; *p; p++)
		fprintf(f, "\\%03o", (unsigned char)*p);
	fputc('"', f);
}

void gp_text(FILE *f, const char *s)
{
	char *shown = safetext_dup(s);

	gp_file(f, shown);
	free(shown);
}

void gp_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g", v);
	else
		fputs("NaN", f);
}

/* Pass on what gnuplot printed into @path, in its shown form, less the
 * notes that an empty range was widened (a panel of zeros gets 0-1). */
static void relay_messages(const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (strstr(line, "empty y range") || strstr(line, "empty x range"))
			continue;
		safetext_put(stderr, line);
		fputc('\n', stderr);
	}
	free(line);
	fclose(f);
}

/* Start gnuplot on the script, stdout and stderr into @errs. */
static int spawn(struct gp *g, const char *errs, pid_t *pid)
{
	char arg0[] = "gnuplot", arg1[] = "-d";
	char *argv[] = { arg0, arg1, g->script_path, NULL };
	posix_spawn_file_actions_t fa;
	int r;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, errs, O_WRONLY | O_CREAT | O_EXCL, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	r = posix_spawnp(pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0)
		error_msg("%s: cannot run gnuplot: %s%s", g->who, strerror(r),
			  r == ENOENT ? " (install gnuplot; Debian: gnuplot-nox)" : "");
	return r ? -1 : 0;
}

int gp_run(struct gp *g)
{
	char *errs = gp_path(g, "gnuplot.err");
	int st = 0, r = -1, failed;
	pid_t pid, w;

	failed = ferror(g->script);
	if (fclose(g->script) != 0 || failed) {
		g->script = NULL;
		error_msg("%s: cannot write a gnuplot script: %s", g->who, strerror(errno));
		free(errs);
		return -1;
	}
	g->script = NULL;
	if (spawn(g, errs, &pid) == 0) {
		do
			w = waitpid(pid, &st, 0);
		while (w < 0 && errno == EINTR);
		relay_messages(errs);
		if (w < 0)
			error_msg("%s: waiting for gnuplot: %s", g->who, strerror(errno));
		else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			r = 0;
		else
			error_msg("%s: gnuplot failed (status %d)", g->who,
				  WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	}
	free(errs);
	return r;
}

void gp_close(struct gp *g)
{
	DIR *d;
	struct dirent *e;

	if (g->script)
		fclose(g->script);
	g->script = NULL;
	d = g->dir ? opendir(g->dir) : NULL;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	if (g->dir)
		rmdir(g->dir);
	free(g->dir);
	free(g->script_path);
	g->dir = g->script_path = NULL;
}
