/* SPDX-License-Identifier: MIT */
/* dmem.c: the run's cgroup's device memory through the dmem controller
 * (dmem.h). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cgroup/dmem.h"

/* "NAME BYTES" in [@s, @lim): its bytes; false when not a drm/ region. */
static bool region_line(const char *s, const char *lim, uint64_t *v)
{
	const char *sp = memchr(s, ' ', (size_t)(lim - s)), *p;
	uint64_t n = 0;

	if (!sp || lim - s < 5 || memcmp(s, "drm/", 4) || sp + 1 >= lim)
		return false;
	for (p = sp + 1; p < lim; p++) {
		if (*p < '0' || *p > '9' || n > (UINT64_MAX - 9) / 10)
			return false;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	*v = n;
	return true;
}

bool dmem_parse_current(const char *buf, size_t len, uint64_t *bytes)
{
	const char *p = buf, *lim = buf + len, *nl;
	uint64_t sum = 0, v;
	bool any = false;

	while (p < lim && (nl = memchr(p, '\n', (size_t)(lim - p)))) {
		if (region_line(p, nl, &v)) {
			sum += v;
			any = true;
		}
		p = nl + 1;
	}
	*bytes = sum;
	return any;
}

void dmem_sample(struct tp_dmem *m, const char *dir)
{
	char path[4096], buf[8192];
	uint64_t bytes;
	ssize_t n;
	int fd;

	if (!dir || m->state < 0)
		return;
	snprintf(path, sizeof(path), "%s/dmem.current", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (m->state == 0)
			m->state = -1;	/* no controller here: never again */
		return;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	/* an empty file: the controller, no region charged yet */
	if (n < 0)
		return;
	m->state = 1;
	bytes = 0;
	if (n > 0)
		dmem_parse_current(buf, (size_t)n, &bytes);
	m->mb = (double)bytes / 1048576.0;
	if (m->mb > m->peak_mb)
		m->peak_mb = m->mb;
}

bool dmem_known(const struct tp_dmem *m)
{
	return m->state > 0;
}
