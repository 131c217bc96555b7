/* SPDX-License-Identifier: MIT */
/* proc.h: /proc parsers (pure: text in, struct out, no I/O) and readers.
 * Parsers return 0 on success and -1 on malformed or truncated text. */
#ifndef TPMON_PROC_H
#define TPMON_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* From /proc/PID/stat (proc(5) field numbers in proc.c). */
struct proc_stat {
	pid_t pid;
	char comm[64];
	char state;
	pid_t ppid;
	unsigned flags;			/* PF_*; PROC_PF_EXITING while it exits */
	uint64_t utime, stime;		/* clock ticks, whole thread group */
	long num_threads;
	uint64_t starttime;		/* clock ticks after boot */
	uint64_t vsize;			/* bytes */
	uint64_t rss;			/* pages */
};

/* The kernel's PF_EXITING: set as a process starts to exit, before its
 * memory is released. */
#define PROC_PF_EXITING 0x4u

/* From /proc/PID/task/TID/schedstat. */
struct proc_schedstat {
	uint64_t run_ns;		/* time on CPU */
	uint64_t wait_ns;		/* time runnable, waiting */
	uint64_t timeslices;		/* times scheduled in */
};

/* From /proc/PID/io (or task/TID/io). */
struct proc_io {
	uint64_t rchar, wchar, syscr, syscw, read_bytes, write_bytes;
	uint64_t cancelled_write_bytes;
};

/* From /proc/PID/smaps_rollup, in kB; -1 = field absent. */
struct proc_rollup {
	int64_t rss_kb, pss_kb, swap_kb;
};

int proc_stat_parse(const char *buf, struct proc_stat *st);
int proc_schedstat_parse(const char *buf, struct proc_schedstat *ss);
int proc_io_parse(const char *buf, struct proc_io *io);
void proc_io_add(struct proc_io *sum, const struct proc_io *a);
int proc_rollup_parse(const char *buf, struct proc_rollup *r);
int proc_loadavg_parse(const char *buf, double *load1);
/* Tgid and PPid from /proc/PID/status text. */
int proc_status_ids_parse(const char *buf, pid_t *tgid, pid_t *ppid);

/* Readers.  proc_init() opens /proc once; paths are relative to it
 * ("123/stat").  They return bytes read (NUL-terminated in @buf) or -1
 * with errno set; ENOENT/ESRCH mean the process is gone. */
int proc_init(void);
ssize_t proc_read(const char *path, char *buf, size_t len);
ssize_t proc_pread(int fd, char *buf, size_t len);
/* /proc/PID/statm's size and resident (the first two fields), in pages.
 * 0 or -1. */
int proc_statm_parse(const char *buf, uint64_t *size, uint64_t *resident);
int proc_open(const char *path);
bool proc_exists(const char *path);	/* O_RDONLY|O_CLOEXEC fd, or -1 */

int proc_read_stat(pid_t pid, struct proc_stat *st);
int proc_read_thread_schedstat(pid_t pid, pid_t tid, struct proc_schedstat *ss);
int proc_read_thread_io(pid_t pid, pid_t tid, struct proc_io *io);
/* Process-wide: live and exited threads, and every child it reaped. */
int proc_read_io(pid_t pid, struct proc_io *io);
/* One process of /proc, as proc_list() finds it. */
struct proc_entry {
	pid_t pid, ppid;
	uint64_t starttime;		/* clock ticks after boot */
};
/* Every process in /proc whose stat could be read, in a malloc'd array
 * (*out, NULL when none) that the caller frees; returns how many. */
size_t proc_list(struct proc_entry **out);
/* The tids in /proc/PID/task, in a malloc'd array that the caller frees;
 * returns how many (0, and *tids NULL, when none could be read). */
size_t proc_list_tasks(pid_t pid, pid_t **tids);
int proc_read_rollup(pid_t pid, struct proc_rollup *r);
int proc_read_status_ids(pid_t tid, pid_t *tgid, pid_t *ppid);
/* The pid that traces @pid (0: none), or -1 when it cannot be read. */
pid_t proc_read_tracer(pid_t pid);
int proc_read_loadavg(double *load1);
int proc_read_cmdline(pid_t pid, char *buf, size_t len);	/* args joined by ' ' */

/* The inode in a descriptor's link text @link, "socket:[INODE]" (pure);
 * 0 when it is not a socket's. */
uint64_t proc_socket_link_parse(const char *link);
/* The inodes of the sockets among the descriptors of /proc/@pid/fd
 * (@pid "self": tpmon's own), appended to *@v of *@n items and *@cap
 * room, grown as needed (the caller frees it).  Returns how many were
 * found, -1 if the directory is unreadable (the process is gone). */
long proc_read_socket_inodes(const char *pid, uint64_t **v, size_t *n, size_t *cap);
/* The inode of the socket that descriptor @fd of @pid is, 0 if unknown. */
uint64_t proc_read_fd_socket(pid_t pid, int fd);
int proc_read_exe(pid_t pid, char *buf, size_t len);	/* the /proc/PID/exe link */

long proc_page_size(void);
long proc_clock_ticks(void);

#endif
