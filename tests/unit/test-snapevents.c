/* SPDX-License-Identifier: MIT */
/* test-snapevents.c: the --snapshot-events configuration parser on hostile
 * input, and the event semantics of snapevents_poll() on files in a private
 * directory (created, appended, truncated, deleted at known moments). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "measure/snapevents.h"

static bool parses(const char *text)
{
	char err[512] = "";
	struct tp_snapevents *w = snapevents_parse(text, err, sizeof(err));
	bool r = w != NULL;

	if (!w && !err[0])
		diag("no message for a refused configuration: %s", text);
	if (!w && strpbrk(err, "\n\r\t"))
		diag("a message of more than one line: %s", err);
	snapevents_free(w);
	return r && err[0] == '\0';
}

/* A refusal's message is one line, whatever bytes the input holds. */
static void test_one_line(void)
{
	static const char *const bad[] = {
		"{\"\\\n\xde\xc5\xdb\xd6}\n",	/* fuzz-watch: newline near the error */
		"{\"a\\nb\": 1}",			/* an escaped newline in a file name */
		"{\"a\\tb\\u007f\": {\"events\": [1]}}",	/* a tab and a DEL in one */
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[512] = "";
		struct tp_snapevents *w = snapevents_parse(bad[i], err, sizeof(err));
		size_t k;
		bool printable = err[0] != '\0';

		for (k = 0; err[k]; k++)
			if ((unsigned char)err[k] < 0x20 || err[k] == 0x7f)
				printable = false;
		ok(!w && printable, "refused with a one-line message: case %zu (%s)", i, err);
		snapevents_free(w);
	}
}

static void test_parse(void)
{
	static const char *const bad[] = {
		"", "[]", "{}", "null", "{\"f\": 1}", "{\"f\": {}}",
		"{\"f\": {\"events\": []}}", "{\"f\": {\"events\": {}}}",
		"{\"f\": {\"events\": [1]}}",
		"{\"f\": {\"events\": [{\"on-create\": true}]}}",
		"{\"f\": {\"events\": [{\"label\": \"\", \"on-create\": true}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a b\", \"on-create\": true}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a(1)\", \"on-create\": true}]}}",
		"{\"f\": {\"events\": [{\"label\": 3, \"on-create\": true}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\"}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-create\": false}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-create\": true, \"on-delete\": true}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-create\": 1}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-pattern\": 1}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-pattern\": \"(\"}]}}",
		/* regcomp() would copy these past any memory (fuzz-snapevents) */
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-pattern\": \"^A++++++++++++++++++++++L\"}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-pattern\": \"((a{100}){200})\"}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-create\": true, \"count\": 1.5}]}}",
		"{\"f\": {\"from-start\": \"yes\", \"events\": [{\"label\": \"a\", \"on-create\": true}]}}",
		"{\"\": {\"events\": [{\"label\": \"a\", \"on-create\": true}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-create\": true}]}, \"f\": {}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-create\": true}, {\"label\": \"b\"}]}}",
		"{\"f\": {\"events\": [{\"label\": \"a\", \"on-create\": true}]}, \"g\": 0}",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(!parses(bad[i]), "refused: %s", bad[i]);
	ok(parses("{\"f\": {\"events\": [{\"label\": \"ip\", \"on-pattern\": "
		  "\"[0-9]{1,3}[.][0-9]{1,3}[.][0-9]{1,3}[.][0-9]+\"}]}}"),
	   "an ordinary pattern with intervals and a '+' compiles");
	ok(parses("{\"f\": {\"events\": [{\"label\": \"a-B_9\", \"on-create\": true, \"count\": 2},"
		  " {\"label\": \"p\", \"on-pattern\": \"^x.*$\"}]},"
		  " \"g\": {\"delete-if-found\": true, \"from-start\": true,"
		  " \"events\": [{\"label\": \"t\", \"on-truncate\": true}, {\"label\": \"d\", \"on-delete\": true}]}}"),
	   "a configuration with every option");
	ok(parses("{\"f\": {\"events\": [{\"label\": \"a\", \"pattern\": \"x\"}]}}"),
	   "\"pattern\" is taken for \"on-pattern\"");
}

static void append(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		perror(path);
	if (fd >= 0)
		close(fd);
}

/* snapevents_poll()'s label, "" for none. */
static const char *poll_label(struct tp_snapevents *w)
{
	static char buf[256];
	char *l = snapevents_poll(w);

	snprintf(buf, sizeof(buf), "%s", l ? l : "");
	free(l);
	return buf;
}

static struct tp_snapevents *start(const char *text)
{
	char err[512];
	struct tp_snapevents *w = snapevents_parse(text, err, sizeof(err));

	if (!w) {
		diag("%s", err);
		exit(1);
	}
	snapevents_start(w);
	return w;
}

static void test_poll(void)
{
	struct tp_snapevents *w;

	append("pre", "x old\n");
	w = start("{\"log\": {\"events\": [{\"label\": \"c\", \"on-create\": true},"
		  " {\"label\": \"x\", \"on-pattern\": \"^x\", \"count\": 3},"
		  " {\"label\": \"t\", \"on-truncate\": true}, {\"label\": \"d\", \"on-delete\": true}]},"
		  " \"pre\": {\"events\": [{\"label\": \"p\", \"on-pattern\": \"^x\"}]},"
		  " \"mark\": {\"delete-if-found\": true, \"events\": [{\"label\": \"m\", \"on-create\": true, \"count\": 2}]}}");
	is_str(poll_label(w), "", "nothing happened: no label");
	append("log", "x1\n");
	is_str(poll_label(w), "c(1),x(1)", "created with a matching line: both, in the order given");
	append("log", "y\nx2\nx3\nx4\n");
	is_str(poll_label(w), "x(2)", "3 more matching lines, count 3: only 2 count");
	append("log", "x5 partial");
	is_str(poll_label(w), "", "count reached: no more x");
	append("pre", "x new, no newline yet");
	is_str(poll_label(w), "", "a line without its newline is not matched yet");
	append("pre", "\n");
	is_str(poll_label(w), "p(1)", "matched once complete; the line before the start was skipped");
	if (truncate("log", 2) < 0)
		perror("truncate");
	is_str(poll_label(w), "t(1)", "truncated");
	unlink("log");
	is_str(poll_label(w), "d(1)", "deleted");
	append("log", "z\n");
	is_str(poll_label(w), "c(1)", "created again");
	append("mark", "");
	is_str(poll_label(w), "m(1)", "mark created");
	ok(access("mark", F_OK) != 0, "and deleted (delete-if-found)");
	append("mark", "");
	is_str(poll_label(w), "m(1)", "mark created again");
	append("mark", "");
	is_str(poll_label(w), "", "a third time: count 2 reached");
	ok(access("mark", F_OK) == 0, "and the file is left alone");
	snapevents_free(w);

	/* from-start: the lines already there count */
	w = start("{\"pre\": {\"from-start\": true, \"events\": [{\"label\": \"p\", \"on-pattern\": \"^x\"}]}}");
	is_str(poll_label(w), "p(2)", "from-start: lines written before the start count");
	snapevents_free(w);
}

int main(void)
{
	char dir[] = "/tmp/test-watch.XXXXXX";

	plan(49);
	test_parse();
	test_one_line();
	if (!mkdtemp(dir) || chdir(dir) < 0) {
		perror("mkdtemp");
		return 1;
	}
	test_poll();
	unlink("pre");
	unlink("log");
	unlink("mark");
	if (chdir("/") == 0)
		rmdir(dir);
	return done();
}
