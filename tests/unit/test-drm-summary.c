/* SPDX-License-Identifier: MIT */
/* test-drm-summary.c: GPU figures from DRM fdinfo through the run's
 * path to the summary, with no DRM driver at hand: two samples of
 * clients in the format of amdgpu's fdinfo go through drm_add(), the
 * figures (figures_gpu(), figures_fill()) and the summary writer, and the
 * file read back holds the exact sums, the source, the device with its
 * engine time and memory regions, and the DRM figures named as lower
 * bounds. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/options.h"
#include "measure/figures.h"
#include "output/summary.h"
#include "tap.h"

static const char sample1[] =
	"drm-driver:\tamdgpu\ndrm-client-id:\t15\ndrm-pdev:\t0000:03:00.0\n"
	"drm-resident-vram:\t2048 KiB\ndrm-total-vram:\t4096 KiB\ndrm-resident-gtt:\t1024 KiB\n"
	"drm-engine-gfx:\t500000000 ns\ndrm-engine-compute:\t0 ns\n";
static const char sample2[] =
	"drm-driver:\tamdgpu\ndrm-client-id:\t15\ndrm-pdev:\t0000:03:00.0\n"
	"drm-resident-vram:\t1024 KiB\ndrm-resident-gtt:\t0 KiB\n"
	"drm-engine-gfx:\t750000000 ns\ndrm-engine-compute:\t0 ns\n";

/* FIELD of @root as [value, "unit"]: the value, -1e300 when not so. */
static double value_of(json_t *root, const char *field, const char *unit)
{
	json_t *v = json_object_get(root, field);
	const char *u;

	if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)))
		return -1e300;
	u = json_string_value(json_array_get(v, 1));
	return u && !strcmp(u, unit) ? json_number_value(json_array_get(v, 0)) : -1e300;
}

/* Sample at @t: client @text, seen through two descriptors. */
static void sample(struct tp_drm *d, struct tp_figures *f, const char *text, double t)
{
	struct tp_drm_client c;
	struct tp_gpu_figures g;

	drm_fdinfo_parse(text, strlen(text), &c);
	drm_begin(d);
	drm_add(d, &c);
	drm_add(d, &c);
	drm_end(d, t);
	if (drm_figures(d, &g))
		figures_gpu(f, &g, t);
}

static bool lower_has(json_t *root, const char *name)
{
	json_t *a = json_object_get(root, "lower_bounds");
	size_t i;

	for (i = 0; i < json_array_size(a); i++)
		if (!strcmp(json_string_value(json_array_get(a, i)), name))
			return true;
	return false;
}

int main(void)
{
	char dir[] = "/tmp/test-drm-summary.XXXXXX", tmpl[64], path[80];
	static char a0[] = "tpmon", a1[] = "-O", a3[] = "--", a4[] = "true";
	char *argv[] = { a0, a1, tmpl, a3, a4, NULL };
	struct tp_drm *d = drm_new(false);
	struct tp_gpu_figures g;
	struct tp_options o;
	struct tp_figures f;
	struct tp_summary rep;
	struct tp_fill in;
	json_t *root, *dev;
	json_error_t err;

	plan(18);
	if (!mkdtemp(dir))
		return 99;
	snprintf(tmpl, sizeof(tmpl), "%s/run", dir);
	snprintf(path, sizeof(path), "%s/run.summary", dir);
	memset(&o, 0, sizeof(o));
	is_int(options_parse(&o, 5, argv), 0, "options parsed");
	figures_init(&f, &rep, 2, false);
	rep.start = 1000;
	/* at 1 s: 0.5 s of gfx, 3 MB; at 2 s: 0.25 s more, 1 MB */
	sample(d, &f, sample1, 1.0);
	sample(d, &f, sample2, 2.0);
	memset(&in, 0, sizeof(in));
	in.total_processes = 1;
	in.max_live = 1;
	in.tracking = TP_TRACK_PTRACE;
	in.tracking_name = "ptrace";
	ok(drm_figures(d, &g), "the DRM figures are known");
	in.gpu = &g;
	in.drm = d;
	figures_fill(&f, &in, 2.0, true);
	figures_exit(&f, true, 0);
	is_int(summary_write(&o, &rep), 0, "summary_write() wrote TEMPLATE.summary");
	root = json_load_file(path, 0, &err);
	ok(json_is_object(root), "the summary is a JSON object (%s)", root ? "" : err.text);
	is_double(value_of(root, "gpus", "gpus"), 1, 0, "gpus [1, \"gpus\"]");
	is_double(value_of(root, "gpu_memory", "MB"), 3, 1e-9, "gpu_memory: the peak, 3 MB");
	is_double(value_of(root, "gpu_cores", "gpus"), 0.5, 1e-9, "gpu_cores: the peak, 0.5");
	is_double(value_of(root, "gpu_time", "s"), 0.75, 1e-9, "gpu_time: 0.5 + 0.25 s");
	is_double(value_of(root, "gpu_cores_avg", "gpus"), 0.375, 1e-9,
		  "gpu_cores_avg: 0.75 s over 2 s");
	is_str(json_string_value(json_object_get(root, "gpu_source")), "drm-fdinfo", "gpu_source");
	dev = json_array_get(json_object_get(root, "gpu_devices"), 0);
	ok(json_array_size(json_object_get(root, "gpu_devices")) == 1 &&
	   !strcmp(json_string_value(json_object_get(dev, "pdev")), "0000:03:00.0") &&
	   !strcmp(json_string_value(json_object_get(dev, "driver")), "amdgpu") &&
	   !strcmp(json_string_value(json_object_get(dev, "source")), "drm-fdinfo"),
	   "gpu_devices: one, 0000:03:00.0, amdgpu, drm-fdinfo");
	is_double(value_of(dev, "memory", "MB"), 3, 1e-9, "the device's peak memory 3 MB");
	is_double(value_of(json_object_get(dev, "engines"), "gfx", "s"), 0.75, 1e-9,
		  "the device's gfx engine busy 0.75 s");
	is_double(value_of(json_object_get(json_object_get(dev, "regions"), "vram"), "resident", "MB"),
		  2, 1e-9, "region vram: resident peak 2 MB");
	is_double(value_of(json_object_get(json_object_get(dev, "regions"), "vram"), "total", "MB"),
		  4, 1e-9, "region vram: total peak 4 MB");
	ok(json_is_null(json_object_get(json_object_get(json_object_get(dev, "regions"), "gtt"), "total")) &&
	   value_of(json_object_get(json_object_get(dev, "regions"), "gtt"), "resident", "MB") == 1,
	   "region gtt: resident peak 1 MB, total null (the driver gave none)");
	ok(lower_has(root, "gpus") && lower_has(root, "gpu_memory") && lower_has(root, "gpu_time"),
	   "the DRM figures are named lower bounds, even under ptrace");
	ok(json_is_null(json_object_get(root, "gpu_memory_cgroup")), "no dmem: gpu_memory_cgroup null");
	json_decref(root);
	unlink(path);
	rmdir(dir);
	figures_summary_free(&rep);
	figures_free(&f);
	options_free(&o);
	drm_free(d);
	return done();
}
