/* SPDX-License-Identifier: MIT */
/* liveread.c: the runtime files, read back (see liveread.h).  They are
 * written by tpmon, but hold the task's text (its command line, its
 * category): `tpmon top` shows them through safetext. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "live/livedir.h"
#include "live/liveread.h"
#include "basic/figtable.h"
#include "basic/xmalloc.h"

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : -1;
}

static char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? xstrdup(s) : NULL;
}

int liveread_parse(const char *text, size_t len, struct tp_liverun *r)
{
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL), *now, *rates, *lim;

	memset(r, 0, sizeof(*r));
	if (!json_is_object(root) || !json_is_integer(json_object_get(root, "tpmon_live")) ||
	    !json_is_integer(json_object_get(root, "pid"))) {
		json_decref(root);
		return -1;
	}
	now = json_object_get(root, "now");
	rates = json_object_get(root, "rates");
	lim = json_object_get(root, "limits");
	r->pid = (pid_t)json_integer_value(json_object_get(root, "pid"));
	r->task_pid = (pid_t)num(root, "task_pid");
	r->pid_start = (unsigned long long)json_integer_value(json_object_get(root, "pid_start"));
	r->command = str(root, "command");
	r->category = str(root, "category");
	r->task = str(root, "task");
	r->state = str(root, "state");
	r->start = num(root, "start");
	r->updated = num(root, "updated");
	r->elapsed = num(root, "elapsed");
	r->memory = num(now, "memory_bytes");
	r->memory_peak = num(json_object_get(root, "peak"), "memory_bytes");
	r->memory_limit = num(lim, "memory_bytes");
	r->cpu_seconds = num(now, "cpu_seconds");
	r->cores = num(now, res_info(TP_RES_CORES)->live);
	r->cores_limit = num(lim, res_info(TP_RES_CORES)->live);
	r->read_rate = num(rates, "read_bytes_per_second");
	r->write_rate = num(rates, "written_bytes_per_second");
	r->net_rate = num(rates, "network_bytes_per_second");
	r->processes = num(now, "processes");
	r->gpu_memory = num(now, "gpu_memory_bytes");
	r->gpu_cores = num(now, fig_info(TP_FIG_GPU_CORES)->live);
	json_decref(root);
	return 0;
}

/* The file @name in @dfd, at most LIVEREAD_MAX bytes, into @r. */
static int read_one(int dfd, const char *name, struct tp_liverun *r)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), ret = -1;
	char *buf;
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	buf = xmalloc(LIVEREAD_MAX);
	while (len < LIVEREAD_MAX && (n = read(fd, buf + len, LIVEREAD_MAX - len)) > 0)
		len += (size_t)n;
	/* a read error or a file too long for a runtime file: skipped */
	if (n >= 0 && len < LIVEREAD_MAX)
		ret = liveread_parse(buf, len, r);
	if (ret == 0)
		r->stale = !livedir_alive(r->pid, r->pid_start);
	close(fd);
	free(buf);
	return ret;
}

static void liveread_free_one(struct tp_liverun *r)
{
	free(r->command);
	free(r->category);
	free(r->task);
	free(r->state);
}

static bool is_runtime_name(const char *name)
{
	size_t n = strlen(name), s = strlen(LIVEDIR_SUFFIX);

	return name[0] != '.' && n > s && !strcmp(name + n - s, LIVEDIR_SUFFIX);
}

/* Call @fn for each runtime file of @d that reads as a run (at most
 * LIVEREAD_FILES names looked at); @fn owns the run it is given. */
static void each_run(DIR *d, void (*fn)(DIR *d, const char *name, struct tp_liverun *r, void *arg),
		     void *arg)
{
	struct dirent *e;
	size_t seen = 0;

	while ((e = readdir(d)) && seen < LIVEREAD_FILES) {
		struct tp_liverun r;

		if (!is_runtime_name(e->d_name))
			continue;
		seen++;
		if (read_one(dirfd(d), e->d_name, &r) == 0)
			fn(d, e->d_name, &r, arg);
	}
}

struct run_list {
	struct tp_liverun **runs;
	size_t *n;
};

static void keep_run(DIR *d, const char *name, struct tp_liverun *r, void *arg)
{
	struct run_list *l = arg;

	(void)d;
	(void)name;
	*l->runs = xreallocarray(*l->runs, *l->n + 1, sizeof(**l->runs));
	(*l->runs)[(*l->n)++] = *r;
	memset(r, 0, sizeof(*r));	/* the list owns it now */
}

int liveread_dir(const char *dir, struct tp_liverun **runs, size_t *n)
{
	DIR *d = opendir(dir);
	struct run_list l = { runs, n };

	*runs = NULL;
	*n = 0;
	if (!d)
		return -1;
	each_run(d, keep_run, &l);
	closedir(d);
	return 0;
}

static void remove_stale(DIR *d, const char *name, struct tp_liverun *r, void *arg)
{
	unsigned *removed = arg;

	if (r->stale && unlinkat(dirfd(d), name, 0) == 0)
		(*removed)++;
	liveread_free_one(r);
}

unsigned liveread_sweep(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	unsigned removed = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	each_run(d, remove_stale, &removed);
	closedir(d);
	return removed;
}

void liveread_free(struct tp_liverun *runs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		liveread_free_one(&runs[i]);
	free(runs);
}
