/* SPDX-License-Identifier: MIT */
/* gpu.c: NVIDIA GPUs through NVML, loaded with dlopen() at run time.  At
 * each sample and for each device: the compute processes and their GPU
 * memory (nvmlDeviceGetComputeRunningProcesses, _v3, _v2 or the first
 * version, whose record is shorter), their SM utilization since the last
 * look (nvmlDeviceGetProcessUtilization), and, when the device keeps
 * accounting records, the lifetime figures of processes that ended
 * (nvmlDeviceGetAccountingStats), so that a GPU process shorter than a
 * sample still counts.  Only the tree's processes are summed.  The NVML
 * types are declared here from NVIDIA's public documentation: no NVML
 * header is needed to build. */
#include <dlfcn.h>
#ifdef TP_STATIC_GLIBC
#include <ctype.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <sys/mman.h>
#include <sys/stat.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/messages.h"
#include "measure/gpu.h"
#include "basic/xmalloc.h"

/* --- NVML, as documented ---------------------------------------------- */

typedef int nvml_ret;
typedef struct nvml_device_st *nvml_device;

enum {
	NVML_SUCCESS = 0,
	NVML_ERROR_NOT_SUPPORTED = 3,
	NVML_ERROR_NO_PERMISSION = 4,
	NVML_ERROR_NOT_FOUND = 6,
	NVML_ERROR_INSUFFICIENT_SIZE = 7,
};

#define NVML_VALUE_NOT_AVAILABLE 0xffffffffffffffffull

/* nvmlProcessInfo_v2_t, also taken by the _v3 call */
struct nvml_proc_v2 {
	unsigned pid;
	unsigned long long used_gpu_memory;	/* bytes */
	unsigned gpu_instance_id, compute_instance_id;
};

/* nvmlProcessInfo_v1_t, taken by the first version of the call */
struct nvml_proc_v1 {
	unsigned pid;
	unsigned long long used_gpu_memory;
};

/* nvmlProcessUtilizationSample_t */
struct nvml_util_sample {
	unsigned pid;
	unsigned long long time_stamp;	/* us since the epoch */
	unsigned sm_util, mem_util, enc_util, dec_util;	/* % */
};

/* nvmlAccountingStats_t (filled by NVML: every member is in its layout) */
struct nvml_acct {
	unsigned gpu_utilization;	/* %, over its life */
	unsigned memory_utilization;	/* cppcheck-suppress unusedStructMember */
	unsigned long long max_memory_usage;	/* bytes */
	unsigned long long time;		/* ms */
	unsigned long long start_time;		/* us since the epoch */
	unsigned is_running;
	unsigned reserved[5];	/* cppcheck-suppress unusedStructMember */
};

struct nvml {
	void *lib;
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	const char *(*error_string)(nvml_ret);
	nvml_ret (*count)(unsigned *);
	nvml_ret (*handle)(unsigned, nvml_device *);
	nvml_ret (*procs)(nvml_device, unsigned *, void *);
	size_t proc_size;		/* size of one record for procs() */
	nvml_ret (*util)(nvml_device, struct nvml_util_sample *, unsigned *, unsigned long long);
	nvml_ret (*acct_mode)(nvml_device, int *);
	nvml_ret (*acct_pids)(nvml_device, unsigned *, unsigned *);
	nvml_ret (*acct_stats)(nvml_device, unsigned, struct nvml_acct *);
};

/* --- state ------------------------------------------------------------ */

struct device {
	nvml_device h;
	unsigned long long last_seen;	/* newest utilization sample read, us */
	bool accounting;		/* keeps records of ended processes */
	bool util;			/* reports per-process utilization */
	bool used;			/* a process of the tree used it */
};

/* One process of the tree on one device. */
struct use {
	uint64_t key;			/* device << 32 | pid, + 1; 0: free slot */
	double gpu_seconds;		/* counted for it so far */
	bool accounted;			/* its accounting record was read */
	bool credited;			/* its utilization was counted once */
};

struct tp_gpu {
	struct nvml api;
	struct device *dev;
	unsigned ndev;
	double start;			/* the task's, s since the epoch */
	pid_t *pids;			/* the tree's pids, open addressing (0 free) */
	size_t npids, pids_cap;
	struct use *uses;
	size_t nuses, uses_cap;
	void *buf;			/* scratch for the NVML lists */
	size_t buf_len;
	bool failed;			/* an NVML error: no more looks */
	bool sampled;
	double last_t;
	struct tp_gpu_figures fig;
};

/* Store in *@slot (a function pointer) the first of @a, @b that the
 * library has; false if neither.  (The void ** store is how dlsym(3)
 * says to convert its result to a function pointer.) */
static bool bind(void *lib, void *slot, const char *a, const char *b)
{
	void *f = dlsym(lib, a);

	if (!f && b)
		f = dlsym(lib, b);
	memcpy(slot, &f, sizeof(f));
	return f != NULL;
}

static bool load_api(struct tp_gpu *g)
{
	struct nvml *n = &g->api;
	bool ok = bind(n->lib, &n->init, "nvmlInit_v2", "nvmlInit") &&
		  bind(n->lib, &n->shutdown, "nvmlShutdown", NULL) &&
		  bind(n->lib, &n->count, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount") &&
		  bind(n->lib, &n->handle, "nvmlDeviceGetHandleByIndex_v2",
		       "nvmlDeviceGetHandleByIndex");

	bind(n->lib, &n->error_string, "nvmlErrorString", NULL);
	bind(n->lib, &n->util, "nvmlDeviceGetProcessUtilization", NULL);
	bind(n->lib, &n->acct_mode, "nvmlDeviceGetAccountingMode", NULL);
	bind(n->lib, &n->acct_pids, "nvmlDeviceGetAccountingPids", NULL);
	bind(n->lib, &n->acct_stats, "nvmlDeviceGetAccountingStats", NULL);
	n->proc_size = sizeof(struct nvml_proc_v2);
	if (!bind(n->lib, &n->procs, "nvmlDeviceGetComputeRunningProcesses_v3",
		  "nvmlDeviceGetComputeRunningProcesses_v2")) {
		n->proc_size = sizeof(struct nvml_proc_v1);
		ok = bind(n->lib, &n->procs, "nvmlDeviceGetComputeRunningProcesses", NULL) && ok;
	}
	return ok;
}

static const char *why(const struct tp_gpu *g, nvml_ret r)
{
	const char *s = g->api.error_string ? g->api.error_string(r) : NULL;

	return s ? s : "unknown error";
}

/* An NVML call failed: the figures so far stand, no more looks. */
static void fail(struct tp_gpu *g, const char *call, nvml_ret r)
{
	g->failed = true;
	error_msg("NVML %s: %s (%d): GPU figures stop here", call, why(g, r), r);
}

static void open_devices(struct tp_gpu *g)
{
	unsigned i, n = 0;

	if (g->api.count(&n) != NVML_SUCCESS || n == 0)
		return;
	g->dev = xcalloc(n, sizeof(*g->dev));
	for (i = 0; i < n; i++) {
		struct device *d = &g->dev[g->ndev];
		int mode = 0;

		if (g->api.handle(i, &d->h) != NVML_SUCCESS)
			continue;
		d->util = g->api.util != NULL;
		d->accounting = g->api.acct_mode && g->api.acct_pids && g->api.acct_stats &&
				g->api.acct_mode(d->h, &mode) == NVML_SUCCESS && mode == 1;
		debug_msg("NVML device %u: accounting %s", i, d->accounting ? "on" : "off");
		g->ndev++;
	}
}

/* True where an NVIDIA driver may answer NVML: its /proc directory, its
 * control device (a container given GPUs has it too), or WSL's GPU
 * device.  Without any of them, NVML can only fail, and loading it costs
 * a run a few milliseconds (0.03 s in an emulated machine). */
static bool nvidia_driver_here(void)
{
	return access("/proc/driver/nvidia", F_OK) == 0 || access("/dev/nvidiactl", F_OK) == 0 ||
	       access("/dev/dxg", F_OK) == 0;
}

#ifdef TP_STATIC_GLIBC
/* A static tpmon carries its own glibc, and NVML needs the system's
 * libc.so.6 beside it.  glibc supports that only when both are the same
 * version (the linker says so: "Using 'dlopen' in statically linked
 * applications requires at runtime the shared libraries from the glibc
 * version used for linking"): loading another version runs its start-up
 * code against our loader's internal layouts, and aborts tpmon outright
 * when that libc is older than 2.32 (dl-call-libc-early-init.c:
 * "Assertion `sym != NULL' failed").  So the system's libc.so.6 is not
 * loaded to ask it: the file the loader would find (LD_LIBRARY_PATH, then
 * the usual directories) is read for its banner, "... release version
 * 2.36.", and NVML is loaded only when that is our version. */
static const char *const libc_dirs[] = {
#if defined(__x86_64__)
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
	"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
#endif
	"/lib64", "/usr/lib64", "/lib", "/usr/lib", NULL,
};

/* The version in glibc's banner in @buf (@len bytes), into @out (at most
 * @cap bytes with its NUL); false if there is none. */
static bool libc_banner_version(const char *buf, size_t len, char *out, size_t cap)
{
	static const char key[] = "release version ";
	const char *p = memmem(buf, len, key, sizeof(key) - 1);
	size_t n = 0;

	if (!p)
		return false;
	p += sizeof(key) - 1;
	while (p + n < buf + len && n + 1 < cap && (isdigit((unsigned char)p[n]) || p[n] == '.'))
		n++;
	while (n > 0 && p[n - 1] == '.')
		n--;
	memcpy(out, p, n);
	out[n] = '\0';
	return n > 0;
}

/* The version of the glibc in file @path, into @out; false if the file
 * cannot be read or tells none. */
static bool libc_file_version(const char *path, char *out, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *map;
	bool found;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) != 0 || st.st_size <= 0) {
		close(fd);
		return false;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return false;
	found = libc_banner_version(map, (size_t)st.st_size, out, cap);
	munmap(map, (size_t)st.st_size);
	return found;
}

/* The first libc.so.6 in the directories of @list (':' between them) that
 * tells its version: its path into @path and the version into @out. */
static bool find_libc(const char *list, char *path, size_t path_cap, char *out, size_t cap)
{
	while (list && *list) {
		size_t n = strcspn(list, ":");

		if (n > 0 && (size_t)snprintf(path, path_cap, "%.*s/libc.so.6", (int)n, list) < path_cap &&
		    libc_file_version(path, out, cap))
			return true;
		list += n;
		list += *list == ':';
	}
	return false;
}

/* True when NVML may be loaded: the system's libc.so.6 is our glibc.
 * Without one (an empty chroot, a musl system) there is no NVML either:
 * said with debug_msg, as a machine without GPUs.  Another version is
 * said once with warn_msg (gpu_open() asks only where a library is named
 * or an NVIDIA driver is there). */
static bool same_glibc(const char *library)
{
	const char *ours = gnu_get_libc_version();
	char path[4096], theirs[32];
	bool found = find_libc(getenv("LD_LIBRARY_PATH"), path, sizeof(path), theirs, sizeof(theirs));

	for (const char *const *d = libc_dirs; !found && *d; d++)
		found = find_libc(*d, path, sizeof(path), theirs, sizeof(theirs));
	if (!found) {
		debug_msg("no NVML: this static tpmon finds no glibc libc.so.6 here");
		return false;
	}
	if (strcmp(theirs, ours) == 0) {
		debug_msg("static tpmon: %s is glibc %s, ours: NVML may load", path, ours);
		return true;
	}
	/* (asked only where a library is named or a driver is there) */
	warn_msg("no GPU figures: this static tpmon carries glibc %s and cannot load NVML beside "
		 "the system's glibc %s (%s); use a tpmon built for this system, or one built with "
		 "--enable-static-binary=libs", ours, theirs, path);
	return false;
}
#endif

struct tp_gpu *gpu_open(const char *library, double start)
{
	struct tp_gpu *g;
	nvml_ret r;

	if (!library && !nvidia_driver_here()) {
		debug_msg("no NVML: no NVIDIA driver here (no /proc/driver/nvidia, /dev/nvidiactl "
			  "nor /dev/dxg)");
		return NULL;
	}

#ifdef TP_STATIC_GLIBC
	if (!same_glibc(library))
		return NULL;
#endif
	g = xcalloc(1, sizeof(*g));
	g->start = start;
	g->api.lib = dlopen(library ? library : "libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!g->api.lib) {
		debug_msg("no NVML: %s", dlerror());
		free(g);
		return NULL;
	}
	if (!load_api(g)) {
		debug_msg("NVML: missing functions");
		dlclose(g->api.lib);
		free(g);
		return NULL;
	}
	r = g->api.init();
	if (r != NVML_SUCCESS) {
		debug_msg("nvmlInit: %s", why(g, r));
		dlclose(g->api.lib);
		free(g);
		return NULL;
	}
	open_devices(g);
	g->fig.util_known = g->ndev > 0;
	return g;
}

void gpu_free(struct tp_gpu *g)
{
	if (!g)
		return;
	g->api.shutdown();
	dlclose(g->api.lib);
	free(g->dev);
	free(g->pids);
	free(g->uses);
	free(g->buf);
	free(g);
}

/* --- the tree's pids, and its uses of devices -------------------------- */

static size_t pid_slot(const struct tp_gpu *g, pid_t pid)
{
	size_t i = ((size_t)pid * 2654435761u) & (g->pids_cap - 1);

	while (g->pids[i] && g->pids[i] != pid)
		i = (i + 1) & (g->pids_cap - 1);
	return i;
}

static bool tree_pid(const struct tp_gpu *g, pid_t pid)
{
	return g->pids_cap && g->pids[pid_slot(g, pid)] == pid;
}

void gpu_note_pid(struct tp_gpu *g, pid_t pid)
{
	if (!g || pid <= 0)
		return;
	if ((g->npids + 1) * 2 > g->pids_cap) {
		pid_t *old = g->pids;
		size_t i, cap = g->pids_cap;

		g->pids_cap = cap ? cap * 2 : 256;
		g->pids = xcalloc(g->pids_cap, sizeof(*g->pids));
		for (i = 0; i < cap; i++)
			if (old[i])
				g->pids[pid_slot(g, old[i])] = old[i];
		free(old);
	}
	if (g->pids[pid_slot(g, pid)] != pid) {
		g->pids[pid_slot(g, pid)] = pid;
		g->npids++;
	}
}

static size_t use_slot(const struct tp_gpu *g, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull) & (g->uses_cap - 1);

	while (g->uses[i].key && g->uses[i].key != key)
		i = (i + 1) & (g->uses_cap - 1);
	return i;
}

static struct use *get_use(struct tp_gpu *g, unsigned dev, unsigned pid)
{
	uint64_t key = ((uint64_t)dev << 32 | pid) + 1;
	struct use *u;

	if ((g->nuses + 1) * 2 > g->uses_cap) {
		struct use *old = g->uses;
		size_t i, cap = g->uses_cap;

		g->uses_cap = cap ? cap * 2 : 64;
		g->uses = xcalloc(g->uses_cap, sizeof(*g->uses));
		for (i = 0; i < cap; i++)
			if (old[i].key)
				g->uses[use_slot(g, old[i].key)] = old[i];
		free(old);
	}
	u = &g->uses[use_slot(g, key)];
	if (!u->key) {
		u->key = key;
		g->nuses++;
	}
	if (!g->dev[dev].used) {
		g->dev[dev].used = true;
		g->fig.devices_used++;
	}
	return u;
}

/* --- one look ---------------------------------------------------------- */

static void *scratch(struct tp_gpu *g, size_t len)
{
	if (len > g->buf_len) {
		free(g->buf);
		g->buf = xmalloc(len);
		g->buf_len = len;
	}
	memset(g->buf, 0, len);
	return g->buf;
}

enum list_kind { LIST_PROCS, LIST_UTIL, LIST_ACCT_PIDS };

/* One of NVML's list calls on device @d, into g->buf, which grows until
 * the list fits.  Returns the NVML status; *@n gets the number of
 * entries. */
static nvml_ret list_call(struct tp_gpu *g, enum list_kind kind, const struct device *d, unsigned *n)
{
	size_t size = kind == LIST_PROCS ? g->api.proc_size :
		      kind == LIST_UTIL ? sizeof(struct nvml_util_sample) : sizeof(unsigned);
	unsigned cap = 64;
	nvml_ret r;

	for (;;) {
		void *buf = scratch(g, cap * size);

		*n = cap;
		if (kind == LIST_PROCS)
			r = g->api.procs(d->h, n, buf);
		else if (kind == LIST_UTIL)
			r = g->api.util(d->h, buf, n, d->last_seen);
		else
			r = g->api.acct_pids(d->h, n, buf);
		if (r != NVML_ERROR_INSUFFICIENT_SIZE || cap >= 65536)
			break;
		cap = *n > cap ? *n + 16 : cap * 2;
	}
	if (r == NVML_SUCCESS && *n > cap)
		*n = cap;
	return r;
}

/* The tree's processes on device @i: GPU memory, in MB. */
static bool look_procs(struct tp_gpu *g, const struct tp_ptree *t, unsigned i, double *mb)
{
	struct device *d = &g->dev[i];
	unsigned n, k;
	nvml_ret r = list_call(g, LIST_PROCS, d, &n);

	if (r == NVML_ERROR_NOT_FOUND)
		return true;
	if (r != NVML_SUCCESS) {
		fail(g, "nvmlDeviceGetComputeRunningProcesses", r);
		return false;
	}
	for (k = 0; k < n; k++) {
		const char *rec = (const char *)g->buf + k * g->api.proc_size;
		struct nvml_proc_v1 p;

		memcpy(&p, rec, sizeof(p));	/* both layouts start alike */
		if (!ptree_proc(t, (pid_t)p.pid))
			continue;
		get_use(g, i, p.pid);
		if (p.used_gpu_memory != NVML_VALUE_NOT_AVAILABLE)
			*mb += (double)p.used_gpu_memory / 1048576.0;
	}
	return true;
}

/* The tree's SM utilization on device @i since the last look, in GPUs;
 * each process's share is added to its GPU-seconds over @dt. */
static bool look_util(struct tp_gpu *g, const struct tp_ptree *t, unsigned i, double dt, double *gpus)
{
	struct device *d = &g->dev[i];
	struct nvml_util_sample *s;
	struct use *u;
	double span;
	unsigned n, k, j;
	unsigned long long newest = d->last_seen;
	nvml_ret r;

	if (!d->util)
		return true;
	r = list_call(g, LIST_UTIL, d, &n);
	if (r == NVML_ERROR_NOT_FOUND)
		return true;
	if (r == NVML_ERROR_NOT_SUPPORTED || r == NVML_ERROR_NO_PERMISSION) {
		d->util = false;
		g->fig.util_known = false;
		return true;
	}
	if (r != NVML_SUCCESS) {
		fail(g, "nvmlDeviceGetProcessUtilization", r);
		return false;
	}
	s = g->buf;
	/* a process may have several samples: its mean over them */
	for (k = 0; k < n; k++) {
		double sum = 0;
		unsigned cnt = 0;

		if (s[k].time_stamp > newest)
			newest = s[k].time_stamp;
		if (s[k].time_stamp <= d->last_seen || !ptree_proc(t, (pid_t)s[k].pid))
			continue;
		for (j = 0; j < k; j++)
			if (s[j].pid == s[k].pid && s[j].time_stamp > d->last_seen)
				break;
		if (j < k)
			continue;	/* counted with its first sample */
		for (j = k; j < n; j++)
			if (s[j].pid == s[k].pid && s[j].time_stamp > d->last_seen) {
				sum += s[j].sm_util;
				cnt++;
			}
		sum = sum / cnt / 100.0;
		*gpus += sum;
		u = get_use(g, i, s[k].pid);
		/* it started somewhere in its first interval, and it ends
		 * somewhere in the interval after its last look: half of
		 * the first one evens the two out */
		span = u->credited ? dt : dt / 2;
		u->credited = true;
		u->gpu_seconds += sum * span;
		g->fig.gpu_seconds += sum * span;
	}
	d->last_seen = newest;
	return true;
}

/* Processes of the tree that ended on device @i: their accounting
 * records give their peak memory and their GPU-seconds over their life,
 * which replace what the samples counted when larger. */
static bool look_accounting(struct tp_gpu *g, unsigned i)
{
	struct device *d = &g->dev[i];
	unsigned n, k, *pids;
	nvml_ret r;

	if (!d->accounting || g->npids == 0)
		return true;
	r = list_call(g, LIST_ACCT_PIDS, d, &n);
	if (r == NVML_ERROR_NOT_FOUND)
		return true;
	if (r == NVML_ERROR_NOT_SUPPORTED || r == NVML_ERROR_NO_PERMISSION) {
		d->accounting = false;
		return true;
	}
	if (r != NVML_SUCCESS) {
		fail(g, "nvmlDeviceGetAccountingPids", r);
		return false;
	}
	pids = xreallocarray(NULL, n ? n : 1, sizeof(*pids));
	memcpy(pids, g->buf, n * sizeof(*pids));
	for (k = 0; k < n; k++) {
		struct nvml_acct a;
		struct use *u;
		double gs, mb;

		if (!tree_pid(g, (pid_t)pids[k]))
			continue;
		memset(&a, 0, sizeof(a));
		r = g->api.acct_stats(d->h, pids[k], &a);
		if (r == NVML_ERROR_NOT_FOUND)
			continue;
		if (r != NVML_SUCCESS) {
			fail(g, "nvmlDeviceGetAccountingStats", r);
			break;
		}
		/* still running (the samples count it), or an older process
		 * that had the same pid */
		if (a.is_running || (double)a.start_time / 1e6 < g->start - 1.0)
			continue;
		u = get_use(g, i, pids[k]);
		if (u->accounted)
			continue;
		u->accounted = true;
		mb = (double)a.max_memory_usage / 1048576.0;
		if (mb > g->fig.peak_memory_mb)
			g->fig.peak_memory_mb = mb;
		gs = a.gpu_utilization / 100.0 * (double)a.time / 1000.0;
		if (gs > u->gpu_seconds) {
			g->fig.gpu_seconds += gs - u->gpu_seconds;
			u->gpu_seconds = gs;
		}
	}
	free(pids);
	return !g->failed;
}

void gpu_sample(struct tp_gpu *g, const struct tp_ptree *t, double now)
{
	double mb = 0, gpus = 0, dt;
	unsigned i;

	const struct tp_proc *p;

	if (!g || g->failed)
		return;
	for (p = t->live; p; p = p->next)
		gpu_note_pid(g, p->pid);	/* poll mode finds them here */
	dt = g->sampled ? now - g->last_t : 0;
	/* after an error, what this look saw before it still counts */
	for (i = 0; i < g->ndev; i++)
		if (!look_procs(g, t, i, &mb) || !look_util(g, t, i, dt, &gpus) ||
		    !look_accounting(g, i))
			break;
	g->sampled = true;
	g->last_t = now;
	g->fig.memory_mb = mb;
	if (mb > g->fig.peak_memory_mb)
		g->fig.peak_memory_mb = mb;
	g->fig.cores = gpus;
	if (gpus > g->fig.peak_cores)
		g->fig.peak_cores = gpus;
}

bool gpu_figures(const struct tp_gpu *g, struct tp_gpu_figures *f)
{
	if (!g)
		return false;
	*f = g->fig;
	return true;
}
