/* SPDX-License-Identifier: MIT */
/* test-inputs.c: the input set (measure/opens.h): which open flags read,
 * each file once by inode (a hard link, a second open), its size at the
 * open, and what is no input (a new file, a directory, a FIFO, a device,
 * /proc); unknown and partial figures. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "measure/opens.h"
#include "tap.h"

static void flags(void)
{
	ok(inputs_flags_read(O_RDONLY), "O_RDONLY reads");
	ok(inputs_flags_read(O_RDWR | O_CLOEXEC), "O_RDWR reads");
	ok(!inputs_flags_read(O_WRONLY), "O_WRONLY does not");
	ok(!inputs_flags_read(O_RDWR | O_TRUNC), "O_TRUNC leaves nothing to read");
	ok(!inputs_flags_read(O_PATH), "O_PATH reads no data");
	ok(!inputs_flags_read(O_ACCMODE), "access mode 3 is no read");
}

static void open_one(struct tp_inputs *in, const char *where, uint64_t fl)
{
	struct tp_open_call c;

	memset(&c, 0, sizeof(c));
	snprintf(c.path, sizeof(c.path), "%s", where);
	snprintf(c.where, sizeof(c.where), "%s", where);
	c.flags = fl;
	c.flags_known = true;
	inputs_open(in, &c);
}

static void mkfile(const char *path, size_t size)
{
	FILE *f = fopen(path, "w");
	size_t i;

	for (i = 0; f && i < size; i++)
		fputc('x', f);
	if (!f || fclose(f) != 0)
		exit(99);
}

static void files(const char *dir)
{
	char a[512], b[512], hard[512], fifo[512], fresh[512];
	struct tp_inputs *in = inputs_new();
	struct tp_input_figures fig;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(hard, sizeof(hard), "%s/hard", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(fresh, sizeof(fresh), "%s/fresh", dir);
	mkfile(a, 1000);
	mkfile(b, 24);
	if (link(a, hard) < 0 || mkfifo(fifo, 0600) < 0)
		exit(99);
	open_one(in, a, O_RDONLY);
	open_one(in, hard, O_RDONLY);
	open_one(in, a, O_RDWR);
	open_one(in, b, O_WRONLY);
	open_one(in, fresh, O_RDONLY | O_CREAT);
	open_one(in, dir, O_RDONLY | O_DIRECTORY);
	open_one(in, fifo, O_RDONLY | O_NONBLOCK);
	open_one(in, "/dev/null", O_RDONLY);
	open_one(in, "/proc/self/status", O_RDONLY);
	inputs_figures(in, "unused", &fig);
	ok(fig.known && !fig.partial && !fig.reason, "known, exact, no reason");
	is_int((long long)fig.files, 1, "a once: its link, a reopen, the rest no input");
	is_int((long long)fig.bytes, 1000, "a's 1000 bytes");
	mkfile(b, 2000);	/* b grows before its first read */
	open_one(in, b, O_RDONLY);
	mkfile(b, 5000);	/* and after it */
	open_one(in, b, O_RDONLY);
	inputs_figures(in, NULL, &fig);
	is_int((long long)fig.bytes, 3000, "b at its first read open: 2000 bytes");
	inputs_missed(in, ESRCH);
	inputs_figures(in, NULL, &fig);
	ok(!fig.partial && fig.known, "a tracee gone: nothing missed");
	inputs_missed(in, EFAULT);
	inputs_figures(in, NULL, &fig);
	ok(fig.partial && fig.known, "an unreadable path: a lower bound");
	inputs_missed(in, EIO);
	inputs_figures(in, NULL, &fig);
	ok(!fig.known && fig.reason, "an unreadable call: unknown, with a reason");
	inputs_free(in);
	inputs_figures(NULL, "no stops", &fig);
	ok(!fig.known && !strcmp(fig.reason, "no stops"), "no set: unknown for the reason given");
	unlink(a);
	unlink(b);
	unlink(hard);
	unlink(fifo);
}

int main(void)
{
	char dir[] = "/tmp/test-inputs.XXXXXX";

	plan(14);
	flags();
	if (!mkdtemp(dir))
		return 99;
	files(dir);
	rmdir(dir);
	return done();
}
