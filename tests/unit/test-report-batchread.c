/* SPDX-License-Identifier: MIT */
/* test-report-batchread.c: many files read together (files/batchread.c),
 * through io_uring and plainly (TPMON_REPORT_NO_IO_URING), each against
 * the files it made: texts byte for byte at the sizes around a slot's,
 * an empty file, a missing one, a directory, a FIFO with no writer and
 * one whose writer holds it open and writes nothing (it must not block),
 * a file opened by its path relative to a directory, the reader used
 * again and again (its slots reused), and no descriptor of the process's
 * left open.  Where the kernel has io_uring (5.6, not disabled), the
 * reader must take it.  With too few descriptors for its 64 files (a low
 * RLIMIT_NOFILE), the ring reads what it could open and the rest plainly,
 * all of it; and readers side by side are given slots within the limit. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "report/files/batchread.h"
#include "tap.h"

#define SIZES 9
static const long sizes[SIZES] = {
	0, 1, 2500, RP_BATCHREAD_BYTES - 3, RP_BATCHREAD_BYTES - 2, RP_BATCHREAD_BYTES - 1,
	RP_BATCHREAD_BYTES, RP_BATCHREAD_BYTES + 1, 3 * RP_BATCHREAD_BYTES,
};

static char dir[64];
static int dirfd_;

/* File @name of @len bytes, its bytes from @seed */
static void make_file(const char *name, long len, unsigned seed)
{
	char path[256];
	FILE *f;
	long i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		abort();
	for (i = 0; i < len; i++)
		fputc('a' + (int)((seed * 31 + (unsigned)i * 7) % 26), f);
	fclose(f);
}

static bool text_is(const char *text, long len, unsigned seed)
{
	long i;

	for (i = 0; i < len; i++)
		if (text[i] != 'a' + (int)((seed * 31 + (unsigned)i * 7) % 26))
			return false;
	return text[len] == '\0';
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Whether this kernel offers what the reader needs of io_uring */
static bool kernel_has_uring(void)
{
	struct utsname u;
	int major = 0, minor = 0;
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	int disabled = 0;

	if (f) {
		if (fscanf(f, "%d", &disabled) != 1)
			disabled = 1;
		fclose(f);
	}
	if (uname(&u) != 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return false;
	return disabled == 0 && (major > 5 || (major == 5 && minor >= 6));
}

/* One reader, @runs times over the same 64 slots: the SIZES files, a
 * missing one, the directory, the two FIFOs and a file by its path from
 * the working directory, the rest of the slots the 2500-byte file again */
static void reads(const char *how, int runs)
{
	struct rp_batchread *br = rp_batchread_new(RP_BATCHREAD_SLOTS);
	char names[RP_BATCHREAD_SLOTS][64], abs_path[128];
	const char *np[RP_BATCHREAD_SLOTS];
	int dfd[RP_BATCHREAD_SLOTS], fds0 = open_fds(), r, i;
	long lens[RP_BATCHREAD_SLOTS];
	bool texts = true, larger = true, bad = true, fifo = true, rest = true, rel = true;

	snprintf(abs_path, sizeof(abs_path), "%s/f2", dir);
	for (i = 0; i < RP_BATCHREAD_SLOTS; i++) {
		dfd[i] = dirfd_;
		if (i < SIZES)
			snprintf(names[i], sizeof(names[i]), "f%d", i);
		else if (i == SIZES)
			snprintf(names[i], sizeof(names[i]), "missing");
		else if (i == SIZES + 1)
			snprintf(names[i], sizeof(names[i]), ".");
		else if (i == SIZES + 2)
			snprintf(names[i], sizeof(names[i]), "fifo-alone");
		else if (i == SIZES + 3)
			snprintf(names[i], sizeof(names[i]), "fifo-held");
		else
			snprintf(names[i], sizeof(names[i]), "f2");
		np[i] = names[i];
	}
	np[SIZES + 4] = abs_path;
	dfd[SIZES + 4] = AT_FDCWD;
	for (r = 0; r < runs; r++) {
		for (i = 0; i < RP_BATCHREAD_SLOTS; i++)
			lens[i] = -99;
		alarm(20);	/* (a read that blocks fails the test) */
		rp_batchread_run(br, RP_BATCHREAD_SLOTS, dfd, np, lens);
		alarm(0);
		for (i = 0; i < SIZES; i++) {
			if (sizes[i] < RP_BATCHREAD_BYTES - 1)
				texts = texts && lens[i] == sizes[i] &&
					text_is(rp_batchread_text(br, (size_t)i), sizes[i], (unsigned)i);
			else
				larger = larger && lens[i] == RP_BATCHREAD_LARGER;
		}
		bad = bad && lens[SIZES] == -1 && lens[SIZES + 1] == -1;
		/* (a FIFO gives no text: nothing, or EAGAIN) */
		fifo = fifo && lens[SIZES + 2] <= 0 && lens[SIZES + 3] <= 0 &&
		       lens[SIZES + 2] != RP_BATCHREAD_LARGER && lens[SIZES + 3] != RP_BATCHREAD_LARGER;
		rel = rel && lens[SIZES + 4] == 2500 &&
		      text_is(rp_batchread_text(br, SIZES + 4), 2500, 2);
		for (i = SIZES + 5; i < RP_BATCHREAD_SLOTS; i++)
			rest = rest && lens[i] == 2500 &&
			       text_is(rp_batchread_text(br, (size_t)i), 2500, 2);
		/* a shorter run after a full one: the slots beyond it untouched */
		rp_batchread_run(br, 3, dfd, np, lens);
		texts = texts && lens[0] == 0 && lens[1] == 1 && lens[2] == 2500 &&
			text_is(rp_batchread_text(br, 2), 2500, 2);
	}
	ok(texts, "%s: files below a slot's size read byte for byte, %d runs", how, runs);
	ok(larger, "%s: files of a slot's size less one and more: larger", how);
	ok(bad, "%s: a missing file and a directory: not read", how);
	ok(fifo, "%s: FIFOs with and without a writer: no text, and no wait", how);
	ok(rel, "%s: a path from the working directory", how);
	ok(rest, "%s: the same file in the other slots", how);
	ok(open_fds() == fds0, "%s: no descriptor of the process's left open (%d, %d)", how,
	   open_fds(), fds0);
	rp_batchread_free(br);
}

/* RLIMIT_NOFILE at 20 more than are open: the ring opens some of its
 * 64 files, and is refused the rest (EMFILE); each is read all the same.
 * And the slots for readers side by side: within the limit. */
static void few_descriptors(void)
{
	struct rlimit was, low;
	struct rp_batchread *br;
	const char *np[RP_BATCHREAD_SLOTS];
	int dfd[RP_BATCHREAD_SLOTS], i;
	long lens[RP_BATCHREAD_SLOTS];
	bool all = true;

	for (i = 0; i < RP_BATCHREAD_SLOTS; i++) {
		dfd[i] = dirfd_;
		np[i] = "f2";
	}
	getrlimit(RLIMIT_NOFILE, &was);
	low = was;
	low.rlim_cur = (rlim_t)open_fds() + 20;
	br = rp_batchread_new(RP_BATCHREAD_SLOTS);
	if (setrlimit(RLIMIT_NOFILE, &low) != 0)
		abort();
	rp_batchread_run(br, RP_BATCHREAD_SLOTS, dfd, np, lens);
	for (i = 0; i < RP_BATCHREAD_SLOTS; i++)
		all = all && lens[i] == 2500 && text_is(rp_batchread_text(br, (size_t)i), 2500, 2);
	ok(all, "%s: 64 files with descriptors for 20: all read", rp_batchread_uring(br) ?
	   "io_uring" : "plain");
	low.rlim_cur = 1024;
	setrlimit(RLIMIT_NOFILE, &low);
	ok(rp_batchread_slots_for(2) == RP_BATCHREAD_SLOTS && rp_batchread_slots_for(14) == 64 &&
	   rp_batchread_slots_for(16) == 56 && rp_batchread_slots_for(64) == 14,
	   "RLIMIT_NOFILE 1024: 64 slots for 2 and 14 readers, 56 for 16, 14 for 64");
	low.rlim_cur = 100;
	setrlimit(RLIMIT_NOFILE, &low);
	ok(rp_batchread_slots_for(2) == 1, "RLIMIT_NOFILE 100: one slot");
	setrlimit(RLIMIT_NOFILE, &was);
	ok(rp_batchread_slots(br) == RP_BATCHREAD_SLOTS, "the reader has the slots it was given");
	rp_batchread_free(br);
	br = rp_batchread_new(1);
	ok(!rp_batchread_uring(br) && rp_batchread_slots(br) == 1,
	   "a reader of one file at a time reads plainly");
	rp_batchread_free(br);
}

int main(void)
{
	char path[256];
	struct rp_batchread *br;
	int held_r, held_w, i;

	plan(21);
	snprintf(dir, sizeof(dir), "/tmp/tpmon-batchread.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	for (i = 0; i < SIZES; i++) {
		char name[16];

		snprintf(name, sizeof(name), "f%d", i);
		make_file(name, sizes[i], (unsigned)i);
	}
	snprintf(path, sizeof(path), "%s/fifo-alone", dir);
	mkfifo(path, 0600);
	snprintf(path, sizeof(path), "%s/fifo-held", dir);
	mkfifo(path, 0600);
	/* a writer that holds it open and writes nothing */
	held_r = open(path, O_RDONLY | O_NONBLOCK);
	held_w = open(path, O_WRONLY);
	dirfd_ = open(dir, O_RDONLY | O_DIRECTORY);
	if (held_r < 0 || held_w < 0 || dirfd_ < 0 || chdir("/") != 0)
		return 1;

	br = rp_batchread_new(RP_BATCHREAD_SLOTS);
#ifdef HAVE_LIBURING
	if (kernel_has_uring())
		ok(rp_batchread_uring(br), "a kernel with io_uring: the reader takes it");
	else
		ok(true, "# SKIP a kernel without io_uring, or with it disabled");
#else
	ok(true, "# SKIP built without liburing");
#endif
	reads(rp_batchread_uring(br) ? "io_uring" : "plain", 3);
	rp_batchread_free(br);
	few_descriptors();

	setenv("TPMON_REPORT_NO_IO_URING", "1", 1);
	br = rp_batchread_new(RP_BATCHREAD_SLOTS);
	ok(!rp_batchread_uring(br), "TPMON_REPORT_NO_IO_URING: plain reads");
	rp_batchread_free(br);
	reads("plain", 3);

	close(held_r);
	close(held_w);
	close(dirfd_);
	for (i = 0; i < SIZES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/fifo-alone", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/fifo-held", dir);
	unlink(path);
	rmdir(dir);
	return done();
}
