/* reader.c: walk the report's inputs and read each summary file. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "error.h"
#include "report/reader.h"
#include "report/rsummary.h"
#include "report/txnlog.h"
#include "xmalloc.h"

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

/* Does @root look like a resource summary (and not any JSON object)? */
static bool is_summary(const json_t *root)
{
	static const char *const keys[] = {
		"wall_time", "exit_type", "command", "memory", "cores",
		"monitor_version", "start",
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_object_get(root, keys[i]))
			return true;
	return false;
}

/* Read one JSON summary; @quiet: no warning (the caller falls back). */
static int read_json(struct rp_store *st, const char *path, bool quiet)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err);

	if (!root || !json_is_object(root) || !is_summary(root)) {
		if (!quiet) {
			if (!root)
				error_msg("warning: skipping %s: not a readable summary (%s, line %d)",
					  path, err.text, err.line);
			else
				error_msg("warning: skipping %s: not a resource summary", path);
			st->skipped++;
		}
		json_decref(root);
		return -1;
	}
	rp_summary_fill(rp_store_add(st, path), root);
	json_decref(root);
	return 0;
}

int rp_read_summary_file(struct rp_store *st, const char *path)
{
	if (ends_with(path, SUMMARY_EXT)) {
		char *full = swap_suffix(path, SUMMARY_EXT, FULL_EXT);
		int r = -1;

		if (access(full, R_OK) == 0) {
			r = read_json(st, full, true);
			if (r < 0)
				error_msg("warning: %s is unreadable, reading %s instead",
					  full, path);
		}
		free(full);
		if (r == 0)
			return 0;
	}
	return read_json(st, path, false);
}

/* A file found in a directory: read it if it is a summary (X.tpmon.json
 * only when there is no X.summary, which reads it).  Counts in @found. */
static void walk_file(struct rp_store *st, const char *path, size_t *found)
{
	if (ends_with(path, SUMMARY_EXT)) {
		(*found)++;
		rp_read_summary_file(st, path);
	} else if (ends_with(path, FULL_EXT)) {
		char *sum = swap_suffix(path, FULL_EXT, SUMMARY_EXT);

		(*found)++;
		if (access(sum, F_OK) != 0)
			read_json(st, path, false);
		free(sum);
	}
}

static void walk_dir(struct rp_store *st, const char *dir, size_t *found)
{
	struct dirent **names;
	int n, i;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		error_msg("warning: skipping directory %s: %s", dir, strerror(errno));
		st->skipped++;
		return;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		struct stat sb;
		char *path;

		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
			free(names[i]);
			continue;
		}
		path = xasprintf("%s/%s", dir, name);
		if (lstat(path, &sb) == 0) {
			if (S_ISDIR(sb.st_mode))
				walk_dir(st, path, found);
			else if (S_ISREG(sb.st_mode))
				walk_file(st, path, found);
		}
		free(path);
		free(names[i]);
	}
	free(names);
}

/* First non-blank byte of @f (then rewound), or EOF. */
static int first_byte(FILE *f)
{
	int c;

	while ((c = getc(f)) != EOF && isspace(c))
		;
	rewind(f);
	return c;
}

static int read_file(struct rp_store *st, const char *path)
{
	FILE *f;
	int c;

	if (ends_with(path, SUMMARY_EXT) || ends_with(path, FULL_EXT))
		return rp_read_summary_file(st, path);
	f = fopen(path, "r");
	if (!f) {
		error_msg("warning: skipping %s: %s", path, strerror(errno));
		st->skipped++;
		return -1;
	}
	c = first_byte(f);
	if (c == '{') {
		fclose(f);
		return rp_read_summary_file(st, path);
	}
	if (rp_txnlog_read(st, f, path) < 0) {
		error_msg("warning: skipping %s: neither a summary nor a transaction log",
			  path);
		st->skipped++;
	}
	fclose(f);
	return 0;
}

int rp_read_input(struct rp_store *st, const char *path)
{
	struct stat sb;
	size_t found = 0;

	if (stat(path, &sb) < 0) {
		error_msg("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		read_file(st, path);
		return 0;
	}
	walk_dir(st, path, &found);
	if (found == 0) {
		error_msg("%s: no summaries in this directory (no *.summary nor *.tpmon.json files)",
			  path);
		return -1;
	}
	return 0;
}
