/* SPDX-License-Identifier: MIT */
/* kfd.c: ROCm compute's VRAM per process through KFD's sysfs (kfd.h).
 * The kernel makes /sys/class/kfd/kfd/proc/PID for a process that opened
 * /dev/kfd, with vram_GPUID (bytes, "%llu\n") for each GPU it uses, next
 * to per-queue and eviction files that are left alone. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "measure/kfd.h"

bool kfd_parse_bytes(const char *buf, size_t len, uint64_t *bytes)
{
	uint64_t n = 0;
	size_t i;

	if (len < 2 || buf[len - 1] != '\n')
		return false;
	for (i = 0; i + 1 < len; i++) {
		if (buf[i] < '0' || buf[i] > '9' || n > (UINT64_MAX - 9) / 10)
			return false;
		n = n * 10 + (uint64_t)(buf[i] - '0');
	}
	*bytes = n;
	return true;
}

/* The bytes in file @name of directory @dfd; false when unreadable. */
static bool read_bytes(int dfd, const char *name, uint64_t *bytes)
{
	char buf[32];
	ssize_t n;
	int f = openat(dfd, name, O_RDONLY | O_CLOEXEC);

	if (f < 0)
		return false;
	n = read(f, buf, sizeof(buf));
	close(f);
	return n > 0 && kfd_parse_bytes(buf, (size_t)n, bytes);
}

/* GPU @gpuid's @bytes of process @pid as a client, into @c. */
static void vram_client(struct tp_drm_client *c, pid_t pid, const char *gpuid, uint64_t bytes)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->driver, "amdgpu");
	snprintf(c->pdev, sizeof(c->pdev), "%s", gpuid);
	c->client_id = (uint64_t)pid;
	c->kfd = true;
	c->nregions = 1;
	strcpy(c->region[0].name, "vram");
	c->region[0].resident = bytes;
	c->region[0].has_resident = true;
}

unsigned kfd_read_pid(int kfdfd, pid_t pid, struct tp_drm_client *out, unsigned max)
{
	char path[32];
	struct dirent *e;
	unsigned n = 0;
	uint64_t bytes;
	DIR *dir;
	int dfd;

	snprintf(path, sizeof(path), "%d", (int)pid);
	dfd = openat(kfdfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	if (!(dir = fdopendir(dfd))) {
		close(dfd);
		return 0;
	}
	while (n < max && (e = readdir(dir))) {
		const char *id = e->d_name + 5;

		/* vram_GPUID: a gpu_id is a decimal of at most 10 digits */
		if (strncmp(e->d_name, "vram_", 5) || !*id || strlen(id) > 10 ||
		    strspn(id, "0123456789") != strlen(id) || !read_bytes(dfd, e->d_name, &bytes))
			continue;
		vram_client(&out[n++], pid, id, bytes);
	}
	closedir(dir);
	return n;
}
