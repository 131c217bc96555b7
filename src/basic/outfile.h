/* SPDX-License-Identifier: MIT */
/* outfile.h: creating tpmon's output files so that a task cannot turn them
 * against anything else.  Every output is a new file made under an
 * unpredictable temporary name (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0666 so
 * the umask applies) and renamed over its final name: a link planted at
 * either name is replaced or refused, never followed, and an existing
 * output is never widened (its permissions are kept if narrower). */
#ifndef TPMON_OUTFILE_H
#define TPMON_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

/* The longest suffix an output adds to the template (".summary",
 * ".series", ".tpmon.json", ...): outfile_check_template() makes sure the
 * template leaves room for it and for the temporary name. */
#define OUTFILE_SUFFIX_MAX 16
/* What a temporary name adds to the final one (".tmp" + 6 random). */
#define OUTFILE_TMP_EXTRA 10

/* Refuse, before the task runs, a template no output can be made from:
 * empty, ending in '/', naming a directory, in a directory that does not
 * exist or is not writable, or too long for the file system's NAME_MAX
 * with OUTFILE_SUFFIX_MAX and OUTFILE_TMP_EXTRA added.  Returns 0, or -1
 * after printing one message. */
int outfile_check_template(const char *template);

/* Refuse an output name that cannot be replaced (it is a directory), or
 * that outfile_planted() refuses.  0, or -1 after printing one message. */
int outfile_check(const char *path);

/* Issue 41: what another user planted is never written through or
 * replaced, as the kernel's protected_symlinks and protected_regular=2
 * (and protected_fifos=2) rules would have it, whatever the sysctls say.
 * In a sticky directory that others or the group may write, an existing
 * link, regular file or FIFO at @path is used only when it belongs to
 * the user running tpmon (the effective uid) or to the directory's
 * owner; a link allowed so is followed and its target judged the same
 * way.  0, or -1 with errno EPERM and the reason kept for
 * outfile_strerror() (or with another errno when a check itself fails).
 * Every writer in this file checks its final name with it; writers
 * elsewhere (the report's cache, the live directory's files, the debug
 * file) call it before they create or replace anything. */
int outfile_planted(const char *path);
/* The same for the entry @base of the directory open as @dfd (a link is
 * judged as a link, not followed). */
int outfile_planted_at(int dfd, const char *base);
/* Is @dir such a sticky directory, which others (or the group) may
 * write?  A writer that cannot judge each name it opens (gnuplot's "set
 * output") must not write there.  True or false (false when it cannot
 * be read). */
bool outfile_shared_dir(const char *dir);
/* strerror(@err), or, for EPERM just after a refusal by this thread,
 * why: "a link of uid 65534 in a sticky directory others may write
 * (the kernel's protected_symlinks)". */
const char *outfile_strerror(int err);

/* Open the template's directory once: outputs in it are then made
 * relative to this descriptor, so a task that renames the directory or
 * puts a link in its place cannot send them elsewhere.  0 or -1 (errno). */
int outfile_pin_dir(const char *template);
void outfile_unpin_dir(void);
/* The pinned directory's descriptor, or -1 (for a forked process that
 * closes the rest and writes later: tpmon's guard). */
int outfile_pinned_fd(void);

/* Open an output of this user's to read it back (a checkpoint): @path
 * in the pinned directory when it is there, never through a link, a
 * regular file owned by the effective uid and at most @max bytes.  A
 * descriptor, or -1 (errno: ENOENT, ELOOP, EPERM for another's, EFBIG). */
int outfile_open_own(const char *path, off_t max);

/* Write @len bytes as @path in one go (temporary file, rename).  Returns
 * 0, or -1 with errno set and nothing left behind; prints nothing. */
int outfile_write(const char *path, const void *data, size_t len);
/* A device or a pipe by that name (/dev/null, a FIFO someone reads) is
 * written in place, never replaced; a pipe no one reads is replaced, so
 * that a task cannot hold up its own summary with one. */

/* outfile_write() for a path the user named on the command line: a link
 * is followed and written through, as the shell's > does (/dev/stdout,
 * a link to a regular file), never replaced; a device or a pipe is
 * written in place, a pipe once its reader opens it (as the shell's >
 * waits). */
int outfile_write_named(const char *path, const void *data, size_t len);

/* Write all @len bytes of @data to @fd, through short writes and EINTR:
 * 0, or -1 (errno; 0 for a write that took nothing). */
int outfile_write_fd(int fd, const void *data, size_t len);

/* A file written as it grows (the series): created empty under its final
 * name at once, then written through its descriptor, so a link the task
 * puts at that name later changes nothing. */
struct tp_outfile;

/* NULL with errno set (prints nothing). */
struct tp_outfile *outfile_open(const char *path);
/* outfile_open() of TEMPLATE.SUFFIX; NULL after printing why. */
struct tp_outfile *outfile_open_output(const char *template, const char *suffix);
/* Append one record (or several whole ones) with one write().  If it
 * does not all fit, the file is cut back to the last whole record.  The
 * first failure prints one warning (warn_msg(): stderr, or the -o file in
 * cctools mode); later ones are silent.  0 or -1. */
int outfile_append(struct tp_outfile *f, const void *data, size_t len);
/* Make every append end the file with @tail (at most OUTFILE_TAIL_MAX
 * bytes; the trace's "]"), written in the same write() as the record and
 * overwritten by the next one: the file always ends with it, even when
 * tpmon is killed.  After a failed append it is put back after the last
 * whole record if there is room. */
#define OUTFILE_TAIL_MAX 16
void outfile_set_tail(struct tp_outfile *f, const char *tail);
/* Appends that failed so far. */
unsigned long outfile_lost(const struct tp_outfile *f);
/* The errno of the first failed append (0 if none) and the file's name,
 * for the caller's own account of what it lost. */
int outfile_error(const struct tp_outfile *f);
const char *outfile_path(const struct tp_outfile *f);
/* Close and free; 0, or -1 if any record was lost or close failed. */
int outfile_close(struct tp_outfile *f);

/* Space set aside before the task runs, for one output that must be
 * written even if the task fills the disk: a temporary file with @bytes
 * allocated.  NULL (errno) if it cannot be made. */
struct tp_reserve;
struct tp_reserve *outfile_reserve(const char *path, size_t bytes);
/* Like outfile_write(), but if that fails, write into the reserve and
 * rename it into place (the reserve is used up then).  0 or -1 (errno). */
int outfile_write_reserved(const char *path, const void *data, size_t len,
			   struct tp_reserve **r);
/* Remove an unused reserve (NULL is fine). */
void outfile_reserve_free(struct tp_reserve *r);

#endif
