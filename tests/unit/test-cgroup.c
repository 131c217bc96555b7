/* SPDX-License-Identifier: MIT */
/* test-cgroup.c: unit tests of cgroup.c and cgroup_v1.c: the parsers of
 * the cgroup v2 and v1 interface files on real and hostile text, and the
 * readers on a plain directory that holds files of the same names (no
 * cgroup is touched). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "cgroup/cgroup_v1.h"
#include "tap.h"

static void test_self(void)
{
	char out[64];

	ok(cgroup_parse_self("0::/user.slice/a.scope\n", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/user.slice/a.scope"), "pure v2: the 0:: line");
	/* a hybrid machine: v1 lines first, the unified one last */
	ok(cgroup_parse_self("12:pids:/\n4:memory:/x\n1:name=systemd:/\n0::/\n", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/"), "hybrid: the 0:: line among v1 lines");
	ok(cgroup_parse_self("4:memory:/x\n1:cpu:/\n", out, sizeof(out)) < 0, "pure v1: none");
	ok(cgroup_parse_self("0::relative\n", out, sizeof(out)) < 0, "not absolute: refused");
	ok(cgroup_parse_self("0::\n", out, sizeof(out)) < 0, "empty path: refused");
	ok(cgroup_parse_self("0::/a/very/long/path/that/does/not/fit/in/sixty/four/bytes/at/all/x\n",
			     out, sizeof(out)) < 0, "too long for the buffer: refused");
	ok(cgroup_parse_self("", out, sizeof(out)) < 0, "empty file: none");
	ok(cgroup_parse_self("0::/no-newline", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/no-newline"), "last line without a newline");
}

static void test_mount(void)
{
	char out[128];
	const char *hybrid =
		"25 30 0:23 / /sys rw,nosuid - sysfs sysfs rw\n"
		"31 25 0:27 / /sys/fs/cgroup ro,nosuid shared:9 - tmpfs tmpfs ro,mode=755\n"
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:10 - cgroup2 cgroup2 rw\n"
		"42 31 0:39 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
	const char *pure = "35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";
	const char *bind = "35 24 0:30 /sub /mnt/cg rw - cgroup2 cgroup2 rw\n";
	const char *escaped = "35 24 0:30 / /mnt/my\\040cg rw - cgroup2 none rw\n";
	const char *fake = "35 24 0:30 / /mnt/x rw - ext4 /dev/cgroup2 rw\n"
			   "36 24 0:31 / /mnt/y rw - cgroup2x none rw\n";

	ok(cgroup_parse_mount(hybrid, out, sizeof(out)) == 0 &&
	   !strcmp(out, "/sys/fs/cgroup/unified"), "hybrid: the unified mount");
	ok(cgroup_parse_mount(pure, out, sizeof(out)) == 0 && !strcmp(out, "/sys/fs/cgroup"),
	   "pure v2 (optional fields before the dash)");
	ok(cgroup_parse_mount(bind, out, sizeof(out)) < 0, "a bind of a sub-cgroup is not the root");
	ok(cgroup_parse_mount(escaped, out, sizeof(out)) == 0 && !strcmp(out, "/mnt/my cg"),
	   "octal escapes undone");
	ok(cgroup_parse_mount(fake, out, sizeof(out)) < 0, "only the type field counts");
	ok(cgroup_parse_mount("garbage\n\n - \n", out, sizeof(out)) < 0, "garbage: none");
	ok(cgroup_parse_mount(pure, out, 8) < 0, "too long for the buffer: refused");
}

static void test_controllers(void)
{
	is_int(cgroup_parse_controllers("cpuset cpu io memory hugetlb pids rdma misc\n"),
	       TP_CG_CPU | TP_CG_IO | TP_CG_MEMORY | TP_CG_PIDS, "a full list");
	is_int(cgroup_parse_controllers("hugetlb\n"), 0, "hybrid root: none of ours");
	is_int(cgroup_parse_controllers(""), 0, "empty");
	is_int(cgroup_parse_controllers("cpuset memoryx pid  memory\n"), TP_CG_MEMORY,
	       "prefixes and suffixes are other names");
}

static void test_keyed(void)
{
	const char *stat = "usage_usec 1234567\nuser_usec 1000000\nsystem_usec 234567\n"
			   "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n";
	const char *events = "low 0\nhigh 0\nmax 17\noom 2\noom_kill 1\noom_group_kill 1\n";
	uint64_t v = 99;

	ok(cgroup_parse_key(stat, "usage_usec", &v) == 0 && v == 1234567, "cpu.stat usage_usec");
	ok(cgroup_parse_key(stat, "system_usec", &v) == 0 && v == 234567, "cpu.stat system_usec");
	ok(cgroup_parse_key(events, "oom_kill", &v) == 0 && v == 1, "oom_kill, not oom");
	ok(cgroup_parse_key(events, "oom", &v) == 0 && v == 2, "oom, not oom_kill");
	ok(cgroup_parse_key(events, "max", &v) == 0 && v == 17, "max");
	ok(cgroup_parse_key("oom_kill 1\n", "oom_group_kill", &v) < 0, "absent (before 5.17)");
	ok(cgroup_parse_key("populated 1x\n", "populated", &v) < 0, "trailing junk refused");
	ok(cgroup_parse_key("populated -1\n", "populated", &v) < 0, "negative refused");
	ok(cgroup_parse_key("populated 99999999999999999999999\n", "populated", &v) < 0,
	   "overflow refused");
	ok(cgroup_parse_key("populated\n", "populated", &v) < 0, "no value refused");
	ok(cgroup_parse_key("populated 18446744073709551615", "populated", &v) == 0 &&
	   v == UINT64_MAX, "the largest u64, no newline");
}

static void test_value(void)
{
	uint64_t v = 0;

	ok(cgroup_parse_value("max\n", &v) == 0 && v == TP_CG_MAX, "max");
	ok(cgroup_parse_value("209715200\n", &v) == 0 && v == 209715200, "a number");
	ok(cgroup_parse_value("maximum\n", &v) < 0, "maximum is not max");
	ok(cgroup_parse_value("", &v) < 0, "empty refused");
	ok(cgroup_parse_value("12 34\n", &v) == 0 && v == 12, "first word of a pair (pids.events style)");
}

static void test_io(void)
{
	uint64_t r = 1, w = 1;

	ok(cgroup_parse_io("8:16 rbytes=1459200 wbytes=314773504 rios=192 wios=353 dbytes=0 dios=0\n"
			   "8:0 rbytes=90430464 wbytes=299008000 rios=8950 wios=1252 dbytes=50331648 dios=3021\n",
			   &r, &w) == 0 && r == 1459200 + 90430464ull && w == 314773504 + 299008000ull,
	   "two devices summed");
	ok(cgroup_parse_io("", &r, &w) == 0 && r == 0 && w == 0, "empty: 0 bytes");
	ok(cgroup_parse_io("8:0 rios=1 wios=2\n", &r, &w) == 0 && r == 0 && w == 0,
	   "no byte keys: 0");
	ok(cgroup_parse_io("8:0 rbytes=x wbytes=1\n", &r, &w) < 0, "bad number refused");
	ok(cgroup_parse_io("8:0 rbytes=18446744073709551615\n8:1 rbytes=1\n", &r, &w) < 0,
	   "overflowing sum refused");
	ok(cgroup_parse_io("8:0 xrbytes=5 wbytes=7\n", &r, &w) == 0 && r == 0 && w == 7,
	   "only whole keys count");
}

/* PSI files, as kernels write them (6.18's /sys/fs/cgroup/unified, and a
 * 5.10 cpu.pressure, which has no full line). */
static void test_pressure(void)
{
	uint64_t some = 1, full = 1;
	bool has_full = true;

	ok(cgroup_parse_pressure("some avg10=94.20 avg60=96.74 avg300=82.30 total=545727535\n"
				 "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
				 &some, &full, &has_full) == 0 &&
	   some == 545727535 && full == 0 && has_full, "cpu.pressure of 6.18: some and full totals");
	ok(cgroup_parse_pressure("some avg10=0.90 avg60=1.22 avg300=1.25 total=24697467\n"
				 "full avg10=0.00 avg60=0.00 avg300=0.00 total=12844267\n",
				 &some, &full, &has_full) == 0 &&
	   some == 24697467 && full == 12844267 && has_full, "io.pressure: full below some");
	ok(cgroup_parse_pressure("some avg10=0.00 avg60=0.00 avg300=0.00 total=42\n",
				 &some, &full, &has_full) == 0 && some == 42 && !has_full,
	   "cpu.pressure of 5.10: no full line, full unknown");
	ok(cgroup_parse_pressure("full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n",
				 &some, &full, &has_full) < 0, "no some line: refused");
	ok(cgroup_parse_pressure("some avg10=0.00 avg60=0.00 avg300=0.00\n",
				 &some, &full, &has_full) < 0, "a some line without total: refused");
	ok(cgroup_parse_pressure("some avg10=0.00 total=12x\n", &some, &full, &has_full) < 0,
	   "a bad number: refused");
	ok(cgroup_parse_pressure("some total=18446744073709551616\n", &some, &full,
				 &has_full) < 0, "an overflowing total: refused");
	ok(cgroup_parse_pressure("", &some, &full, &has_full) < 0, "empty: refused");
	ok(cgroup_parse_pressure("some xtotal=5 total=9", &some, &full, &has_full) == 0 &&
	   some == 9, "only the whole key counts, and the last line may lack its newline");
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* A plain directory with files named as a cgroup's: the readers only. */
static void test_readers(void)
{
	char dir[] = "/tmp/tp-cgroup-unit-XXXXXX", sub[600], subsub[700], buf[64];
	struct tp_cg_figures f;
	pid_t *v = NULL;
	size_t n;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	put(dir, "cpu.stat", "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n");
	put(dir, "memory.peak", "209715200\n");
	put(dir, "memory.current", "1048576\n");
	put(dir, "memory.events", "low 0\nhigh 0\nmax 5\noom 1\noom_kill 1\n");
	put(dir, "pids.current", "3\n");
	put(dir, "cgroup.events", "populated 1\nfrozen 0\n");
	put(dir, "cgroup.procs", "10\n11\n");
	put(dir, "cpu.pressure", "some avg10=1.00 avg60=0.50 avg300=0.10 total=1500000\n");
	put(dir, "io.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=300\n"
	    "full avg10=0.00 avg60=0.00 avg300=0.00 total=200\n");
	cgroup_figures(dir, &f);
	ok((f.known & TP_CGF_CPU) && f.usage_usec == 2500000, "cpu.stat read");
	ok((f.known & TP_CGF_MEM_PEAK) && f.mem_peak == 209715200, "memory.peak read");
	ok((f.known & TP_CGF_MEM_EVENTS) && f.oom_kill == 1 && !(f.known & TP_CGF_GROUP_KILL),
	   "memory.events read; oom_group_kill unknown (a 5.16 kernel)");
	ok((f.known & TP_CGF_PIDS) && !(f.known & TP_CGF_PIDS_PEAK) && !(f.known & TP_CGF_IO),
	   "pids.peak and io.stat missing: unknown, not 0");
	ok(f.psi_known == (1u << TP_PSI_CPU_SOME | 1u << TP_PSI_IO_SOME | 1u << TP_PSI_IO_FULL) &&
	   f.psi[TP_PSI_CPU_SOME] == 1500000 && f.psi[TP_PSI_IO_SOME] == 300 &&
	   f.psi[TP_PSI_IO_FULL] == 200,
	   "pressure read; cpu full and memory.pressure missing: unknown, not 0");
	is_int(cgroup_populated(dir), 1, "populated from cgroup.events");
	snprintf(sub, sizeof(sub), "%s/main", dir);
	snprintf(subsub, sizeof(subsub), "%s/main/inner", dir);
	if (mkdir(sub, 0755) < 0 || mkdir(subsub, 0755) < 0) {
		perror("mkdir");
		exit(1);
	}
	put(sub, "cgroup.procs", "12\n");
	put(subsub, "cgroup.procs", "13\n14\n");
	n = cgroup_members(dir, &v);
	ok(n == 5 && v[0] == 10 && v[4] == 14, "members: the cgroup and those below (%zu)", n);
	free(v);
	/* writes go to existing files only: no file is created */
	ok(cgroup_write_u64(dir, "memory.max", 1) < 0, "a missing interface file is not created");
	ok(cgroup_write_u64(dir, "pids.current", TP_CG_MAX) == 0 &&
	   cgroup_read(dir, "pids.current", buf, sizeof(buf)) == 3 && !strcmp(buf, "max"),
	   "TP_CG_MAX written as max");
	ok(cgroup_enable(dir, TP_CG_MEMORY | TP_CG_PIDS) < 0, "no subtree_control: an error");
	put(dir, "cgroup.subtree_control", "");
	ok(cgroup_enable(dir, TP_CG_MEMORY | TP_CG_PIDS) == 0 &&
	   cgroup_read(dir, "cgroup.subtree_control", buf, sizeof(buf)) > 0 &&
	   !strcmp(buf, "+memory +pids"), "enable writes +memory +pids in one write");
	/* cgroup_remove rmdirs directories only: the files keep it busy */
	ok(cgroup_remove(dir, 10) < 0, "a directory with files is not removed");
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			diag("could not remove %s", dir);
	}
}

/* Empty directories (as cgroups look to rmdir) are removed bottom up. */
static void test_remove(void)
{
	char dir[] = "/tmp/tp-cgroup-unit-XXXXXX", path[600];
	const char *subs[] = { "run", "run/monitor", "run/task", "run/task/main" };
	size_t i;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, subs[i]);
		if (mkdir(path, 0755) < 0) {
			perror(path);
			exit(1);
		}
	}
	snprintf(path, sizeof(path), "%s/run", dir);
	ok(cgroup_remove(path, 10) == 0 && access(path, F_OK) < 0, "a tree removed bottom up");
	ok(cgroup_remove(path, 10) == 0, "removing what is gone is not an error");
	rmdir(dir);
}

/* cgroup v1: which hierarchy holds a controller, mounted where */
static void test_v1_parse(void)
{
	char out[128];
	const char *self = "9:name=systemd:/\n8:pids:/p\n2:cpu,cpuacct:/c/d\n"
			   "4:memory:/process_api/x\n0::/\n";
	const char *mounts =
		"31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
		"34 30 0:31 /sub /mnt/memsub rw - cgroup cgroup rw,memory\n"
		"35 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
		"40 30 0:37 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";

	ok(cgroup_v1_parse_self(self, "memory", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/process_api/x"), "v1: memory's line");
	ok(cgroup_v1_parse_self(self, "cpuacct", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/c/d"), "v1: a controller mounted with another");
	ok(cgroup_v1_parse_self("2:cpuacct:/a\n", "cpu", out, sizeof(out)) < 0,
	   "v1: cpu is not cpuacct");
	ok(cgroup_v1_parse_self(self, "freezer", out, sizeof(out)) < 0 &&
	   cgroup_v1_parse_self("0::/x\n", "memory", out, sizeof(out)) < 0,
	   "v1: none for a controller not listed, nor from the v2 line");
	ok(cgroup_v1_parse_self("4:memory:relative\n", "memory", out, sizeof(out)) < 0 &&
	   cgroup_v1_parse_self("4:memory:/x", "memory", out, 2) < 0,
	   "v1: not absolute, or too long: refused");
	ok(cgroup_parse_mount_of(mounts, "cgroup", "memory", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/sys/fs/cgroup/memory"), "v1 mount: the hierarchy's root, not a bind below");
	ok(cgroup_parse_mount_of(mounts, "cgroup", "cpuacct", out, sizeof(out)) == 0 &&
	   !strcmp(out, "/sys/fs/cgroup/cpu,cpuacct"), "v1 mount: co-mounted controllers");
	ok(cgroup_parse_mount_of(mounts, "cgroup", "pids", out, sizeof(out)) < 0 &&
	   cgroup_parse_mount_of(mounts, "cgroup", "cpuac", out, sizeof(out)) < 0,
	   "v1 mount: none for a controller not mounted or a prefix of one");
}

/* cgroup_v1_figures() on plain directories holding v1 files */
static void test_v1_figures(void)
{
	char dirs[TP_CG1__COUNT][4096];
	char tmpl[] = "/tmp/test-cgroup-v1-XXXXXX";
	struct tp_cg_figures f;
	const char *d = mkdtemp(tmpl);

	memset(dirs, 0, sizeof(dirs));
	if (!d) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(dirs[TP_CG1_MEMORY], sizeof(dirs[0]), "%s", d);
	snprintf(dirs[TP_CG1_CPUACCT], sizeof(dirs[0]), "%s", d);
	put(d, "memory.usage_in_bytes", "4096\n");
	put(d, "memory.max_usage_in_bytes", "104857600\n");
	put(d, "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
	put(d, "memory.failcnt", "17\n");
	put(d, "cpuacct.usage", "3000000000\n");
	put(d, "cpuacct.usage_user", "2000000000\n");
	put(d, "cpuacct.usage_sys", "1000000000\n");
	memset(&f, 0, sizeof(f));
	cgroup_v1_figures(dirs, &f);
	ok(f.mem_peak == 104857600 && f.mem_current == 4096 &&
	   (f.known & (TP_CGF_MEM_PEAK | TP_CGF_MEM_CURRENT)) == (TP_CGF_MEM_PEAK | TP_CGF_MEM_CURRENT),
	   "v1 figures: memory peak and current");
	ok(f.oom_kill == 2 && f.mem_max_events == 17 && (f.known & TP_CGF_MEM_EVENTS),
	   "v1 figures: oom_kill and failcnt");
	ok(f.usage_usec == 3000000 && f.user_usec == 2000000 && f.system_usec == 1000000 &&
	   (f.known & TP_CGF_CPU), "v1 figures: cpuacct in microseconds");
	ok(!(f.known & (TP_CGF_PIDS | TP_CGF_PIDS_PEAK | TP_CGF_IO)),
	   "v1 figures: no pids hierarchy, no peak, no block I/O: unknown");
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
		if (system(cmd) != 0)
			diag("could not remove %s", d);
	}
}

int main(void)
{
	plan(76);
	test_self();
	test_mount();
	test_controllers();
	test_keyed();
	test_value();
	test_io();
	test_pressure();
	test_readers();
	test_remove();
	test_v1_parse();
	test_v1_figures();
	return done();
}
