/* SPDX-License-Identifier: MIT */
/* test-disk.c: which working directories are never one task's own
 * (disk_shared_dir(): not walked by default), on literal paths. */
#include "measure/disk.h"
#include "tap.h"

int main(void)
{
	static const char *const shared[] = {
		"/", "/usr", "/home", "/tmp", "/var", "/etc", "/opt", "/proc", "/proc/1",
		"/sys/fs/cgroup", "/dev/shm",
	};
	static const char *const own[] = {
		"/usr/local/src/job", "/home/alice", "/tmp/sandbox.1", "/var/lib/condor/execute/dir_1",
		"/scratch", "/root", "/usrx", "/procx", "/devices", "", "//",
	};
	size_t i;

	plan((int)(sizeof(shared) / sizeof(shared[0]) + sizeof(own) / sizeof(own[0])));
	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		ok(disk_shared_dir(shared[i]), "%s is shared by the system", shared[i]);
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		ok(!disk_shared_dir(own[i]), "'%s' may be a task's own", own[i]);
	return done();
}
