/* SPDX-License-Identifier: MIT */
/* test-cghome.c: unit tests of cghome.c's parsers, which find tpmon's own
 * cgroup v1 directories in /proc/self/cgroup and mountinfo text, on real
 * layouts (hybrid, Slurm's, bind mounts of a subtree) and hostile text. */
#include <string.h>

#include "cgroup/cghome.h"
#include "tap.h"

static void test_v1_path(void)
{
	char out[64];
	const char *slurm = "12:pids:/slurm/uid_1000/job_7/step_0/task_0\n"
			    "4:memory:/slurm/uid_1000/job_7/step_0/task_0\n"
			    "3:cpu,cpuacct:/slurm/uid_1000/job_7/step_0/task_0\n"
			    "1:name=systemd:/user.slice\n0::/user.slice\n";

	ok(cghome_parse_v1_path(slurm, "memory", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/slurm/uid_1000/job_7/step_0/task_0"), "memory: Slurm's task cgroup");
	ok(cghome_parse_v1_path(slurm, "cpuacct", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/slurm/uid_1000/job_7/step_0/task_0"), "cpuacct within cpu,cpuacct");
	ok(cghome_parse_v1_path(slurm, "cpu", out, sizeof(out)) == 0, "cpu within cpu,cpuacct");
	ok(cghome_parse_v1_path(slurm, "acct", out, sizeof(out)) < 0, "no partial names");
	ok(cghome_parse_v1_path(slurm, "systemd", out, sizeof(out)) < 0, "name=systemd is not systemd");
	ok(cghome_parse_v1_path("0::/a\n", "memory", out, sizeof(out)) < 0, "pure v2: none");
	ok(cghome_parse_v1_path("4:memory:relative\n", "memory", out, sizeof(out)) < 0,
	   "not absolute: refused");
	ok(cghome_parse_v1_path("4:memory:/a/path/that/is/far/too/long/for/a/buffer/of/sixty/four/bytes/at/all\n",
				"memory", out, sizeof(out)) < 0, "too long: refused");
	ok(cghome_parse_v1_path("4:memory", "memory", out, sizeof(out)) < 0, "one colon: none");
	ok(cghome_parse_v1_path("4:memory:/x", "memory", out, sizeof(out)) == 0 && !strcmp(out, "/x"),
	   "no final newline");
}

static void test_v1_dir(void)
{
	char out[128];
	const char *hybrid =
		"31 25 0:27 / /sys/fs/cgroup ro,nosuid shared:9 - tmpfs tmpfs ro,mode=755\n"
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:10 - cgroup2 cgroup2 rw\n"
		"42 31 0:39 / /sys/fs/cgroup/memory rw shared:11 - cgroup cgroup rw,memory\n"
		"43 31 0:40 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n";
	/* a test's own child bind-mounted for Slurm: its root is a subtree */
	const char *bound =
		"90 31 0:39 /t/x /tmp/cg/memory rw - cgroup cgroup rw,memory\n"
		"42 31 0:39 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";

	ok(cghome_parse_v1_dir(hybrid, "memory", "/slurm/t", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/sys/fs/cgroup/memory/slurm/t"), "memory: mount point and path");
	ok(cghome_parse_v1_dir(hybrid, "cpuacct", "/a", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/sys/fs/cgroup/cpu,cpuacct/a"), "cpuacct in a joint mount");
	ok(cghome_parse_v1_dir(hybrid, "memory", "/", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/sys/fs/cgroup/memory"), "the root cgroup");
	ok(cghome_parse_v1_dir(hybrid, "pids", "/a", out, sizeof(out)) < 0, "no pids mount: none");
	ok(cghome_parse_v1_dir(bound, "memory", "/t/x/slurm/a", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/tmp/cg/memory/slurm/a"), "a mount of a subtree holds the path");
	ok(cghome_parse_v1_dir(bound, "memory", "/t/xy", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/sys/fs/cgroup/memory/t/xy"), "a sibling of the subtree: the whole mount");
	ok(cghome_parse_v1_dir("42 31 0:39 / /a\\040b rw - cgroup cgroup rw,memory\n", "memory", "/x",
			       out, sizeof(out)) < 0, "an escaped mount point: refused");
	ok(cghome_parse_v1_dir("42 31 0:39 / /m rw - cgroup cgroup rw,memory\n", "memory",
			       "/a/path/that/is/far/too/long/for/the/buffer/of/one/hundred/and/"
			       "twenty/eight/bytes/at/all/in/any/case/whatever/the/mount/point/is",
			       out, sizeof(out)) < 0,
	   "too long: refused");
	ok(cghome_parse_v1_dir("42 31 0:39 / /m rw\n", "memory", "/x", out, sizeof(out)) < 0,
	   "no separator: none");
	ok(cghome_parse_v1_dir("42 31 - cgroup cgroup rw,memory\n", "memory", "/x", out, sizeof(out)) < 0,
	   "a truncated line: none");
}

int main(void)
{
	plan(20);
	test_v1_path();
	test_v1_dir();
	return done();
}
