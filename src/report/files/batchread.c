/* SPDX-License-Identifier: MIT */
/* batchread.c: many small files read whole, through io_uring where the
 * kernel has it, else one after the other (batchread.h).  Through the
 * ring, in three rounds of one system call each: the files opened, what
 * each descriptor is (statx), then the regular ones that fit read and
 * all closed.  The type is seen on the descriptor that is read: a file
 * swapped for a FIFO between the rounds is not read (the ring would
 * wait on it, O_NONBLOCK or not). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report/files/batchread.h"
#include "report/files/infile.h"
#include "basic/xmalloc.h"
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

/* (the environment variable that keeps a reader plain: the man page's) */
#define NO_URING_ENV "TPMON_REPORT_NO_IO_URING"

struct slot {
	char *buf;		/* RP_BATCHREAD_BYTES, owned */
	size_t cap;
};

struct rp_batchread {
	struct slot slots[RP_BATCHREAD_SLOTS];
	size_t nslots;		/* those of slots[] in use */
#ifdef HAVE_LIBURING
	struct io_uring ring;
	bool ring_ok;		/* the ring is set up, and reads */
	int open_flags;		/* O_NOATIME until the kernel refuses it */
	/* a run's descriptors (or -errno), what they are, the answers */
	int fds[RP_BATCHREAD_SLOTS];
	struct statx stx[RP_BATCHREAD_SLOTS];
	int stx_res[RP_BATCHREAD_SLOTS];	/* 0, or -errno */
	int res[2 * RP_BATCHREAD_SLOTS];	/* round three's */
#endif
};

/* Slot @i read plainly */
static long read_plain(struct rp_batchread *br, size_t i, int dirfd, const char *name)
{
	struct slot *s = &br->slots[i];
	long len;

	/* (quickat takes the buffer as it is: of RP_BATCHREAD_BYTES, at
	 * most one less is read, and it is never grown) */
	len = rp_infile_quickat(dirfd, name, RP_BATCHREAD_BYTES - 2, &s->buf, &s->cap);
	if (len == RP_INFILE_LARGER)
		return RP_BATCHREAD_LARGER;
	return len < 0 ? -1 : len;
}

#ifdef HAVE_LIBURING

/* How a ring's round ended */
enum round { ROUND_DONE, ROUND_NOT_SENT, ROUND_LOST };

/* The kernel's answers to the @want requests queued, each in
 * res[its user_data]: ROUND_DONE when each was answered; ROUND_NOT_SENT
 * when the kernel took none (nothing is in flight); ROUND_LOST when it
 * took them and no answer can be waited for (the kernel may still write
 * into the buffers, or close the descriptors) */
static enum round ring_round(struct io_uring *ring, unsigned want, int *res)
{
	unsigned seen = 0, sent = 0, tries = 0;
	int r;

	while (sent < want) {
		r = io_uring_submit(ring);
		/* (EAGAIN: the kernel is short of memory, for now) */
		if ((r == -EINTR || r == -EAGAIN || r == -EBUSY) && ++tries < 1000)
			continue;
		if (r <= 0)
			return sent ? ROUND_LOST : ROUND_NOT_SENT;
		sent += (unsigned)r;
	}
	while (seen < want) {
		struct io_uring_cqe *cqe;

		r = io_uring_wait_cqe(ring, &cqe);
		if (r == -EINTR || r == -EAGAIN)
			continue;
		if (r < 0)
			return ROUND_LOST;
		res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
		seen++;
	}
	return ROUND_DONE;
}

/* Round one: the files in @want (their indexes) opened, the
 * descriptors (or -errno) in br->fds */
static enum round ring_open(struct rp_batchread *br, const size_t *want, size_t n,
			    const int *dirfds, const char *const *names)
{
	size_t k;

	for (k = 0; k < n; k++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&br->ring);
		size_t i = want[k];

		io_uring_prep_openat(sqe, dirfds[i], names[i], br->open_flags, 0);
		sqe->user_data = i;
	}
	return ring_round(&br->ring, (unsigned)n, br->fds);
}

/* Round two: what each open file is, in br->stx (and br->stx_res) */
static enum round ring_stat(struct rp_batchread *br, size_t n)
{
	unsigned q = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe;

		br->stx_res[i] = -EBADF;
		if (br->fds[i] < 0)
			continue;
		sqe = io_uring_get_sqe(&br->ring);
		io_uring_prep_statx(sqe, br->fds[i], "", AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE,
				    &br->stx[i]);
		sqe->user_data = i;
		q++;
	}
	return ring_round(&br->ring, q, br->stx_res);
}

/* Whether file @i, as round two saw it, is one to read: a regular file
 * that fits in its slot (else its length says why not) */
static bool to_read(const struct rp_batchread *br, size_t i, long *len)
{
	if (br->stx_res[i] != 0 || !S_ISREG(br->stx[i].stx_mode)) {
		*len = -1;	/* (a FIFO or a device: never read here) */
		return false;
	}
	if (br->stx[i].stx_size >= RP_BATCHREAD_BYTES - 1) {
		*len = RP_BATCHREAD_LARGER;
		return false;
	}
	return true;
}

/* Round three: each regular file read into its slot, and every open
 * one closed (after its read, whatever the read gave); lengths in
 * @lens */
static enum round ring_read(struct rp_batchread *br, size_t n, long *lens)
{
	unsigned q = 0;
	enum round r;
	size_t i;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe;

		lens[i] = -1;
		br->res[i] = -EBADF;
		if (br->fds[i] < 0)
			continue;
		if (to_read(br, i, &lens[i])) {
			sqe = io_uring_get_sqe(&br->ring);
			io_uring_prep_read(sqe, br->fds[i], br->slots[i].buf,
					   RP_BATCHREAD_BYTES - 1, 0);
			sqe->flags |= IOSQE_IO_HARDLINK;
			sqe->user_data = i;
			q++;
		}
		sqe = io_uring_get_sqe(&br->ring);
		io_uring_prep_close(sqe, br->fds[i]);
		sqe->user_data = RP_BATCHREAD_SLOTS + i;
		q++;
	}
	r = ring_round(&br->ring, q, br->res);
	/* (a file not read, or whose read failed: its length is set) */
	for (i = 0; r == ROUND_DONE && i < n; i++) {
		if (br->res[i] < 0)
			continue;
		if (br->res[i] >= RP_BATCHREAD_BYTES - 1) {
			lens[i] = RP_BATCHREAD_LARGER;	/* (it grew) */
		} else {
			lens[i] = br->res[i];
			br->slots[i].buf[lens[i]] = '\0';
		}
	}
	return r;
}

/* The ring given up after a round that failed: the descriptors it
 * opened closed, unless they may still be the kernel's */
static void ring_give_up(struct rp_batchread *br, size_t n, enum round r)
{
	size_t i;

	if (r == ROUND_LOST) {
		/* (a kernel that took requests and then cannot be waited
		 * on: the buffers and descriptors are left to it, never
		 * written, freed or closed here) */
		for (i = 0; i < br->nslots; i++)
			br->slots[i].buf = xcalloc(1, RP_BATCHREAD_BYTES);
	} else {
		for (i = 0; i < n; i++)
			if (br->fds[i] >= 0)
				close(br->fds[i]);
	}
	io_uring_queue_exit(&br->ring);
	br->ring_ok = false;
}

/* Read @n files through the ring: opened together, looked at together,
 * read and closed together.  False when the ring failed (it is given up
 * then, and the caller reads them plainly). */
static bool ring_run(struct rp_batchread *br, size_t n, const int *dirfds,
		     const char *const *names, long *lens)
{
	size_t want[RP_BATCHREAD_SLOTS] = { 0 }, i, k = 0;
	enum round r;

	for (i = 0; i < n; i++) {
		want[i] = i;
		br->fds[i] = -EBADF;
	}
	r = ring_open(br, want, n, dirfds, names);
	/* a file that is not the caller's: O_NOATIME refused.  Without it
	 * from now on, and those files again now */
	for (i = 0; r == ROUND_DONE && i < n; i++)
		if (br->fds[i] == -EPERM && (br->open_flags & O_NOATIME))
			want[k++] = i;
	if (k > 0) {
		br->open_flags &= ~O_NOATIME;
		r = ring_open(br, want, k, dirfds, names);
	}
	if (r == ROUND_DONE)
		r = ring_stat(br, n);
	if (r == ROUND_DONE)
		r = ring_read(br, n, lens);
	if (r != ROUND_DONE) {
		ring_give_up(br, n, r);
		return false;
	}
	/* (out of descriptors: again plainly, now that the others are
	 * closed) */
	for (i = 0; i < n; i++)
		if (br->fds[i] == -EMFILE || br->fds[i] == -ENFILE)
			lens[i] = read_plain(br, i, dirfds[i], names[i]);
	return true;
}

/* Set up @br's ring: false where the kernel (or seccomp, or
 * io_uring_disabled) has none, or one without the requests it needs */
static bool ring_setup(struct rp_batchread *br)
{
	static const int ops[] = { IORING_OP_OPENAT, IORING_OP_STATX, IORING_OP_READ,
				   IORING_OP_CLOSE };
	struct io_uring_probe *probe;
	bool ok = true;
	size_t i;

	/* (one file at a time: three system calls a file, not three for
	 * 64) */
	if (getenv(NO_URING_ENV) || br->nslots < 2)
		return false;
	/* (room for round three: a read and a close a file) */
	if (io_uring_queue_init((unsigned)(2 * br->nslots), &br->ring, 0) < 0)
		return false;
	probe = io_uring_get_probe_ring(&br->ring);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		ok = ok && probe && io_uring_opcode_supported(probe, ops[i]);
	io_uring_free_probe(probe);
	if (!ok) {
		io_uring_queue_exit(&br->ring);
		return false;
	}
	br->open_flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOATIME;
	return true;
}

#endif /* HAVE_LIBURING */

size_t rp_batchread_slots_for(int readers)
{
	struct rlimit rl;
	rlim_t spare;

	/* (128 kept for the rest: the walk's directories, their copies for
	 * the batches, the outputs) */
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur <= 128 + (rlim_t)readers)
		return 1;
	spare = (rl.rlim_cur - 128) / (rlim_t)(readers > 0 ? readers : 1);
	return spare < RP_BATCHREAD_SLOTS ? (size_t)spare : RP_BATCHREAD_SLOTS;
}

struct rp_batchread *rp_batchread_new(size_t slots)
{
	struct rp_batchread *br = xcalloc(1, sizeof(*br));
	size_t i;

	br->nslots = slots < 1 ? 1 : slots > RP_BATCHREAD_SLOTS ? RP_BATCHREAD_SLOTS : slots;
	/* (zeroed: what the kernel writes through the ring, valgrind does
	 * not see written) */
	for (i = 0; i < br->nslots; i++) {
		br->slots[i].buf = xcalloc(1, RP_BATCHREAD_BYTES);
		br->slots[i].cap = RP_BATCHREAD_BYTES;
	}
#ifdef HAVE_LIBURING
	br->ring_ok = ring_setup(br);
#endif
	return br;
}

void rp_batchread_free(struct rp_batchread *br)
{
	size_t i;

	if (!br)
		return;
#ifdef HAVE_LIBURING
	if (br->ring_ok)
		io_uring_queue_exit(&br->ring);
#endif
	for (i = 0; i < br->nslots; i++)
		free(br->slots[i].buf);
	free(br);
}

size_t rp_batchread_slots(const struct rp_batchread *br)
{
	return br->nslots;
}

bool rp_batchread_uring(const struct rp_batchread *br)
{
#ifdef HAVE_LIBURING
	return br->ring_ok;
#else
	(void)br;
	return false;
#endif
}

void rp_batchread_run(struct rp_batchread *br, size_t n, const int *dirfds,
		      const char *const *names, long *lens)
{
	size_t i;

	if (n > br->nslots)
		abort();	/* (the caller's bug) */
#ifdef HAVE_LIBURING
	if (br->ring_ok && ring_run(br, n, dirfds, names, lens))
		return;
#endif
	for (i = 0; i < n; i++)
		lens[i] = read_plain(br, i, dirfds[i], names[i]);
}

char *rp_batchread_text(struct rp_batchread *br, size_t i)
{
	return br->slots[i].buf;
}
