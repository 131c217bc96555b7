/* SPDX-License-Identifier: MIT */
/* infile.h: the one way the report and `tpmon plot` open a file they did
 * not just write (a summary, a series, another tool's records, the
 * picture gnuplot drew): only a regular file (a FIFO would block, a
 * device never end), without becoming a terminal's controlling process,
 * and read whole only up to a bound.  Each failure comes back as a reason
 * for the caller's one warning line.  (batchread.h reads many summaries
 * at a time the same way, through io_uring where it can.) */
#ifndef TPMON_REPORT_INFILE_H
#define TPMON_REPORT_INFILE_H

#include <stdio.h>
#include <sys/types.h>

/* The largest picture read back (a gnuplot drawing: the timeline of many
 * tasks is an SVG of about 200 bytes a task). */
#define RP_PICTURE_MAX (256 << 20)

/* Open @path for reading if it is a regular file; its size in *@size.
 * The descriptor (close-on-exec, O_NONBLOCK), or -1 with the reason in
 * @why ("a FIFO, not a file", strerror()). */
int rp_infile_open(const char *path, off_t *size, char *why, size_t whylen);

/* The same as a stream, for reading line by line (the caller bounds the
 * lines).  NULL with the reason in @why. */
FILE *rp_infile_stream(const char *path, char *why, size_t whylen);

/* The whole of @path in a new NUL-terminated buffer (owned by the caller;
 * length in *@len) when it is a regular file of at most @max bytes; NULL
 * with the reason in @why: not a regular file, larger than @max ("N
 * bytes, more than WHAT can be (M MB)", @what naming the kind of file), or
 * a read error. */
char *rp_infile_slurp(const char *path, size_t max, const char *what, size_t *len,
		      char *why, size_t whylen);

/* rp_infile_slurp() of @name relative to the open directory @dirfd
 * (AT_FDCWD: the working directory): no walk of the whole path again for
 * each file of a directory. */
char *rp_infile_slurpat(int dirfd, const char *name, size_t max, const char *what,
			size_t *len, char *why, size_t whylen);

/* For a reader of many files that checks what it reads, and reads again
 * through rp_infile_slurp() what it declines: @name relative to @dirfd
 * read into *@buf (of *@cap bytes, grown as needed, owned by the caller),
 * NUL-terminated, without fstat().  So a file that is not regular is not
 * told apart here: opened O_NONBLOCK, a FIFO or a device does not block
 * and gives at most @max + 1 bytes; and a short read is taken for the
 * end of the file (where it is not, the text read is cut short, and the
 * caller declines it).  The length; RP_INFILE_LARGER: more than @max
 * bytes; or -1: not opened, or a read error. */
#define RP_INFILE_LARGER (-2L)
long rp_infile_quickat(int dirfd, const char *name, size_t max, char **buf, size_t *cap);

#endif
