/* SPDX-License-Identifier: MIT */
/* batchread.h: many small files read whole with few system calls, for a
 * reader of many summaries (readpool.c).  Through io_uring where the
 * kernel has it (5.6; RHEL 8's 4.18 has none, a container's seccomp or
 * io_uring_disabled may refuse it): RP_BATCHREAD_SLOTS files opened in
 * one system call, looked at in another, read and closed in a third.
 * Only a regular file that fits its slot is read so; others are not read
 * (the caller's own path reads them, and says why).  Elsewhere, or
 * without liburing at build time, or with TPMON_REPORT_NO_IO_URING in the
 * environment: openat, read and close one file after the other
 * (rp_infile_quickat(), which does not tell a FIFO or a device apart:
 * opened O_NONBLOCK, neither blocks).  The text is the caller's to
 * check. */
#ifndef TPMON_REPORT_BATCHREAD_H
#define TPMON_REPORT_BATCHREAD_H

#include <stdbool.h>
#include <stddef.h>

/* Files read in one go, and the bytes each is read into */
#define RP_BATCHREAD_SLOTS 64
#define RP_BATCHREAD_BYTES (16 << 10)
/* rp_batchread_run()'s length of a file larger than its slot */
#define RP_BATCHREAD_LARGER (-2L)

/* One thread's reader (not to be shared between threads) */
struct rp_batchread;

/* A reader of at most @slots files at a time (1 to RP_BATCHREAD_SLOTS):
 * io_uring's when it can be had and @slots is 2 or more, else the plain
 * one.  Never NULL.
 * Through the ring each file holds a descriptor until its round ends,
 * so readers side by side are given rp_batchread_slots_for() slots. */
struct rp_batchread *rp_batchread_new(size_t slots);

/* The slots each of @readers readers side by side may have: their
 * descriptors together stay well within the process's RLIMIT_NOFILE
 * (at 1024, up to 14 readers get all RP_BATCHREAD_SLOTS) */
size_t rp_batchread_slots_for(int readers);

/* The slots of @br */
size_t rp_batchread_slots(const struct rp_batchread *br);
void rp_batchread_free(struct rp_batchread *br);

/* Whether @br reads through io_uring (for the tests) */
bool rp_batchread_uring(const struct rp_batchread *br);

/* Read the @n (at most rp_batchread_slots()) files @names[i], each relative
 * to @dirfds[i] (AT_FDCWD: the working directory), into slot i.
 * @lens[i]: the length read; RP_BATCHREAD_LARGER when the file has
 * RP_BATCHREAD_BYTES - 1 bytes or more (its caller reads it another
 * way); -1 when it could not be opened or read, or (through io_uring)
 * is not a regular file.  A short read is taken for the end of the
 * file.  (A file the ring could not open for want of descriptors,
 * EMFILE or ENFILE, is read again plainly once the others are closed.) */
void rp_batchread_run(struct rp_batchread *br, size_t n, const int *dirfds,
		      const char *const *names, long *lens);

/* Slot @i's text of the last run, NUL-terminated (valid when its length
 * was not negative, until the next run; the caller may write into it) */
char *rp_batchread_text(struct rp_batchread *br, size_t i);

#endif
