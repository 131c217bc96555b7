/* SPDX-License-Identifier: MIT */
/* fuzz-drm.c: libFuzzer harness for the GPU text parsers: DRM fdinfo
 * (drm_fdinfo_parse(), then the sums of a client seen twice in two
 * samples), KFD's vram_GPUID and the dmem controller's dmem.current.
 * Whatever a driver puts there: no crash, no read past the text, names
 * always terminated, and no figure below zero. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup/dmem.h"
#include "measure/drmfdinfo.h"
#include "measure/kfd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Both halves of the input as two samples of one client. */
static void sums(const char *a, size_t na, const char *b, size_t nb)
{
	const char *text[2] = { a, b };
	size_t len[2] = { na, nb };
	struct tp_drm *d = drm_new(false);
	struct tp_drm_client c;
	struct tp_gpu_figures f;
	int i;

	for (i = 0; i < 2; i++) {
		drm_begin(d);
		if (drm_fdinfo_parse(text[i], len[i], &c)) {
			if (!memchr(c.driver, '\0', sizeof(c.driver)) ||
			    !memchr(c.pdev, '\0', sizeof(c.pdev)))
				abort();
			drm_add(d, &c);
			drm_add(d, &c);
		}
		drm_end(d, 1.0 + i);
	}
	if (drm_figures(d, &f) && (f.memory_mb < 0 || f.cores < 0 || f.gpu_seconds < 0))
		abort();
	drm_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	uint64_t v;

	sums(s, size / 2, s + size / 2, size - size / 2);
	kfd_parse_bytes(s, size, &v);
	dmem_parse_current(s, size, &v);
	return 0;
}
