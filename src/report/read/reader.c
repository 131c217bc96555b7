/* SPDX-License-Identifier: MIT */
/* reader.c: walk the report's inputs and read each file by what its
 * first line says it is: a summary, a Nextflow trace, a Snakemake
 * benchmark file, sacct output, or a transaction log.  Inputs may be
 * hostile: a file is read only when it is a regular file (a FIFO would
 * block, a device never end), a summary of at most RP_SUMMARY_MAX bytes,
 * directories at most RP_DIR_DEPTH_MAX deep, links never followed; a bad
 * file is one warning line (path and reason in their shown form). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "basic/messages.h"
#include "report/read/foreign.h"
#include "report/files/infile.h"
#include "report/read/readpool.h"
#include "report/read/reader.h"
#include "report/read/rsummary.h"
#include "report/read/table.h"
#include "report/read/txnlog.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"

#define SUMMARY_EXT ".summary"
#define FULL_EXT ".tpmon.json"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* @path with its @old suffix replaced by @new (newly allocated). */
static char *swap_suffix(const char *path, const char *old, const char *new)
{
	size_t n = strlen(path) - strlen(old);

	return xasprintf("%.*s%s", (int)n, path, new);
}

/* One warning line for a skipped input, @path and @why in their shown
 * form (a file name can hold a terminal's escape sequences); counted. */
static void skip(struct rp_store *st, const char *path, const char *why)
{
	char *p = safetext_clip(path, 480), *w = safetext_clip(why, 240);

	error_msg("warning: skipping %s: %s", p, w);
	free(p);
	free(w);
	st->skipped++;
}

/* jansson's allocations while one summary is parsed come from an arena
 * that is emptied after the file: no malloc/free per JSON value (a third
 * of the time of reading 100,000 summaries).  Nothing parsed outlives it:
 * rp_summary_fill() copies the strings it keeps. */
#define ARENA_BLOCK 65536

struct arena {
	char *block;		/* current block */
	size_t used;
	char **old;		/* blocks filled before it, freed at the reset */
	size_t nold;
};

static struct arena arena;

static void *arena_alloc(size_t n)
{
	size_t need = (n + 15) & ~(size_t)15;
	char *p;

	if (need > ARENA_BLOCK / 4) {
		/* a large value: its own block */
		p = xmalloc(need);
		arena.old = xreallocarray(arena.old, arena.nold + 1, sizeof(char *));
		arena.old[arena.nold++] = p;
		return p;
	}
	if (!arena.block || arena.used + need > ARENA_BLOCK) {
		if (arena.block) {
			arena.old = xreallocarray(arena.old, arena.nold + 1, sizeof(char *));
			arena.old[arena.nold++] = arena.block;
		}
		arena.block = xmalloc(ARENA_BLOCK);
		arena.used = 0;
	}
	p = arena.block + arena.used;
	arena.used += need;
	return p;
}

static void arena_free(void *p)
{
	(void)p;
}

static void arena_reset(void)
{
	size_t i;

	for (i = 0; i < arena.nold; i++)
		free(arena.old[i]);
	free(arena.old);
	arena.old = NULL;
	arena.nold = 0;
	arena.used = 0;
}

static void arena_release(void)
{
	arena_reset();
	free(arena.block);
	arena.block = NULL;
}

/* @text parsed with jansson's allocations in the arena; the task filled
 * from it is added to @st.  Returns 0, or -1 with a reason in @why. */
static int parse_summary(struct rp_store *st, const char *path, const char *text,
			 size_t len, char *why, size_t whylen)
{
	json_malloc_t old_malloc;
	json_free_t old_free;
	json_t *root;
	int r = -1;

	json_get_alloc_funcs(&old_malloc, &old_free);
	json_set_alloc_funcs(arena_alloc, arena_free);
	root = rp_summary_parse(text, len, why, whylen);
	if (root) {
		rp_summary_fill(rp_store_add(st, path), root);
		json_decref(root);
		r = 0;
	}
	json_set_alloc_funcs(old_malloc, old_free);
	arena_reset();
	return r;
}

/* Read one JSON summary; @quiet: no warning (the caller falls back). */
static int read_json(struct rp_store *st, const char *path, bool quiet)
{
	size_t len = 0;
	char why[256], *text;
	int r = -1;

	if (st->n >= RP_TASKS_MAX)
		return -1;
	text = rp_infile_slurp(path, RP_SUMMARY_MAX, "a summary", &len, why, sizeof(why));
	if (text)
		r = parse_summary(st, path, text, len, why, sizeof(why));
	free(text);
	if (r < 0 && !quiet)
		skip(st, path, why);
	return r;
}

/* Read X.summary, or X.tpmon.json instead when @full says it exists
 * (-1: not known, look). */
static int read_summary(struct rp_store *st, const char *path, int full)
{
	if (ends_with(path, SUMMARY_EXT)) {
		char *other = swap_suffix(path, SUMMARY_EXT, FULL_EXT);
		int r = -1;

		if (full < 0)
			full = access(other, R_OK) == 0;
		if (full) {
			r = read_json(st, other, true);
			if (r < 0) {
				char *o = safetext_clip(other, 480), *p = safetext_clip(path, 480);

				error_msg("warning: %s is unreadable, reading %s instead", o, p);
				free(o);
				free(p);
			}
		}
		free(other);
		if (r == 0)
			return 0;
	}
	return read_json(st, path, false);
}

json_t *rp_summary_load(const char *path, char *why, size_t whylen)
{
	size_t len = 0;
	char *text = rp_infile_slurp(path, RP_SUMMARY_MAX, "a summary", &len, why, whylen);
	json_t *root = text ? rp_summary_parse(text, len, why, whylen) : NULL;

	free(text);
	return root;
}

/* Is @name among the @n sorted @names? */
static bool listed(struct dirent **names, int n, const char *name)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(names[mid]->d_name, name);

		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return false;
}

/* A file found in a directory (whose sorted entries are @names): read it
 * if it is a summary (X.tpmon.json only when there is no X.summary, which
 * reads it).  Counts in @found. */
static int read_foreign(struct rp_store *st, const char *path, bool quiet);

/* Might a file of this name in a directory be another tool's records
 * (then its first line says whether it is)? */
static bool foreign_candidate(const char *name)
{
	static const char *const ext[] = { ".txt", ".tsv", ".jsonl", ".raw", ".psv",
					   ".sacct", ".trace" };
	size_t i;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (ends_with(name, ext[i]))
			return true;
	return strncmp(name, "trace", 5) == 0;
}

/* read_summary() as the pool calls it for a file its scanner declined */
static void read_slow(struct rp_store *st, const char *path, int full)
{
	read_summary(st, path, full);
}

static void walk_file(struct rp_store *st, struct rp_pool *pool, const char *path,
		      const char *name, struct dirent **names, int n, size_t *found)
{
	if (foreign_candidate(name)) {
		rp_pool_flush(pool);
		if (read_foreign(st, path, true) == 0)
			(*found)++;
	} else if (ends_with(name, SUMMARY_EXT)) {
		char *full = swap_suffix(name, SUMMARY_EXT, FULL_EXT);

		(*found)++;
		rp_pool_add(pool, path, listed(names, n, full));
		free(full);
	} else if (ends_with(name, FULL_EXT)) {
		char *sum = swap_suffix(name, FULL_EXT, SUMMARY_EXT);

		(*found)++;
		if (!listed(names, n, sum))
			rp_pool_add(pool, path, 0);
		free(sum);
	}
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The type of entry @e of @dir (d_type, or lstat() where the file system
 * does not say): a DT_* value. */
static unsigned char entry_type(const struct dirent *e, const char *path)
{
	struct stat sb;

	if (e->d_type != DT_UNKNOWN)
		return e->d_type;
	if (lstat(path, &sb) < 0)
		return DT_UNKNOWN;
	return S_ISDIR(sb.st_mode) ? DT_DIR : S_ISREG(sb.st_mode) ? DT_REG :
	       S_ISLNK(sb.st_mode) ? DT_LNK : S_ISFIFO(sb.st_mode) ? DT_FIFO : DT_CHR;
}

/* Walk @dir; @lo and @hi: the share of the input before it and after it
 * (for the progress line's estimate). */
static void walk_dir(struct rp_store *st, struct rp_pool *pool, const char *dir,
		     size_t *found, int depth, double lo, double hi)
{
	struct dirent **names;
	int n, i, dfd;

	if (depth > RP_DIR_DEPTH_MAX) {
		rp_pool_flush(pool);
		char why[64];

		snprintf(why, sizeof(why), "more than %d directories deep", RP_DIR_DEPTH_MAX);
		skip(st, dir, why);
		return;
	}
	/* sorted by strcmp() (so that listed() can search them): the C locale */
	n = scandir(dir, &names, NULL, by_name);
	if (n < 0) {
		rp_pool_flush(pool);
		skip(st, dir, strerror(errno));
		return;
	}
	/* its files opened relative to it (-1: by their paths) */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rp_pool_dir(pool, dfd);
	for (i = 0; i < n && st->n < RP_TASKS_MAX; i++) {
		const char *name = names[i]->d_name;
		unsigned char type;
		char *path;

		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		path = xasprintf("%s/%s", dir, name);
		type = entry_type(names[i], path);
		if (type == DT_DIR) {
			walk_dir(st, pool, path, found, depth + 1, lo + (hi - lo) * i / n,
				 lo + (hi - lo) * (i + 1) / n);
			rp_pool_dir(pool, dfd);
		} else if (type == DT_REG) {
			walk_file(st, pool, path, name, names, n, found);
		} else if (ends_with(name, SUMMARY_EXT) || ends_with(name, FULL_EXT)) {
			/* links are not followed; a FIFO would block */
			(*found)++;
			rp_pool_flush(pool);
			skip(st, path, type == DT_LNK ? "a symbolic link (not followed)" :
			     type == DT_FIFO ? "a FIFO, not a file" : "not a regular file");
		}
		free(path);
		rp_pool_progress(pool, lo + (hi - lo) * (i + 1) / n);
	}
	rp_pool_dir(pool, -1);
	if (dfd >= 0)
		close(dfd);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The first non-blank byte of the open file @fd among its first 4 kB (then
 * back at its start), or EOF. */
static int first_byte(int fd)
{
	char buf[4096];
	ssize_t n = pread(fd, buf, sizeof(buf), 0), i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)buf[i]))
			return (unsigned char)buf[i];
	return EOF;
}

/* One line about what a file of another tool gave: nothing (a warning,
 * the file counted as skipped), or the lines it could not read. */
static void tell_foreign(struct rp_store *st, const char *path, enum rp_format fmt,
			 const struct rp_foreign_counts *c)
{
	if (c->tasks == 0 && c->unended == 0) {
		char why[160];

		snprintf(why, sizeof(why), "a %s with no task in it (%ld lines not "
			 "understood, %ld too long)", rp_foreign_name(fmt), c->bad, c->too_long);
		skip(st, path, why);
	} else if (c->bad || c->too_long) {
		char *p = safetext_clip(path, 480);

		error_msg("warning: %s: %ld lines not understood, %ld too long, skipped",
			  p, c->bad, c->too_long);
		free(p);
	}
}

/* Read @path if its first line is another tool's header.  0 when it
 * was (whatever it held), -1 when it is not such a file; @quiet: no
 * warning when it cannot be opened. */
static int read_foreign(struct rp_store *st, const char *path, bool quiet)
{
	struct rp_foreign_counts c;
	enum rp_format fmt;
	char *line = NULL, why[256];
	size_t cap = 0;
	FILE *f = rp_infile_stream(path, why, sizeof(why));

	if (!f) {
		if (!quiet)
			skip(st, path, why);
		return -1;
	}
	fmt = rp_table_getline(f, &line, &cap) > 0 ? rp_foreign_detect(line) : RP_F_NONE;
	if (fmt != RP_F_NONE) {
		rp_foreign_read(st, f, path, fmt, line, RP_TASKS_MAX, &c);
		tell_foreign(st, path, fmt, &c);
	}
	free(line);
	fclose(f);
	return fmt != RP_F_NONE ? 0 : -1;
}

static int read_file(struct rp_store *st, const char *path)
{
	char why[256];
	off_t size;
	FILE *f;
	int fd, c;

	if (ends_with(path, SUMMARY_EXT) || ends_with(path, FULL_EXT))
		return read_summary(st, path, -1);
	if (read_foreign(st, path, true) == 0)
		return 0;
	fd = rp_infile_open(path, &size, why, sizeof(why));
	if (fd < 0) {
		skip(st, path, why);
		return -1;
	}
	c = first_byte(fd);
	if (c == '{') {
		close(fd);
		return read_summary(st, path, -1);
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		skip(st, path, strerror(errno));
		return -1;
	}
	if (rp_txnlog_read(st, f, path) < 0)
		skip(st, path, "not a summary, a transaction log, a Nextflow trace, a "
		     "Snakemake benchmark file nor sacct output");
	fclose(f);
	return 0;
}

int rp_read_input(struct rp_store *st, const char *path, int jobs,
		  struct rp_cache *cache)
{
	struct stat sb;
	size_t found = 0;

	if (stat(path, &sb) < 0) {
		char *p = safetext_clip(path, 480);

		error_msg("cannot read %s: %s", p, strerror(errno));
		free(p);
		return -1;
	}
	if (!S_ISDIR(sb.st_mode))
		read_file(st, path);
	else {
		struct rp_pool *pool = rp_pool_new(st, jobs, read_slow, cache);

		walk_dir(st, pool, path, &found, 0, 0, 1);
		rp_pool_free(pool);
	}
	rp_store_seal(st);
	arena_release();
	if (st->n >= RP_TASKS_MAX) {
		char *p = safetext_clip(path, 480);

		error_msg("warning: %s: the report holds at most %d tasks; the rest was not read",
			  p, RP_TASKS_MAX);
		free(p);
	}
	if (S_ISDIR(sb.st_mode) && found == 0) {
		char *p = safetext_clip(path, 480);

		error_msg("%s: no summaries in this directory (no *.summary nor *.tpmon.json files)",
			  p);
		free(p);
		return -1;
	}
	return 0;
}
