/* SPDX-License-Identifier: MIT */
/* test-outfile.c: src/basic/outfile.c on a private directory.  Links at the
 * final name are replaced, never written through; the umask applies and
 * an existing narrower mode is kept; a streamed file that hits the
 * file-size limit (RLIMIT_FSIZE: a short write, like a full disk) keeps
 * whole records only and resumes when there is room; a file with a tail
 * (the trace's "]") ends with it after every append, failed ones
 * included when there is room for it; a failed atomic write leaves
 * nothing behind; templates are checked; as root, what uid 65534 plants
 * in a sticky directory is refused as protected_symlinks and
 * protected_regular=2 would (issue 41), one's own or the directory
 * owner's is not, and nothing in a plain directory is. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/outfile.h"
#include "tap.h"

static char dir[] = "/tmp/test-outfile.XXXXXX";

static char *at(const char *name)
{
	static char buf[4][4096];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static char *slurp(const char *path)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

static int mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 ? (int)(st.st_mode & 0777) : -1;
}

/* Entries of the directory whose name starts with @prefix. */
static int count_prefix(const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

static void test_links(void)
{
	struct stat st;

	put(at("victim"), "precious");
	ok(symlink(at("victim"), at("a.summary")) == 0, "setup: a symbolic link at a.summary");
	ok(outfile_write(at("a.summary"), "new\n", 4) == 0, "write over a symbolic link");
	is_str(slurp(at("victim")), "precious", "the link's target is untouched");
	ok(lstat(at("a.summary"), &st) == 0 && S_ISREG(st.st_mode), "the name is a regular file now");
	is_str(slurp(at("a.summary")), "new\n", "holding the data");
	ok(link(at("victim"), at("b.summary")) == 0, "setup: a hard link at b.summary");
	ok(outfile_write(at("b.summary"), "x", 1) == 0 && !strcmp(slurp(at("victim")), "precious"),
	   "a hard link at the name: its other name is untouched");
	is_int(count_prefix("a.summary.tmp") + count_prefix("b.summary.tmp"), 0,
	       "no temporary file is left");
}

static void test_modes(void)
{
	umask(077);
	outfile_write(at("m1"), "x", 1);
	is_int(mode_of(at("m1")), 0600, "umask 077: 0600");
	umask(022);
	outfile_write(at("m2"), "x", 1);
	is_int(mode_of(at("m2")), 0644, "umask 022: 0644");
	chmod(at("m2"), 0640);
	outfile_write(at("m2"), "y", 1);
	is_int(mode_of(at("m2")), 0640, "an existing 0640 file is not widened");
	outfile_write(at("m1"), "y", 1);
	is_int(mode_of(at("m1")), 0600, "nor an existing 0600 one");
}

static void test_stream_short_write(void)
{
	struct rlimit old, lim;
	struct tp_outfile *f;
	char rec[300];
	struct stat st;
	int i;

	memset(rec, 'r', sizeof(rec) - 1);
	rec[sizeof(rec) - 1] = '\n';
	ok(symlink(at("victim"), at("s.series")) == 0, "setup: a symbolic link at s.series");
	f = outfile_open(at("s.series"));
	ok(f != NULL, "a streamed file is created over a link");
	is_str(slurp(at("victim")), "precious", "without touching the link's target");
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 1000;	/* room for 3 records and a third of one */
	setrlimit(RLIMIT_FSIZE, &lim);
	for (i = 0; i < 5; i++)
		outfile_append(f, rec, sizeof(rec));
	ok(stat(at("s.series"), &st) == 0 && st.st_size == 900,
	   "a short write is cut back: 3 whole records (900 bytes)");
	is_int((long long)outfile_lost(f), 2, "2 records lost, counted");
	setrlimit(RLIMIT_FSIZE, &old);
	ok(outfile_append(f, rec, sizeof(rec)) == 0, "with room again, records are written");
	ok(stat(at("s.series"), &st) == 0 && st.st_size == 1200, "right after the last whole one");
	/* the task replaces the file by a link: the data is put back */
	unlink(at("s.series"));
	ok(symlink(at("victim"), at("s.series")) == 0, "setup: the task's link at s.series");
	ok(outfile_close(f) < 0, "close reports the lost records");
	ok(stat(at("s.series"), &st) == 0 && st.st_size == 1200 && !strcmp(slurp(at("victim")), "precious"),
	   "a file replaced by a link during the run is put back in full at close");
}

static void set_fsize(rlim_t bytes)
{
	struct rlimit lim;

	getrlimit(RLIMIT_FSIZE, &lim);
	lim.rlim_cur = bytes;
	setrlimit(RLIMIT_FSIZE, &lim);
}

static void test_tail(void)
{
	struct rlimit old;
	struct tp_outfile *f = outfile_open(at("t.json"));

	if (!f) {
		diag("outfile_open: %s", strerror(errno));
		return;
	}
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	outfile_set_tail(f, "\n]\n");
	outfile_append(f, "[1", 2);
	outfile_append(f, ",2", 2);
	is_str(slurp(at("t.json")), "[1,2\n]\n", "every append ends with the tail, which the next replaces");
	set_fsize(10);		/* "[1,2,3" and the tail fit, ",4" does not */
	outfile_append(f, ",3", 2);
	ok(outfile_append(f, ",4", 2) < 0, "a record and tail that do not fit fail");
	is_str(slurp(at("t.json")), "[1,2,3\n]\n", "the tail is put back after the last whole record");
	set_fsize(7);		/* only the tail's first byte fits */
	outfile_append(f, ",5", 2);
	is_str(slurp(at("t.json")), "[1,2,3\n", "with room for part of the tail only, a prefix of it");
	setrlimit(RLIMIT_FSIZE, &old);
	outfile_append(f, ",6", 2);
	is_str(slurp(at("t.json")), "[1,2,3,6\n]\n", "with room again, the next record and the tail");
	is_int((long long)outfile_lost(f), 2, "2 appends lost");
	outfile_close(f);
}

static void test_failed_write(void)
{
	struct rlimit old, lim;
	char big[4096];

	memset(big, 'b', sizeof(big));
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 100;
	setrlimit(RLIMIT_FSIZE, &lim);
	put(at("f.summary"), "old");
	ok(outfile_write(at("f.summary"), big, sizeof(big)) < 0 && errno == EFBIG,
	   "an atomic write that does not fit fails with its errno");
	setrlimit(RLIMIT_FSIZE, &old);
	is_str(slurp(at("f.summary")), "old", "the old file is kept whole");
	is_int(count_prefix("f.summary.tmp"), 0, "and no temporary file is left");
}

static void test_templates(void)
{
	char longname[300];

	ok(outfile_check_template("") < 0, "an empty template is refused");
	ok(outfile_check_template("/") < 0, "\"/\" is refused");
	ok(outfile_check_template(at("")) < 0, "a template ending in / is refused");
	ok(outfile_check_template(dir) < 0, "a directory is refused");
	ok(outfile_check_template(at("no/such")) < 0, "a missing directory is refused");
	memset(longname, 'n', 229);
	longname[229] = '\0';
	ok(outfile_check_template(at(longname)) == 0, "a 229-character name is accepted");
	longname[229] = 'n';
	longname[230] = '\0';
	ok(outfile_check_template(at(longname)) < 0, "a 230-character name is refused");
}

#define PLANTED_POINTS 10

/* How many entries the directory @path holds, . and .. left out. */
static int entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* outfile_planted() of @name: 0, or -1 with EPERM and a reason naming
 * @rule (NULL: 0 expected) */
static void planted_is(const char *name, const char *rule, const char *what)
{
	int r;

	errno = 0;
	r = outfile_planted(at(name));
	if (!rule)
		ok(r == 0, "%s: allowed", what);
	else
		ok(r == -1 && errno == EPERM && strstr(outfile_strerror(errno), rule),
		   "%s: refused, %s", what, outfile_strerror(errno));
}

static void test_planted(void)
{
	int i;

	if (geteuid() != 0) {
		for (i = 0; i < PLANTED_POINTS; i++)
			ok(1, "# SKIP not root: no file of another user can be made");
		return;
	}
	put(at("pvictim"), "precious");
	ok(mkdir(at("s"), 0700) == 0 && chmod(at("s"), 01777) == 0 &&
	   symlink(at("pvictim"), at("s/link")) == 0 && lchown(at("s/link"), 65534, 65534) == 0 &&
	   (put(at("s/file"), "theirs"), chown(at("s/file"), 65534, 65534)) == 0 &&
	   mkfifo(at("s/fifo"), 0666) == 0 && chown(at("s/fifo"), 65534, 65534) == 0,
	   "setup: a link, a file and a FIFO of uid 65534 in a 1777 directory");
	planted_is("s/link", "protected_symlinks", "another user's link");
	planted_is("s/file", "protected_regular", "another user's file");
	planted_is("s/fifo", "protected_fifos", "another user's FIFO");
	ok(outfile_write(at("s/file"), "new", 3) == -1 && !strcmp(slurp(at("s/file")), "theirs") &&
	   outfile_write_named(at("s/link"), "new", 3) == -1 && !strcmp(slurp(at("pvictim")), "precious") &&
	   entries(at("s")) == 3, "outfile_write() and outfile_write_named() refuse them, writing nothing");
	put(at("s/mine"), "mine");
	planted_is("s/mine", NULL, "one's own file there");
	chmod(at("s"), 01770);
	planted_is("s/file", "protected_regular", "a sticky directory the group may write");
	chmod(at("s"), 0777);
	planted_is("s/link", NULL, "a directory without the sticky bit");
	chmod(at("s"), 01777);
	ok(chown(at("s"), 65534, 65534) == 0, "setup: the directory given to uid 65534");
	planted_is("s/file", NULL, "a file of the directory's owner");
}

int main(void)
{
	plan(38 + PLANTED_POINTS);
	if (!mkdtemp(dir)) {
		diag("mkdtemp: %s", strerror(errno));
		return 99;
	}
	test_links();
	test_modes();
	test_stream_short_write();
	test_tail();
	test_failed_write();
	test_templates();
	test_planted();
	if (fork() == 0) {
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
		_exit(1);
	}
	return done();
}
