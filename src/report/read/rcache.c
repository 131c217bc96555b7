/* SPDX-License-Identifier: MIT */
/* rcache.c: the report's cache of tasks read from summaries (rcache.h).
 * The file: "TPMONRC2", the number of resources, the inputs, the number
 * of entries, the entries, and an FNV-1a checksum of all that.  An entry:
 * the summary's path, how it was read (full, from_full), the read file's
 * inode, size and mtime, then the task: its resources, start, end, exit
 * status, the notes' count, partial, category, command, host, exit_type,
 * cause, detail, notes and their texts.  Numbers in the machine's
 * order (a cache is for the machine that wrote it; another one fails the
 * checks).  A string is its length (0xffffffff: none) and its bytes. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"
#include "report/read/infile.h"
#include "report/read/rcache.h"
#include "report/read/rsummary.h"

#define MAGIC "TPMONRC2"
/* the strings of an entry: category, command, host, exit_type, cause,
 * detail, notes, notes_text */
#define NSTR 8
#define NO_STRING 0xffffffffU
#define PATH_MAX_LEN 4096

struct buf {
	unsigned char *p;
	size_t n, cap;
};

struct rp_cache {
	char *path;		/* owned: the cache file */
	struct buf ident;	/* the header up to the count: version, inputs */
	char *old;		/* the file read, or NULL */
	size_t oldlen;		/* its length up to the checksum */
	size_t *slot;		/* hash of entry offsets + 1 into old; 0 empty */
	size_t nslot;
	struct buf out;		/* the entries to write */
	uint64_t nout;
};

/* ---- writing ---- */

static void put(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;	/* (a string that is none: no bytes, and no pointer) */
	if (b->n + n > b->cap) {
		b->cap = b->cap * 2 > b->n + n ? b->cap * 2 : b->n + n + 4096;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put_u32(struct buf *b, uint32_t v)
{
	put(b, &v, sizeof(v));
}

static void put_u64(struct buf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

static void put_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u32(b, s ? (uint32_t)n : NO_STRING);
	put(b, s, n);
}

/* ---- reading: a cursor that turns bad past the end ---- */

struct cur {
	const unsigned char *p, *end;
	bool bad;
};

static void get(struct cur *c, void *out, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		memset(out, 0, n);
		return;
	}
	memcpy(out, c->p, n);
	c->p += n;
}

static uint64_t get_u64(struct cur *c)
{
	uint64_t v;

	get(c, &v, sizeof(v));
	return v;
}

/* A string of at most @max bytes without a NUL: its bytes (not
 * terminated) and length, NULL for none; bad otherwise. */
static const char *get_str(struct cur *c, size_t max, uint32_t *len)
{
	const char *s;

	get(c, len, sizeof(*len));
	if (c->bad || *len == NO_STRING)
		return NULL;
	if (*len > max || (size_t)(c->end - c->p) < *len ||
	    memchr(c->p, '\0', *len)) {
		c->bad = true;
		return NULL;
	}
	s = (const char *)c->p;
	c->p += *len;
	return s;
}

#define FNV_BASIS 1469598103934665603ULL

/* FNV-1a of @n bytes at @p, going on from @h (FNV_BASIS: from the start). */
static uint64_t fnv1a_more(uint64_t h, const unsigned char *p, size_t n)
{
	while (n--)
		h = (h ^ *p++) * 1099511628211ULL;
	return h;
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	return fnv1a_more(FNV_BASIS, p, n);
}

/* The entry at @c: its path (*@path, *@plen) and key; the task into @t
 * when @t.  false when it is not one a report could have written. */
static bool entry(struct cur *c, const char **path, uint32_t *plen, unsigned char key[2],
		  uint64_t stamp[4], struct rp_task *t)
{
	double v[RP_RES__COUNT + 2];
	const char *s[NSTR];
	uint32_t n[NSTR];
	int64_t status;
	uint64_t nnotes, partial;
	int i;

	*path = get_str(c, PATH_MAX_LEN, plen);
	get(c, key, 2);
	for (i = 0; i < 4; i++)
		stamp[i] = get_u64(c);
	get(c, v, sizeof(v));
	get(c, &status, sizeof(status));
	nnotes = get_u64(c);
	partial = get_u64(c);
	for (i = 0; i < NSTR; i++)
		s[i] = get_str(c, RP_STRING_MAX, &n[i]);
	if (c->bad || !*path || key[0] > 1 || key[1] > 1 || partial > 1 || nnotes > UINT32_MAX)
		return false;
	for (i = 0; i < RP_RES__COUNT + 2; i++)
		if (!isnan(v[i]) && (!isfinite(v[i]) || signbit(v[i]) ||
				     (i >= RP_RES__COUNT && (v[i] <= 0 || v[i] >= 1e11))))
			return false;
	if (!t)
		return true;
	memcpy(t->v, v, sizeof(t->v));
	t->started = v[RP_RES__COUNT];
	t->ended = v[RP_RES__COUNT + 1];
	t->exit_status = (long)status;
	t->category = s[0] ? xasprintf("%.*s", (int)n[0], s[0]) : NULL;
	t->command = s[1] ? xasprintf("%.*s", (int)n[1], s[1]) : NULL;
	t->host = s[2] ? xasprintf("%.*s", (int)n[2], s[2]) : NULL;
	t->exit_type = s[3] ? xasprintf("%.*s", (int)n[3], s[3]) : NULL;
	t->cause = s[4] ? xasprintf("%.*s", (int)n[4], s[4]) : NULL;
	t->detail = s[5] ? xasprintf("%.*s", (int)n[5], s[5]) : NULL;
	t->notes = s[6] ? xasprintf("%.*s", (int)n[6], s[6]) : NULL;
	t->notes_text = s[7] ? xasprintf("%.*s", (int)n[7], s[7]) : NULL;
	t->nnotes = (size_t)nnotes;
	t->partial = partial == 1;
	rp_task_classify(t);
	return true;
}

static size_t hash(const char *path, size_t n, int full)
{
	return (size_t)fnv1a((const unsigned char *)path, n) ^ (size_t)full;
}

/* Index the entries of @c->old from @cur (@count of them): false when one
 * is bad or they do not end where the checksum starts. */
static bool index_entries(struct rp_cache *c, struct cur *cur, uint64_t count)
{
	uint64_t i;

	if (count > RP_CACHE_MAX / 64)
		return false;
	for (c->nslot = 16; c->nslot < 2 * count; c->nslot *= 2)
		;
	c->slot = xcalloc(c->nslot, sizeof(size_t));
	for (i = 0; i < count; i++) {
		size_t at = (size_t)(cur->p - (const unsigned char *)c->old), h;
		unsigned char key[2];
		uint64_t stamp[4];
		const char *path;
		uint32_t plen;

		if (!entry(cur, &path, &plen, key, stamp, NULL))
			return false;
		for (h = hash(path, plen, key[0]) & (c->nslot - 1); c->slot[h];
		     h = (h + 1) & (c->nslot - 1))
			;
		c->slot[h] = at + 1;
	}
	return cur->p == cur->end;
}

/* Why the file @text (@len bytes) is no cache for @c, or NULL. */
static const char *check(struct rp_cache *c, char *text, size_t len)
{
	struct cur cur;
	uint64_t sum, count;
	size_t body = len - sizeof(sum);

	if (len < c->ident.n + 2 * sizeof(sum) || memcmp(text, MAGIC, strlen(MAGIC)) != 0)
		return "not a tpmon report cache";
	if (memcmp(text, c->ident.p, c->ident.n) != 0)
		return "from another version or for other inputs";
	memcpy(&sum, text + body, sizeof(sum));
	if (sum != fnv1a((unsigned char *)text, body))
		return "its checksum does not match (corrupt)";
	cur.p = (unsigned char *)text + c->ident.n;
	cur.end = (unsigned char *)text + body;
	cur.bad = false;
	count = get_u64(&cur);
	c->old = text;
	c->oldlen = body;
	if (!index_entries(c, &cur, count))
		return "an entry that no report wrote (corrupt)";
	return NULL;
}

struct rp_cache *rp_cache_open(const char *path, char *const *inputs, int n)
{
	struct rp_cache *c = xcalloc(1, sizeof(*c));
	char why[256], *text;
	const char *bad;
	size_t len = 0;
	int i;

	c->path = xstrdup(path);
	put(&c->ident, MAGIC, strlen(MAGIC));
	put_u32(&c->ident, RP_RES__COUNT);
	put_u32(&c->ident, (uint32_t)n);
	for (i = 0; i < n; i++)
		put_str(&c->ident, inputs[i]);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return c;
	text = rp_infile_slurp(path, RP_CACHE_MAX, "a cache", &len, why, sizeof(why));
	bad = text ? check(c, text, len) : why;
	if (bad) {
		char *p = safetext_clip(path, 480), *w = safetext_clip(bad, 240);

		error_msg("warning: ignoring the cache %s: %s; reading every file", p, w);
		free(p);
		free(w);
		free(c->slot);
		c->slot = NULL;
		c->old = NULL;
		free(text);
	}
	return c;
}

bool rp_cache_get(const struct rp_cache *c, const char *path, int full,
		  const struct stat *sb, struct rp_task *t, bool *from_full)
{
	size_t n = strlen(path), h;

	if (!c->slot)
		return false;
	for (h = hash(path, n, full) & (c->nslot - 1); c->slot[h]; h = (h + 1) & (c->nslot - 1)) {
		const unsigned char *at = (unsigned char *)c->old + c->slot[h] - 1;
		struct cur cur = { at, (unsigned char *)c->old + c->oldlen, false };
		unsigned char key[2];
		uint64_t stamp[4];
		const char *p;
		uint32_t plen;

		if (!entry(&cur, &p, &plen, key, stamp, NULL) || plen != n ||
		    memcmp(p, path, n) != 0 || key[0] != full)
			continue;
		if (stamp[0] != (uint64_t)sb->st_ino || stamp[1] != (uint64_t)sb->st_size ||
		    stamp[2] != (uint64_t)sb->st_mtim.tv_sec ||
		    stamp[3] != (uint64_t)sb->st_mtim.tv_nsec)
			return false;
		cur.p = at;
		entry(&cur, &p, &plen, key, stamp, t);
		*from_full = key[1];
		return true;
	}
	return false;
}

void rp_cache_put(struct rp_cache *c, const char *path, int full, bool from_full,
		  const struct stat *sb, const struct rp_task *t)
{
	unsigned char key[2] = { (unsigned char)full, from_full };
	int64_t status = t->exit_status;

	put_str(&c->out, path);
	put(&c->out, key, 2);
	put_u64(&c->out, (uint64_t)sb->st_ino);
	put_u64(&c->out, (uint64_t)sb->st_size);
	put_u64(&c->out, (uint64_t)sb->st_mtim.tv_sec);
	put_u64(&c->out, (uint64_t)sb->st_mtim.tv_nsec);
	put(&c->out, t->v, sizeof(t->v));
	put(&c->out, &t->started, sizeof(double));
	put(&c->out, &t->ended, sizeof(double));
	put(&c->out, &status, sizeof(status));
	put_u64(&c->out, (uint64_t)t->nnotes);
	put_u64(&c->out, t->partial ? 1 : 0);
	put_str(&c->out, t->category);
	put_str(&c->out, t->command);
	put_str(&c->out, t->host);
	put_str(&c->out, t->exit_type);
	put_str(&c->out, t->cause);
	put_str(&c->out, t->detail);
	put_str(&c->out, t->notes);
	put_str(&c->out, t->notes_text);
	c->nout++;
}

/* Write the @n bytes at @p to @f, the checksum going on in *@sum.  0 or -1. */
static int save_part(FILE *f, const void *p, size_t n, uint64_t *sum)
{
	*sum = fnv1a_more(*sum, p, n);
	return n == 0 || fwrite(p, 1, n, f) == n ? 0 : -1;
}

/* The header, the count and the entries written one after the other, not
 * copied into one buffer first (at a million tasks, the entries are
 * 350 MB); the file read is dropped first, as nothing reads it now. */
int rp_cache_save(struct rp_cache *c)
{
	char *tmp = xasprintf("%s.tmp%ld", c->path, (long)getpid());
	uint64_t sum = FNV_BASIS, count = c->nout;
	struct stat st;
	FILE *f;
	int r = -1;

	free(c->old);
	free(c->slot);
	c->old = NULL;
	c->slot = NULL;
	/* a cache is a regular file: --cache=/dev/null or a FIFO (or a link
	 * to one) is never replaced by one, as the rename below would; its
	 * load said so */
	if (stat(c->path, &st) == 0 && !S_ISREG(st.st_mode)) {
		free(tmp);
		return -1;
	}
	f = fopen(tmp, "wbx");
	if (f) {
		int w = save_part(f, c->ident.p, c->ident.n, &sum) |
			save_part(f, &count, sizeof(count), &sum) |
			save_part(f, c->out.p, c->out.n, &sum);

		w |= fwrite(&sum, sizeof(sum), 1, f) == 1 ? 0 : -1;
		if (fclose(f) == 0 && w == 0 && rename(tmp, c->path) == 0)
			r = 0;
	}
	if (r < 0) {
		char *p = safetext_clip(c->path, 480);

		error_msg("warning: cannot write the cache %s: %s", p, strerror(errno));
		free(p);
		unlink(tmp);
	}
	free(tmp);
	return r;
}

void rp_cache_free(struct rp_cache *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->ident.p);
	free(c->old);
	free(c->slot);
	free(c->out.p);
	free(c);
}
