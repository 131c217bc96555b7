/* SPDX-License-Identifier: MIT */
/* rcache.c: the report's cache of tasks read from summaries (rcache.h).
 * The file: "TPMONRC7", the number of resources, the inputs (the
 * ident), then blocks, each its length (u32), a zero (u32), a checksum
 * of its bytes seeded with its number (u64) and the bytes, and a last
 * block of length 0 followed by the number of entries and a checksum of
 * the blocks' checksums.  A block holds whole entries, in the walk's
 * order: the number of the input it is under (u32), the summary's path
 * (how many bytes it shares with the entry before it in the block (u16),
 * the length of the rest (u16) and its bytes), how it was read (full),
 * the stamp of the file read (device, inode, size, mtime s and ns, ctime
 * s and ns; "TPMONRC3" had no ctime, "TPMONRC4" no retry: such a cache is
 * rebuilt), the task's resources, start, end, retry's memory and wall
 * time and the input size ("TPMONRC6" had one or the other) (a u32 of
 * which are known, then those as doubles), exit status (i64), number of
 * notes (u32), partial (u8), and its nine strings (category, command,
 * host, exit_type, cause, detail, notes, notes_text, job; "TPMONRC5" had
 * no job) each a reference (u32):
 * none, a new string (its u32 length and bytes; it takes the next
 * index), or the index of one given before.  Numbers in the machine's
 * order (a cache is for the machine that wrote it; another one fails the
 * checks).  Neither file is ever held whole: a block at a time. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/outfile.h"
#include "basic/safetext.h"
#include "basic/xmalloc.h"
#include "report/files/infile.h"
#include "report/read/rcache.h"
#include "report/read/rsummary.h"

#define MAGIC "TPMONRC7"
#define MAGIC_FAMILY 7		/* "TPMONRC": a cache of some version */
#define NSTR 9
#define NVAL (RP_RES__COUNT + 5)	/* the resources, start, end, the retry, input */
#define INPUT_VAL (RP_RES__COUNT + 4)	/* the input size: 0 is a value */
#define NO_STRING 0xffffffffU
#define NEW_STRING 0xfffffffeU
#define PATH_MAX_LEN 4096
#define HEAD 16			/* a block's length, zero, checksum */
#define BLOCK (1U << 20)	/* a block is ended past this many bytes */
#define BLOCK_MAX (16U << 20)	/* the largest block read */
#define WTAB 4096		/* strings the writer remembers (by pointer) */

struct buf {
	unsigned char *p;
	size_t n, cap;
};

/* the entry read last, not yet taken */
struct entry {
	uint32_t input;
	char path[PATH_MAX_LEN + 1];
	int full;
	struct rp_cache_stamp stamp;
	struct rp_task task;
};

struct rp_cache {
	char *path;		/* owned: --cache's name */
	struct buf ident;	/* the header: version, inputs */
	uint32_t input;		/* the input being walked */
	/* the old cache, read */
	int fd;			/* -1: none, or no more */
	struct buf blk;		/* the block being read */
	size_t at;		/* where in it */
	uint64_t nblk;		/* blocks read */
	const char **strs;	/* the strings given so far (the store's) */
	size_t nstrs, capstrs;
	struct entry e;
	bool have;		/* e holds an entry not yet taken */
	/* the new cache, written */
	char *target;		/* owned: the file it replaces; NULL: none */
	char *tmp;		/* owned: its temporary name, or NULL */
	int wfd;		/* -1: not written */
	int werr;		/* errno of the first failure, or 0 */
	struct buf out;		/* the block being written, HEAD bytes first */
	uint64_t wblk, wcount, wchain;
	uint32_t wnext;		/* the index the next new string takes */
	char wprev[PATH_MAX_LEN + 1];	/* the path of the entry before, in the block */
	size_t wprevlen;
	struct {
		const char *s;
		uint32_t idx;
	} wtab[WTAB];
};

/* ---- checksums ---- */

static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9fb21c651e98df25ULL;
	return h ^ (h >> 29);
}

/* The checksum of @n bytes at @p, block number @seed: eight bytes at a
 * time (a byte at a time took 0.3 s at a million entries). */
static uint64_t block_hash(const unsigned char *p, size_t n, uint64_t seed)
{
	uint64_t h = mix(0x243f6a8885a308d3ULL, seed), w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = mix(h, w);
	}
	w = 0;
	memcpy(&w, p + i, n - i);
	return mix(mix(h, w), n);
}

/* ---- writing ---- */

static void put(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
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

static void put_str(struct buf *b, const char *s)
{
	size_t n = strlen(s);

	put_u32(b, (uint32_t)n);
	put(b, s, n);
}

/* The block in c->out written, with its head. */
static void flush_block(struct rp_cache *c)
{
	uint32_t len = (uint32_t)(c->out.n - HEAD), zero = 0;
	uint64_t h = block_hash(c->out.p + HEAD, len, c->wblk);

	memcpy(c->out.p, &len, 4);
	memcpy(c->out.p + 4, &zero, 4);
	memcpy(c->out.p + 8, &h, 8);
	if (c->wfd >= 0 && outfile_write_fd(c->wfd, c->out.p, c->out.n) < 0 && !c->werr)
		c->werr = errno;
	c->wblk++;
	c->wchain = mix(c->wchain, h);
	c->out.n = HEAD;
	c->wprevlen = 0;
}

/* A string of a sealed task: its index when the writer gave it lately
 * (the store's strings are one pointer for equal text), else its text. */
static void put_ref(struct rp_cache *c, const char *s)
{
	size_t h;

	if (!s) {
		put_u32(&c->out, NO_STRING);
		return;
	}
	h = (size_t)(((uint64_t)(uintptr_t)s >> 3) * 0x9e3779b97f4a7c15ULL >> 52) % WTAB;
	if (c->wtab[h].s == s) {
		put_u32(&c->out, c->wtab[h].idx);
		return;
	}
	put_u32(&c->out, NEW_STRING);
	put_str(&c->out, s);
	c->wtab[h].s = s;
	c->wtab[h].idx = c->wnext++;
}

/* @path as the bytes it shares with the entry before and the rest. */
static void put_path(struct rp_cache *c, const char *path, size_t n)
{
	uint16_t shared = 0, rest;

	while (shared < c->wprevlen && shared < n && c->wprev[shared] == path[shared])
		shared++;
	rest = (uint16_t)(n - shared);
	put(&c->out, &shared, sizeof(shared));
	put(&c->out, &rest, sizeof(rest));
	put(&c->out, path + shared, rest);
	memcpy(c->wprev, path, n);
	c->wprevlen = n;
}

void rp_cache_put(struct rp_cache *c, const char *path, int full,
		  const struct rp_cache_stamp *stamp, const struct rp_task *t)
{
	const char *s[NSTR] = { t->category, t->command, t->host, t->exit_type,
				t->cause, t->detail, t->notes, t->notes_text, t->job };
	size_t plen = strlen(path);
	int64_t status = t->exit_status;
	uint32_t nnotes = (uint32_t)t->nnotes, known = 0;
	unsigned char f = (unsigned char)full, partial = t->partial;
	double v[NVAL];
	int i;

	/* (unsealed strings are no pointers to remember) */
	if (c->wfd < 0 || !t->pooled || plen == 0 || plen > PATH_MAX_LEN ||
	    t->nnotes > UINT32_MAX || c->wnext >= NEW_STRING - NSTR)
		return;
	memcpy(v, t->v, sizeof(t->v));
	v[RP_RES__COUNT] = t->started;
	v[RP_RES__COUNT + 1] = t->ended;
	v[RP_RES__COUNT + 2] = t->retry_memory;
	v[RP_RES__COUNT + 3] = t->retry_wall_time;
	v[INPUT_VAL] = rp_input_mb_usable(t->input_mb) ? t->input_mb : NAN;
	for (i = 0; i < NVAL; i++)
		known |= isnan(v[i]) ? 0 : 1U << i;
	put_u32(&c->out, c->input);
	put_path(c, path, plen);
	put(&c->out, &f, 1);
	put(&c->out, stamp, sizeof(*stamp));
	put_u32(&c->out, known);
	for (i = 0; i < NVAL; i++)
		if (known & (1U << i))
			put(&c->out, &v[i], sizeof(double));
	put(&c->out, &status, sizeof(status));
	put(&c->out, &nnotes, sizeof(nnotes));
	put(&c->out, &partial, 1);
	for (i = 0; i < NSTR; i++)
		put_ref(c, s[i]);
	c->wcount++;
	if (c->out.n - HEAD >= BLOCK)
		flush_block(c);
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

/* @n bytes without a NUL at @c, or NULL (bad). */
static const char *get_bytes(struct cur *c, size_t n)
{
	const char *s = (const char *)c->p;

	if (c->bad || (size_t)(c->end - c->p) < n || memchr(c->p, '\0', n)) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return s;
}

/* A string reference at @cur: the store's string (a new one interned in
 * @st and given the next index), NULL for none; bad when neither. */
static const char *get_ref(struct rp_cache *c, struct rp_store *st, struct cur *cur)
{
	char text[RP_STRING_MAX + 1];
	const char *s;
	uint32_t r, len;

	get(cur, &r, sizeof(r));
	if (cur->bad || r == NO_STRING)
		return NULL;
	if (r != NEW_STRING) {
		if (r >= c->nstrs)
			cur->bad = true;
		return cur->bad ? NULL : c->strs[r];
	}
	get(cur, &len, sizeof(len));
	s = len <= RP_STRING_MAX ? get_bytes(cur, len) : NULL;
	if (!s) {
		cur->bad = true;
		return NULL;
	}
	memcpy(text, s, len);
	text[len] = '\0';
	if (c->nstrs == c->capstrs) {
		c->capstrs = c->capstrs ? 2 * c->capstrs : 1024;
		c->strs = xreallocarray(c->strs, c->capstrs, sizeof(*c->strs));
	}
	return c->strs[c->nstrs++] = rp_store_intern(st, text);
}

/* Are the values of @v (the resources, then start and end) ones a
 * summary could give? */
static bool values_ok(const double *v)
{
	int i;

	for (i = 0; i < NVAL; i++)
		if (!isnan(v[i]) && (!isfinite(v[i]) || signbit(v[i]) ||
				     (i >= RP_RES__COUNT && (v[i] <= 0 || v[i] >= 1e11) &&
				      !(i == INPUT_VAL && v[i] == 0))))
			return false;
	return true;
}

/* The path at @cur into c->e.path (the entry before's there, @prev bytes
 * of it); false when it is none. */
static bool get_path(struct cur *cur, char *path, size_t prev)
{
	uint16_t shared, rest;
	const char *s;

	get(cur, &shared, sizeof(shared));
	get(cur, &rest, sizeof(rest));
	if (cur->bad || shared > prev || (size_t)shared + rest > PATH_MAX_LEN ||
	    shared + rest == 0)
		return false;
	s = get_bytes(cur, rest);
	if (!s)
		return false;
	memcpy(path + shared, s, rest);
	path[shared + rest] = '\0';
	return true;
}

/* The values at @cur into @v (NAN where not known). */
static void get_values(struct cur *cur, double *v)
{
	uint32_t known;
	int i;

	get(cur, &known, sizeof(known));
	for (i = 0; i < NVAL; i++) {
		v[i] = NAN;
		if (known & (1U << i)) {
			get(cur, &v[i], sizeof(double));
			if (isnan(v[i]))
				cur->bad = true;	/* (a known value is a number) */
		}
	}
	if (known >> NVAL)
		cur->bad = true;
}

/* The entry at @cur into c->e (@prev: the length of the path before it in
 * the block); false when it is not one a report wrote. */
static bool parse_entry(struct rp_cache *c, struct rp_store *st, struct cur *cur, size_t prev)
{
	struct rp_task *t = &c->e.task;
	double v[NVAL];
	const char *s[NSTR];
	unsigned char full, partial;
	uint32_t nnotes;
	int64_t status;
	bool path;
	int i;

	get(cur, &c->e.input, sizeof(c->e.input));
	path = get_path(cur, c->e.path, prev);
	get(cur, &full, 1);
	get(cur, &c->e.stamp, sizeof(c->e.stamp));
	get_values(cur, v);
	get(cur, &status, sizeof(status));
	get(cur, &nnotes, sizeof(nnotes));
	get(cur, &partial, 1);
	for (i = 0; i < NSTR; i++)
		s[i] = get_ref(c, st, cur);
	if (cur->bad || !path || full > 1 || partial > 1 || !values_ok(v))
		return false;
	c->e.full = full;
	rp_task_init(t);
	memcpy(t->v, v, sizeof(t->v));
	t->started = v[RP_RES__COUNT];
	t->ended = v[RP_RES__COUNT + 1];
	t->retry_memory = v[RP_RES__COUNT + 2];
	t->retry_wall_time = v[RP_RES__COUNT + 3];
	t->input_mb = v[INPUT_VAL];
	t->exit_status = (long)status;
	t->category = (char *)s[0];
	t->command = (char *)s[1];
	t->host = (char *)s[2];
	t->exit_type = (char *)s[3];
	t->cause = (char *)s[4];
	t->detail = (char *)s[5];
	t->notes = (char *)s[6];
	t->notes_text = (char *)s[7];
	t->job = (char *)s[8];
	t->nnotes = nnotes;
	t->partial = partial == 1;
	t->pooled = true;
	rp_task_classify(t);
	return true;
}

static int read_all(int fd, void *p, size_t n)
{
	char *s = p;

	while (n > 0) {
		ssize_t r = read(fd, s, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		s += r;
		n -= (size_t)r;
	}
	return 0;
}

/* The next block of @c->fd into c->blk (number @seed): 1, 0 at the end
 * (*@tail: the count and chain after it), or why it is no block. */
static const char *next_block(struct rp_cache *c, uint64_t seed, int *more, uint64_t tail[2],
			      uint64_t *hash)
{
	unsigned char head[HEAD];
	uint32_t len;
	uint64_t h;

	*more = 0;
	if (read_all(c->fd, head, HEAD) < 0)
		return "it is cut short (corrupt)";
	memcpy(&len, head, 4);
	memcpy(&h, head + 8, 8);
	if (len == 0) {
		memcpy(&tail[0], head + 8, 8);
		return read_all(c->fd, &tail[1], 8) < 0 ? "it is cut short (corrupt)" : NULL;
	}
	if (len > BLOCK_MAX)
		return "a block larger than any report writes (corrupt)";
	c->blk.n = 0;
	if (len > c->blk.cap) {
		c->blk.cap = len;
		c->blk.p = xreallocarray(c->blk.p, len, 1);
	}
	if (read_all(c->fd, c->blk.p, len) < 0)
		return "it is cut short (corrupt)";
	if (block_hash(c->blk.p, len, seed) != h)
		return "its checksum does not match (corrupt)";
	*hash = h;
	c->blk.n = len;
	*more = 1;
	return NULL;
}

/* The first pass: every block's checksum, the chain and the end.  Why the
 * file is no cache, or NULL (then the blocks are read again from the
 * start). */
static const char *verify(struct rp_cache *c)
{
	uint64_t chain = 0, n, tail[2] = { 0, 0 }, h = 0;
	char extra;
	int more = 1;

	for (n = 0; more; n++) {
		const char *why = next_block(c, n, &more, tail, &h);

		if (why)
			return why;
		if (more)
			chain = mix(chain, h);
	}
	if (tail[1] != chain || read(c->fd, &extra, 1) != 0)
		return "its checksum does not match (corrupt)";
	if (lseek(c->fd, (off_t)c->ident.n, SEEK_SET) < 0)
		return strerror(errno);
	c->blk.n = c->at = 0;
	return NULL;
}

/* The old cache given up: one warning saying why, from now on. */
static void give_up(struct rp_cache *c, const char *why, bool rest)
{
	char *p = safetext_clip(c->path, 480), *w = safetext_clip(why, 240);

	if (rest)
		error_msg("warning: ignoring the rest of the cache %s: %s; reading those files",
			  p, w);
	else
		error_msg("warning: ignoring the cache %s: %s; reading every file", p, w);
	free(p);
	free(w);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->have = false;
}

/* The next entry into c->e; false at the end. */
static bool next_entry(struct rp_cache *c, struct rp_store *st)
{
	struct cur cur;

	if (c->fd < 0)
		return false;
	if (c->at == c->blk.n) {
		uint64_t tail[2], h;
		const char *why;
		int more;

		why = next_block(c, c->nblk++, &more, tail, &h);
		if (why || !more) {
			if (why)
				give_up(c, why, true);
			else
				close(c->fd);
			c->fd = -1;
			return false;
		}
		c->at = 0;
	}
	cur.p = c->blk.p + c->at;
	cur.end = c->blk.p + c->blk.n;
	cur.bad = false;
	if (!parse_entry(c, st, &cur, c->at == 0 ? 0 : strlen(c->e.path))) {
		give_up(c, "an entry that no report wrote (corrupt)", true);
		return false;
	}
	c->at = (size_t)(cur.p - c->blk.p);
	return c->have = true;
}

/* The walk's order: names compared as strcmp() does, a directory's files
 * before the next name (so '/' before any byte). */
static int walk_cmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (*a == '/' ? 1 : (unsigned char)*a + 1) - (*b == '/' ? 1 : (unsigned char)*b + 1);
}

bool rp_cache_find(struct rp_cache *c, struct rp_store *st, const char *path, int full,
		   struct rp_cache_stamp *stamp, struct rp_task *t)
{
	for (;;) {
		int cmp;

		if (!c->have && !next_entry(c, st))
			return false;
		cmp = c->e.input != c->input ? (c->e.input < c->input ? -1 : 1) :
		      walk_cmp(c->e.path, path);
		if (cmp > 0)
			return false;	/* a new file: the entry waits for its own */
		c->have = false;
		if (cmp == 0) {
			if (c->e.full != full)
				return false;
			*stamp = c->e.stamp;
			*t = c->e.task;
			return true;
		}
	}
}

void rp_cache_input(struct rp_cache *c, int i)
{
	c->input = (uint32_t)i;
}

void rp_cache_stamp_of(struct rp_cache_stamp *s, const struct stat *sb)
{
	s->dev = (uint64_t)sb->st_dev;
	s->ino = (uint64_t)sb->st_ino;
	s->size = (uint64_t)sb->st_size;
	s->sec = (uint64_t)sb->st_mtim.tv_sec;
	s->nsec = (uint64_t)sb->st_mtim.tv_nsec;
	s->csec = (uint64_t)sb->st_ctim.tv_sec;
	s->cnsec = (uint64_t)sb->st_ctim.tv_nsec;
}

/* ---- opening, saving ---- */

/* Why the open file c->fd of @size bytes is no cache for @c, or NULL. */
static const char *check(struct rp_cache *c, off_t size)
{
	size_t n = (size_t)size < c->ident.n ? (size_t)size : c->ident.n;
	unsigned char *head;
	const char *why = NULL;

	if ((unsigned long long)size > RP_CACHE_MAX)
		return "larger than any report writes";
	head = xmalloc(c->ident.n);
	if (read_all(c->fd, head, n) < 0)
		why = strerror(errno);
	else if (n < MAGIC_FAMILY || memcmp(head, MAGIC, MAGIC_FAMILY) != 0)
		why = "not a tpmon report cache";
	else if (n < c->ident.n || memcmp(head, c->ident.p, c->ident.n) != 0)
		why = "from another version or for other inputs";
	free(head);
	return why ? why : verify(c);
}

/* The new cache's file: the one named, or where a link named leads; none
 * for a device, a FIFO or anything but a regular file (never replaced). */
static void begin_new(struct rp_cache *c)
{
	struct stat st;

	/* what another user planted there is neither followed nor replaced */
	if (outfile_planted(c->path) < 0) {
		c->werr = errno;
		return;
	}
	if (lstat(c->path, &st) < 0) {
		c->target = errno == ENOENT ? xstrdup(c->path) : NULL;
	} else if (S_ISLNK(st.st_mode)) {
		c->target = realpath(c->path, NULL);
		if (c->target && (stat(c->target, &st) < 0 || !S_ISREG(st.st_mode))) {
			free(c->target);
			c->target = NULL;
			return;
		}
	} else if (S_ISREG(st.st_mode)) {
		c->target = xstrdup(c->path);
	}
	if (!c->target) {
		c->werr = errno;	/* 0 for a device or a FIFO: nothing to say */
		return;
	}
	c->tmp = xasprintf("%s.tmp%ld", c->target, (long)getpid());
	c->wfd = open(c->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (c->wfd < 0 || outfile_write_fd(c->wfd, c->ident.p, c->ident.n) < 0) {
		c->werr = errno;
		if (c->wfd >= 0) {
			close(c->wfd);
			unlink(c->tmp);
		}
		c->wfd = -1;
	}
}

static void ident(struct buf *b, char *const *inputs, int n)
{
	int i;

	put(b, MAGIC, strlen(MAGIC));
	put_u32(b, RP_RES__COUNT);
	put_u32(b, (uint32_t)n);
	for (i = 0; i < n; i++)
		put_str(b, inputs[i]);
}

struct rp_cache *rp_cache_open(const char *path, char *const *inputs, int n)
{
	struct rp_cache *c = xcalloc(1, sizeof(*c));
	const char *bad;
	char why[256];
	off_t size = 0;

	c->path = xstrdup(path);
	c->fd = c->wfd = -1;
	ident(&c->ident, inputs, n);
	c->out.p = xcalloc(1, HEAD);
	c->out.n = c->out.cap = HEAD;
	errno = 0;
	begin_new(c);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return c;
	c->fd = rp_infile_open(path, &size, why, sizeof(why));
	bad = c->fd >= 0 ? check(c, size) : why;
	if (bad)
		give_up(c, bad, false);
	return c;
}

int rp_cache_save(struct rp_cache *c)
{
	char *p;

	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	if (!c->target && !c->werr)
		return -1;	/* a device or a FIFO: the load said */
	if (c->wfd >= 0) {
		uint32_t zero[2] = { 0, 0 };

		if (c->out.n > HEAD)
			flush_block(c);
		if ((outfile_write_fd(c->wfd, zero, sizeof(zero)) < 0 ||
		     outfile_write_fd(c->wfd, &c->wcount, 8) < 0 ||
		     outfile_write_fd(c->wfd, &c->wchain, 8) < 0) && !c->werr)
			c->werr = errno;
		if (close(c->wfd) < 0 && !c->werr)
			c->werr = errno;
		c->wfd = -1;
		if (!c->werr && outfile_planted(c->path) < 0)
			c->werr = errno;
		if (!c->werr && rename(c->tmp, c->target) == 0) {
			free(c->tmp);
			c->tmp = NULL;
			return 0;
		}
		if (!c->werr)
			c->werr = errno;
		unlink(c->tmp);
	}
	p = safetext_clip(c->path, 480);
	error_msg("warning: cannot write the cache %s: %s", p, outfile_strerror(c->werr));
	free(p);
	return -1;
}

void rp_cache_free(struct rp_cache *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	if (c->wfd >= 0) {
		close(c->wfd);
		unlink(c->tmp);
	}
	free(c->path);
	free(c->ident.p);
	free(c->blk.p);
	free(c->strs);
	free(c->target);
	free(c->tmp);
	free(c->out.p);
	free(c);
}

int rp_cache_forge(const char *path, char *const *inputs, int n, const void *body,
		   size_t len, uint64_t count)
{
	struct buf b = { NULL, 0, 0 };
	uint64_t h = block_hash(body, len, 0), chain = mix(0, h), zero = 0;
	int fd, r;

	ident(&b, inputs, n);
	if (len > 0) {
		uint32_t head[2] = { (uint32_t)len, 0 };

		put(&b, head, sizeof(head));
		put(&b, &h, sizeof(h));
		put(&b, body, len);
	} else {
		chain = 0;
	}
	put(&b, &zero, sizeof(zero));
	put(&b, &count, sizeof(count));
	put(&b, &chain, sizeof(chain));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	r = fd >= 0 ? outfile_write_fd(fd, b.p, b.n) : -1;
	if (fd >= 0 && close(fd) < 0)
		r = -1;
	free(b.p);
	return r;
}
