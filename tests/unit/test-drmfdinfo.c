/* SPDX-License-Identifier: MIT */
/* test-drmfdinfo.c: the DRM fdinfo reader (src/measure/drmfdinfo.c) on
 * fdinfo text in the format of the kernel's
 * Documentation/gpu/drm-usage-stats.rst, shaped as the drivers' own
 * examples (amdgpu, i915, xe, panfrost): there is no DRM driver that
 * publishes these counters on the machines that run the suite.  The
 * parser on each, hostile text (cut off, unknown keys, no client id),
 * then the sums with exact values: a client open twice counted once, two
 * clients summed, counters going back, a device whose clients vanished,
 * engine capacity and busy cycles, NVIDIA's left to NVML; then the /proc
 * reader on a fake proc directory (a test-only argument: the shipped
 * tpmon always reads /proc) whose descriptors are links to character
 * devices made with mknod (skipped when not root), KFD's per-process
 * VRAM files and a cgroup's dmem.current on fake directories, and the
 * reader's cost on this
 * process with 1,000 descriptors open (shown, not judged). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "measure/drmfdinfo.h"
#include "measure/kfd.h"
#include "cgroup/dmem.h"
#include "tap.h"

/* amdgpu (drivers/gpu/drm/amd/amdgpu/amdgpu_fdinfo.c), 6.x layout */
static const char amdgpu[] =
	"pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t1125\n"
	"drm-driver:\tamdgpu\ndrm-client-id:\t15\ndrm-pdev:\t0000:03:00.0\npasid:\t32772\n"
	"drm-total-cpu:\t0\ndrm-shared-cpu:\t0\ndrm-active-cpu:\t0\ndrm-resident-cpu:\t0\n"
	"drm-purgeable-cpu:\t0\n"
	"drm-total-gtt:\t2392 KiB\ndrm-shared-gtt:\t0\ndrm-active-gtt:\t0\n"
	"drm-resident-gtt:\t2392 KiB\ndrm-purgeable-gtt:\t0\n"
	"drm-total-vram:\t44564 KiB\ndrm-shared-vram:\t31952 KiB\ndrm-active-vram:\t0\n"
	"drm-resident-vram:\t44564 KiB\ndrm-purgeable-vram:\t0\n"
	"amd-evicted-vram:\t0 KiB\namd-requested-vram:\t44564 KiB\n"
	"drm-engine-gfx:\t1404093 ns\ndrm-engine-compute:\t0 ns\ndrm-engine-dma:\t0 ns\n";

/* i915 (Documentation/gpu/i915.rst, i915_drm_client.c) */
static const char i915[] =
	"pos:    0\nflags:  0100002\nmnt_id: 26\nino:    685\n"
	"drm-driver:     i915\ndrm-client-id:  18\ndrm-pdev:       0000:00:02.0\n"
	"drm-total-system0:      6044 KiB\ndrm-shared-system0:     0\n"
	"drm-active-system0:     0\ndrm-resident-system0:   6044 KiB\n"
	"drm-purgeable-system0:  1688 KiB\n"
	"drm-engine-render:      346117639 ns\ndrm-engine-copy:        0 ns\n"
	"drm-engine-video:       0 ns\ndrm-engine-capacity-video:   2\n"
	"drm-engine-video-enhance:       0 ns\n";

/* xe (drivers/gpu/drm/xe/xe_drm_client.c): busy cycles, not ns */
static const char xe[] =
	"drm-driver: xe\ndrm-client-id: 10\ndrm-pdev: 0000:03:00.0\n"
	"drm-total-gtt: 192 KiB\ndrm-shared-gtt: 0\ndrm-active-gtt: 0\n"
	"drm-resident-gtt: 192 KiB\n"
	"drm-total-vram0: 23992 KiB\ndrm-shared-vram0: 16 MiB\ndrm-active-vram0: 0\n"
	"drm-resident-vram0: 23992 KiB\ndrm-purgeable-vram0: 0\n"
	"drm-cycles-rcs: 28257900\ndrm-total-cycles-rcs: 7655183225\n"
	"drm-cycles-vcs: 0\ndrm-total-cycles-vcs: 7655183225\ndrm-engine-capacity-vcs: 2\n";

/* panfrost (Documentation/gpu/panfrost.rst): no drm-pdev, ns and cycles */
static const char panfrost[] =
	"pos:    0\nflags:  02400002\nmnt_id: 27\nino:    531\n"
	"drm-driver:     panfrost\ndrm-client-id:  14\n"
	"drm-engine-fragment:    1846584880 ns\ndrm-cycles-fragment:    1424359409\n"
	"drm-maxfreq-fragment:   799999987 Hz\ndrm-curfreq-fragment:   799999987 Hz\n"
	"drm-total-memory:       290 MiB\ndrm-shared-memory:      0 MiB\n"
	"drm-active-memory:      226 MiB\ndrm-resident-memory:    36496 KiB\n"
	"drm-purgeable-memory:   128 KiB\n";

static bool parse(const char *text, struct tp_drm_client *c)
{
	return drm_fdinfo_parse(text, strlen(text), c);
}

/* The engine or region named @name of @c, or NULL. */
static const struct tp_drm_engine *engine(const struct tp_drm_client *c, const char *name)
{
	unsigned i = 0;

	while (i < c->nengines && strcmp(c->engine[i].name, name))
		i++;
	return i < c->nengines ? &c->engine[i] : NULL;
}

static const struct tp_drm_region *region(const struct tp_drm_client *c, const char *name)
{
	unsigned i = 0;

	while (i < c->nregions && strcmp(c->region[i].name, name))
		i++;
	return i < c->nregions ? &c->region[i] : NULL;
}

static void test_drivers(void)
{
	struct tp_drm_client c;
	const struct tp_drm_engine *e;
	const struct tp_drm_region *r;

	ok(parse(amdgpu, &c), "amdgpu: a client");
	is_str(c.driver, "amdgpu", "amdgpu: drm-driver");
	is_str(c.pdev, "0000:03:00.0", "amdgpu: drm-pdev");
	is_int((long long)c.client_id, 15, "amdgpu: drm-client-id");
	e = engine(&c, "gfx");
	ok(e && e->has_ns && e->busy_ns == 1404093 && e->capacity == 1, "amdgpu: gfx 1404093 ns");
	is_int(c.nengines, 3, "amdgpu: gfx, compute, dma");
	r = region(&c, "vram");
	ok(r && r->resident == 44564 * 1024ull && r->total == 44564 * 1024ull,
	   "amdgpu: vram resident and total 44564 KiB");
	r = region(&c, "gtt");
	ok(r && r->resident == 2392 * 1024ull, "amdgpu: gtt 2392 KiB");
	is_int(c.nregions, 3, "amdgpu: cpu, gtt, vram (amd- keys left out)");

	ok(parse(i915, &c), "i915: a client");
	e = engine(&c, "video");
	ok(e && e->capacity == 2 && e->busy_ns == 0, "i915: video, capacity 2");
	e = engine(&c, "render");
	ok(e && e->busy_ns == 346117639, "i915: render 346117639 ns");
	ok(engine(&c, "video-enhance") != NULL, "i915: an engine name with a dash");
	r = region(&c, "system0");
	ok(r && r->resident == 6044 * 1024ull, "i915: system0 6044 KiB");

	ok(parse(xe, &c), "xe: a client");
	e = engine(&c, "rcs");
	ok(e && !e->has_ns && e->has_cycles && e->cycles == 28257900 &&
	   e->total_cycles == 7655183225ull, "xe: rcs cycles and total cycles");
	e = engine(&c, "vcs");
	ok(e && e->capacity == 2, "xe: vcs capacity 2");
	r = region(&c, "vram0");
	ok(r && r->resident == 23992 * 1024ull, "xe: vram0 23992 KiB");

	ok(parse(panfrost, &c), "panfrost: a client");
	is_str(c.pdev, "", "panfrost: no drm-pdev (a platform device)");
	r = region(&c, "memory");
	ok(r && r->resident == 36496 * 1024ull && r->total == 290ull << 20,
	   "panfrost: resident 36496 KiB, total 290 MiB");
}

static void test_hostile(void)
{
	struct tp_drm_client c;
	const struct tp_drm_engine *e;
	static const char cut[] = "drm-driver: i915\ndrm-client-id: 3\n"
				  "drm-engine-render: 500 ns\ndrm-resident-system0: 12";
	static const char junk[] = "drm-driver: i915\ndrm-client-id: 4\n"
				   "drm-engine-render: lots ns\ndrm-engine-copy: 7\n"
				   "drm-engine-video: 99999999999999999999999 ns\n"
				   "drm-resident-x: 5 TiB\nweird line without colon\n"
				   "drm-engine-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: 1 ns\n"
				   "drm-engine-capacity-render: 0\nxyz-something: 1\n"
				   "drm-engine-<b>\"x: 5 ns\ndrm-engine-a\033[2J: 5 ns\n";

	ok(parse(cut, &c), "cut off: still a client");
	ok(c.nregions == 0, "cut off: the last line, without its newline, is left out");
	e = engine(&c, "render");
	ok(e && e->busy_ns == 500, "cut off: the whole lines before it count");
	ok(parse(junk, &c), "junk values: still a client");
	is_int(c.nengines, 0, "junk: no number, no ns unit, overflow, long name, markup or escapes: no engine");
	is_int(c.nregions, 0, "junk: an unknown unit: no region");
	ok(!parse("drm-driver: amdgpu\ndrm-engine-gfx: 5 ns\n", &c), "no drm-client-id: not a client");
	ok(!parse("drm-client-id: 5\n", &c), "no drm-driver: not a client");
	ok(!parse("pos: 0\nflags: 02\n", &c), "a regular file's fdinfo: not a client");
	ok(!parse("", &c), "empty: not a client");
}

/* A client of @driver at @pdev with id @id, one engine @eng busy @ns and
 * @kib KiB resident in region "vram". */
static struct tp_drm_client client(const char *driver, const char *pdev, unsigned id,
				   const char *eng, uint64_t ns, uint64_t kib)
{
	struct tp_drm_client c;

	memset(&c, 0, sizeof(c));
	snprintf(c.driver, sizeof(c.driver), "%s", driver);
	snprintf(c.pdev, sizeof(c.pdev), "%s", pdev);
	c.client_id = id;
	c.nengines = 1;
	snprintf(c.engine[0].name, sizeof(c.engine[0].name), "%s", eng);
	c.engine[0].busy_ns = ns;
	c.engine[0].has_ns = true;
	c.engine[0].capacity = 1;
	c.nregions = 1;
	strcpy(c.region[0].name, "vram");
	c.region[0].resident = kib * 1024;
	c.region[0].has_resident = true;
	return c;
}

/* A sample at @t that sees client @c alone (none when NULL); the
 * figures after it into @f. */
static void one(struct tp_drm *d, const struct tp_drm_client *c, double t,
		struct tp_gpu_figures *f)
{
	drm_begin(d);
	if (c)
		drm_add(d, c);
	drm_end(d, t);
	drm_figures(d, f);
}

static void test_sums(void)
{
	struct tp_drm *d = drm_new(false);
	struct tp_gpu_figures f;
	struct tp_drm_device_fig dev[4];
	struct tp_drm_client a = client("amdgpu", "0000:03:00.0", 7, "gfx", 250000000, 1024);
	struct tp_drm_client b = client("amdgpu", "0000:03:00.0", 8, "gfx", 250000000, 2048);

	ok(!drm_figures(d, &f), "no client seen: the figures are unknown");
	/* sample 1 at 1 s: client a through two descriptors, and b */
	drm_begin(d);
	drm_add(d, &a);
	drm_add(d, &a);
	drm_add(d, &b);
	drm_end(d, 1.0);
	ok(drm_figures(d, &f), "a client seen: the figures are known");
	is_int(f.devices_used, 1, "one device");
	is_double(f.memory_mb, 3.0, 1e-9, "1 MiB of a (once) + 2 MiB of b = 3 MB");
	is_double(f.cores, 0.5, 1e-9, "0.25 s + 0.25 s of gfx in 1 s: 0.5 GPUs");
	is_double(f.gpu_seconds, 0.5, 1e-9, "0.5 GPU-seconds");
	/* sample 2 at 2 s: a went back (0.1 s), b added 0.5 s */
	a.engine[0].busy_ns = 100000000;
	b.engine[0].busy_ns = 750000000;
	drm_begin(d);
	drm_add(d, &a);
	drm_add(d, &b);
	drm_end(d, 2.0);
	drm_figures(d, &f);
	is_double(f.cores, 0.5, 1e-9, "a went back: nothing from it, 0.5 s from b");
	is_double(f.gpu_seconds, 1.0, 1e-9, "1.0 GPU-seconds, never less");
	/* sample 3 at 3 s: a passed its old 0.25 s again, at 0.35 s; b closed */
	a.engine[0].busy_ns = 350000000;
	a.region[0].resident = 4096 * 1024;
	one(d, &a, 3.0, &f);
	is_double(f.cores, 0.1, 1e-9, "a counts from its largest value (0.25 s): 0.1 s");
	is_double(f.gpu_seconds, 1.1, 1e-9, "b closed: what it had stays");
	is_double(f.memory_mb, 4.0, 1e-9, "b closed: 4 MB of a only");
	is_double(f.peak_memory_mb, 4.0, 1e-9, "peak 4 MB");
	/* sample 4 at 4 s: every client gone (the device vanished) */
	one(d, NULL, 4.0, &f);
	is_double(f.memory_mb, 0, 0, "no client left: 0 MB now");
	is_double(f.cores, 0, 0, "... and 0 GPUs now");
	is_double(f.peak_memory_mb, 4.0, 1e-9, "the peak stays");
	is_double(f.peak_cores, 0.5, 1e-9, "the peak utilization stays");
	is_int(f.devices_used, 1, "the device still counts as used");
	is_int(drm_devices(d, dev, 4), 1, "one device listed");
	is_str(dev[0].driver, "amdgpu", "its driver");
	is_str(dev[0].pdev, "0000:03:00.0", "its PCI address");
	ok(dev[0].nengines == 1 && !strcmp(dev[0].engine[0], "gfx"), "its engine class gfx");
	is_double(dev[0].busy_s[0], 1.1, 1e-9, "gfx busy 1.1 s");
	is_double(dev[0].peak_memory_mb, 4.0, 1e-9, "its peak 4 MB");
	drm_free(d);
}

static void test_devices(void)
{
	struct tp_drm *d = drm_new(true);
	struct tp_gpu_figures f;
	struct tp_drm_client c, x;
	struct tp_drm_client a = client("amdgpu", "0000:03:00.0", 1, "gfx", 0, 1024);
	struct tp_drm_client i = client("i915", "0000:00:02.0", 1, "render", 0, 1024);
	struct tp_drm_client n = client("nvidia-drm", "0000:65:00.0", 1, "gr", 900000000, 8192);

	/* the same id on two devices: two clients */
	drm_begin(d);
	drm_add(d, &a);
	drm_add(d, &i);
	drm_add(d, &n);
	drm_end(d, 1.0);
	drm_figures(d, &f);
	is_int(f.devices_used, 2, "amdgpu and i915: two devices; nvidia-drm left to NVML");
	is_double(f.memory_mb, 2.0, 1e-9, "1 MB on each, nothing of NVIDIA's");
	/* i915's video class, capacity 2: 1 s of it in 1 s is half */
	i.engine[0].busy_ns = 0;
	strcpy(i.engine[0].name, "video");
	i.engine[0].capacity = 2;
	one(d, &i, 2.0, &f);
	i.engine[0].busy_ns = 1000000000;
	one(d, &i, 3.0, &f);
	is_double(f.cores, 0.5, 1e-9, "video capacity 2: 1 s busy in 1 s is 0.5 GPUs");
	drm_free(d);

	/* xe: busy cycles over the clock's cycles, from the second sample */
	d = drm_new(false);
	parse(xe, &c);
	one(d, &c, 1.0, &f);
	is_double(f.cores, 0, 0, "xe: cycles count from the second sample");
	x = c;
	x.engine[0].cycles += 1000;
	x.engine[0].total_cycles += 4000;
	one(d, &x, 3.0, &f);
	is_double(f.cores, 0.25, 1e-9, "xe: 1000 of 4000 cycles: 0.25 GPUs");
	is_double(f.gpu_seconds, 0.5, 1e-9, "xe: 0.25 over 2 s: 0.5 GPU-seconds");
	is_double(f.memory_mb, (192 + 23992) / 1024.0, 1e-9, "xe: gtt + vram0 resident");
	drm_free(d);
}

/* --- the /proc reader, on a fake proc directory ------------------------ */

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Fake process @pid under @root: descriptors 0..@nfd-1 link to @other,
 * but those in @drm (ending at -1) link to @node with fdinfo @text. */
static void fake_proc(const char *root, int pid, int nfd, const int *drm, const char *node,
		      const char *other, const char *text)
{
	char p[512];
	int fd, k;

	snprintf(p, sizeof(p), "%s/%d", root, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%d/fd", root, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%d/fdinfo", root, pid);
	mkdir(p, 0755);
	for (fd = 0; fd < nfd; fd++) {
		bool is = false;

		for (k = 0; drm[k] >= 0; k++)
			is = is || drm[k] == fd;
		snprintf(p, sizeof(p), "%s/%d/fd/%d", root, pid, fd);
		if (symlink(is ? node : other, p) != 0)
			diag("symlink %s: %s", p, strerror(errno));
		snprintf(p, sizeof(p), "%s/%d/fdinfo/%d", root, pid, fd);
		put(p, is ? text : "pos:\t0\nflags:\t02\nmnt_id:\t1\nino:\t1\n");
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_reader(void)
{
	char root[] = "/tmp/tp-drm-XXXXXX", node[600], other[600], procs[600], cmd[700];
	static const int drm1[] = { 3, 5, -1 }, drm2[] = { 4, -1 }, none[] = { -1 };
	static const int many[] = { 10, 200, 400, 600, 800, -1 };
	struct tp_gpu_figures f;
	struct tp_drm *d;
	int procfd, i;

	if (!mkdtemp(root)) {
		ok(false, "mkdtemp");
		return;
	}
	snprintf(node, sizeof(node), "%s/renderD128", root);
	snprintf(other, sizeof(other), "%s/null", root);
	snprintf(procs, sizeof(procs), "%s/proc", root);
	mkdir(procs, 0755);
	if (mknod(node, S_IFCHR | 0600, makedev(TP_DRM_MAJOR, 128)) != 0 ||
	    mknod(other, S_IFCHR | 0600, makedev(1, 3)) != 0) {
		/* 5 tests skipped */
		for (i = 0; i < 5; i++)
			ok(true, "# SKIP mknod: %s (not root?)", strerror(errno));
		goto out;
	}
	/* 100: client 15 through fds 3 and 5; 101 (a fork): fd 4, the same
	 * client; 102: only a /dev/null-like device (1:3) */
	fake_proc(procs, 100, 8, drm1, node, other, amdgpu);
	fake_proc(procs, 101, 6, drm2, node, other, amdgpu);
	fake_proc(procs, 102, 4, none, node, other, amdgpu);
	procfd = open(procs, O_RDONLY | O_DIRECTORY);
	d = drm_new(false);
	drm_begin(d);
	drm_scan_pid(d, procfd, 102);
	drm_end(d, 1.0);
	ok(!drm_figures(d, &f), "only a non-DRM character device: no GPU figures");
	drm_begin(d);
	for (i = 100; i <= 103; i++)	/* 103: gone */
		drm_scan_pid(d, procfd, i);
	drm_end(d, 2.0);
	ok(drm_figures(d, &f) && f.devices_used == 1, "one device through the links");
	is_double(f.memory_mb, (2392 + 44564) / 1024.0, 1e-9,
		  "client 15 through 3 descriptors in 2 processes, counted once");
	is_double(f.gpu_seconds, 1404093e-9, 1e-15, "its gfx time once");
	drm_free(d);
	/* 1,000 descriptors, 5 of them DRM, scanned 20 times */
	fake_proc(procs, 200, 1000, many, node, other, amdgpu);
	d = drm_new(false);
	for (i = 0; i < 20; i++) {
		drm_begin(d);
		drm_scan_pid(d, procfd, 200);
		drm_end(d, 3.0 + i);
	}
	ok(drm_figures(d, &f) && f.devices_used == 1 && f.memory_mb == (2392 + 44564) / 1024.0,
	   "1,000 descriptors, 5 of them one client, 20 scans: one device, its memory once");
	drm_free(d);
	close(procfd);
out:
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		diag("could not remove %s", root);
}

/* KFD (ROCm compute): vram_GPUID files of a fake KFD proc directory,
 * in the layout of /sys/class/kfd/kfd/proc/PID. */
static void test_kfd(void)
{
	char root[] = "/tmp/tp-kfd-XXXXXX", p[600], cmd[700];
	struct tp_drm_client c[4];
	struct tp_drm_device_fig dev[4];
	struct tp_gpu_figures f;
	struct tp_drm *d;
	uint64_t b = 0;
	unsigned i, n;
	int fd;

	ok(kfd_parse_bytes("1048576\n", 8, &b) && b == 1048576, "kfd: 1048576 bytes");
	ok(!kfd_parse_bytes("1048576", 7, &b), "kfd: no newline (cut off): refused");
	ok(!kfd_parse_bytes("-1\n", 3, &b) && !kfd_parse_bytes("\n", 1, &b) &&
	   !kfd_parse_bytes("99999999999999999999999\n", 24, &b), "kfd: sign, empty, overflow refused");
	if (!mkdtemp(root)) {
		ok(false, "mkdtemp");
		return;
	}
	snprintf(p, sizeof(p), "%s/300", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/300/vram_12345", root);
	put(p, "1048576\n");
	snprintf(p, sizeof(p), "%s/300/vram_777", root);
	put(p, "2097152\n");
	snprintf(p, sizeof(p), "%s/300/sdma_12345", root);
	put(p, "99\n");
	snprintf(p, sizeof(p), "%s/300/vram_x1", root);
	put(p, "5\n");
	snprintf(p, sizeof(p), "%s/300/vram_888", root);
	put(p, "lots\n");
	fd = open(root, O_RDONLY | O_DIRECTORY);
	n = kfd_read_pid(fd, 300, c, 4);
	is_int(n, 2, "kfd: two GPUs (sdma_, a gpu_id not a number, a value not a number left out)");
	is_int(kfd_read_pid(fd, 301, c + 2, 2), 0, "kfd: a process without KFD: none");
	d = drm_new(false);
	drm_begin(d);
	for (i = 0; i < n; i++)
		drm_add(d, &c[i]);
	drm_end(d, 1.0);
	ok(drm_figures(d, &f) && f.devices_used == 2, "kfd: two devices");
	is_double(f.memory_mb, 3.0, 1e-9, "kfd: 1 MB + 2 MB of VRAM");
	ok(!f.util_known, "kfd: no engine counters: utilization unknown");
	n = drm_devices(d, dev, 4);
	ok(n == 2 && dev[0].kfd && dev[1].kfd && !strcmp(dev[0].driver, "amdgpu"),
	   "kfd: both listed as amdgpu through KFD");
	ok((!strcmp(dev[0].pdev, "12345") && !strcmp(dev[1].pdev, "777")) ||
	   (!strcmp(dev[0].pdev, "777") && !strcmp(dev[1].pdev, "12345")), "kfd: their gpu_ids");
	drm_free(d);
	close(fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		diag("could not remove %s", root);
}

/* dmem.current (Documentation/admin-guide/cgroup-v2.rst, "DMEM"): the
 * parser, and the reader on a fake cgroup directory with and without
 * the file. */
static void test_dmem(void)
{
	static const char cur[] = "drm/0000:03:00.0/vram0 12550144\n"
				  "drm/0000:04:00.0/vram0 1048576\n"
				  "other/x 999\ndrm/0000:05:00.0/vram0 lots\ndrm/cut 5";
	char root[] = "/tmp/tp-dmem-XXXXXX", p[600], cmd[700];
	struct tp_dmem m;
	uint64_t b;

	ok(dmem_parse_current(cur, strlen(cur), &b) && b == 12550144 + 1048576,
	   "dmem: two drm/ regions summed, other lines left out");
	ok(!dmem_parse_current("", 0, &b) && b == 0, "dmem: empty: no region");
	if (!mkdtemp(root)) {
		ok(false, "mkdtemp");
		return;
	}
	memset(&m, 0, sizeof(m));
	dmem_sample(&m, root);
	ok(!dmem_known(&m), "dmem: no dmem.current (the kernel has no controller): unknown");
	snprintf(p, sizeof(p), "%s/dmem.current", root);
	put(p, cur);
	dmem_sample(&m, root);
	ok(!dmem_known(&m), "dmem: absent at the first look: never looked for again");
	memset(&m, 0, sizeof(m));
	dmem_sample(&m, root);
	put(p, "drm/0000:03:00.0/vram0 1048576\n");
	dmem_sample(&m, root);
	ok(dmem_known(&m) && m.mb == 1.0 && m.peak_mb == (12550144 + 1048576) / 1048576.0,
	   "dmem: now 1 MB, the peak of the reads kept");
	dmem_sample(&m, NULL);
	ok(m.mb == 1.0, "dmem: no cgroup: nothing read");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		diag("could not remove %s", root);
}

/* The cost of one scan of this process's own /proc entry with 1,000
 * descriptors open on /dev/null (none of them DRM): shown, not judged. */
static void bench_self(void)
{
	struct tp_gpu_figures f;
	struct tp_drm *d = drm_new(false);
	int fds[1000], procfd = open("/proc", O_RDONLY | O_DIRECTORY), i, n = 0;
	double t0, t1, t2;

	for (i = 0; i < 1000; i++)
		if ((fds[n] = open("/dev/null", O_RDONLY)) >= 0)
			n++;
	t0 = now_s();
	drm_begin(d);
	drm_scan_pid(d, procfd, getpid());
	drm_end(d, 1.0);
	t1 = now_s();
	for (i = 0; i < 20; i++) {
		drm_begin(d);
		drm_scan_pid(d, procfd, getpid());
		drm_end(d, 2.0 + i);
	}
	t2 = now_s();
	diag("bench: a process with %d descriptors on /dev/null: its first scan %.3f ms, "
	     "the next ones %.3f ms each", n, (t1 - t0) * 1e3, (t2 - t1) / 20 * 1e3);
	ok(!drm_figures(d, &f), "this process, %d descriptors on /dev/null: no GPU figures", n);
	while (n > 0)
		close(fds[--n]);
	close(procfd);
	drm_free(d);
}

int main(void)
{
	plan(83);
	test_drivers();
	test_hostile();
	test_sums();
	test_devices();
	test_reader();
	test_kfd();
	test_dmem();
	bench_self();
	return done();
}
