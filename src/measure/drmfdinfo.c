/* SPDX-License-Identifier: MIT */
/* drmfdinfo.c: GPUs of every vendor through DRM fdinfo (drmfdinfo.h).
 * At each sample, for each live process of the tree: the entries of
 * /proc/PID/fd that are DRM character devices (major 226: an fstatat()
 * of a descriptor new since the scan before, and of the others in turn,
 * one in RECHECK per sample), and the /proc/PID/fdinfo file of those
 * only, in the format of
 * the kernel's Documentation/gpu/drm-usage-stats.rst.  A client (one
 * drm_file: its drm-client-id, per device) open through several
 * descriptors or processes is counted once per sample.  Engine busy
 * counters only grow: what a client added since the sample before is
 * its share of the interval; a counter that went back adds nothing until
 * it passes its old value again, and a client that closed keeps what it
 * had.
 * Its first sample counts its busy time since it was opened (the task's
 * own); a drm-cycles- engine counts from its second, as its
 * drm-total-cycles- clock has no start to measure from. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <dirent.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "measure/drmfdinfo.h"
#include "measure/kfd.h"

#define FDINFO_MAX 16384		/* bytes read of one fdinfo file */

/* --- the parser -------------------------------------------------------- */

/* The number at @s (decimal), its end in *@end; false without digits. */
static bool parse_u64(const char *s, const char *lim, uint64_t *v, const char **end)
{
	uint64_t n = 0;
	const char *p = s;

	while (p < lim && *p == ' ')
		p++;
	if (p == lim || !isdigit((unsigned char)*p))
		return false;
	for (; p < lim && isdigit((unsigned char)*p); p++) {
		if (n > (UINT64_MAX - 9) / 10)
			return false;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	*v = n;
	*end = p;
	return true;
}

/* The unit after a number: "" (bytes), "KiB", "MiB", "GiB", "ns". */
static bool unit_is(const char *p, const char *lim, const char *unit)
{
	size_t n = strlen(unit);

	while (p < lim && *p == ' ')
		p++;
	return (size_t)(lim - p) == n && memcmp(p, unit, n) == 0;
}

/* A size: a number, then no unit (bytes), KiB, MiB or GiB. */
static bool parse_size(const char *v, const char *lim, uint64_t *bytes)
{
	static const struct { const char *unit; unsigned shift; } units[] = {
		{ "", 0 }, { "KiB", 10 }, { "MiB", 20 }, { "GiB", 30 },
	};
	const char *end;
	uint64_t n;
	size_t i;

	if (!parse_u64(v, lim, &n, &end))
		return false;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (unit_is(end, lim, units[i].unit)) {
			if (n > UINT64_MAX >> units[i].shift)
				return false;
			*bytes = n << units[i].shift;
			return true;
		}
	return false;
}

/* Copy the name [@s, @lim) into @out; false when too long, empty or not
 * of letters, digits and "_.:-" (a driver's, an engine's, a region's,
 * a PCI address: plain text in every output). */
static bool copy_name(char out[TP_DRM_NAME], const char *s, const char *lim)
{
	size_t i, n = (size_t)(lim - s);

	if (n == 0 || n >= TP_DRM_NAME)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && (!s[i] || !strchr("_.:-", s[i])))
			return false;
	memcpy(out, s, n);
	out[n] = '\0';
	return true;
}

/* The entry named [@s, @lim) of the array @arr of *@n entries of @size
 * bytes, each starting with its name (char[TP_DRM_NAME]); a new zeroed
 * one when there is none and fewer than @max; else NULL. */
static void *named(void *arr, size_t size, unsigned *n, unsigned max, const char *s,
		   const char *lim)
{
	char name[TP_DRM_NAME], *p;
	unsigned i;

	if (!copy_name(name, s, lim))
		return NULL;
	for (i = 0; i < *n; i++) {
		p = (char *)arr + i * size;
		if (!strcmp(p, name))
			return p;
	}
	if (*n == max)
		return NULL;
	p = (char *)arr + i * size;
	memset(p, 0, size);
	strcpy(p, name);
	(*n)++;
	return p;
}

static struct tp_drm_engine *engine_of(struct tp_drm_client *c, const char *s, const char *lim)
{
	struct tp_drm_engine *e = named(c->engine, sizeof(c->engine[0]), &c->nengines,
					TP_DRM_ENGINES, s, lim);

	if (e && !e->capacity)
		e->capacity = 1;	/* none said: one */
	return e;
}

static struct tp_drm_region *region_of(struct tp_drm_client *c, const char *s, const char *lim)
{
	return named(c->region, sizeof(c->region[0]), &c->nregions, TP_DRM_REGIONS, s, lim);
}

/* Does the key [@k, @klim) start with @prefix?  *@rest: what follows. */
static bool key_prefix(const char *k, const char *klim, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if ((size_t)(klim - k) <= n || memcmp(k, prefix, n) != 0)
		return false;
	*rest = k + n;
	return true;
}

/* drm-engine-<e>: N ns, drm-engine-capacity-<e>: N, drm-cycles-<e>: N,
 * drm-total-cycles-<e>: N.  (capacity- and total-cycles- are tried
 * first: an engine cannot be named "capacity-x".) */
static void engine_line(struct tp_drm_client *c, const char *k, const char *klim,
			const char *v, const char *vlim)
{
	struct tp_drm_engine *e;
	const char *name, *end;
	uint64_t n;

	if (!parse_u64(v, vlim, &n, &end))
		return;
	if (key_prefix(k, klim, "drm-engine-capacity-", &name)) {
		if (unit_is(end, vlim, "") && n > 0 && n < 1024 && (e = engine_of(c, name, klim)))
			e->capacity = (unsigned)n;
	} else if (key_prefix(k, klim, "drm-engine-", &name)) {
		if (unit_is(end, vlim, "ns") && (e = engine_of(c, name, klim))) {
			e->busy_ns = n;
			e->has_ns = true;
		}
	} else if (key_prefix(k, klim, "drm-total-cycles-", &name)) {
		if (unit_is(end, vlim, "") && (e = engine_of(c, name, klim)))
			e->total_cycles = n;
	} else if (key_prefix(k, klim, "drm-cycles-", &name)) {
		if (unit_is(end, vlim, "") && (e = engine_of(c, name, klim))) {
			e->cycles = n;
			e->has_cycles = true;
		}
	}
}

/* drm-resident-<r>, drm-memory-<r> (its older name), drm-total-<r>. */
static void region_line(struct tp_drm_client *c, const char *k, const char *klim,
			const char *v, const char *vlim)
{
	struct tp_drm_region *r;
	const char *name;
	uint64_t bytes;
	bool total = false;

	if (key_prefix(k, klim, "drm-total-", &name))
		total = true;
	else if (!key_prefix(k, klim, "drm-resident-", &name) &&
		 !key_prefix(k, klim, "drm-memory-", &name))
		return;
	if (!parse_size(v, vlim, &bytes) || !(r = region_of(c, name, klim)))
		return;
	if (total) {
		r->total = bytes;
		r->has_total = true;
	} else {
		r->resident = bytes;
		r->has_resident = true;
	}
}

/* Is the key [@k, @klim) @key? */
static bool key_is(const char *k, const char *klim, const char *key)
{
	return (size_t)(klim - k) == strlen(key) && memcmp(k, key, (size_t)(klim - k)) == 0;
}

/* One whole line "key:<tab or spaces>value". */
static void parse_line(struct tp_drm_client *c, const char *s, const char *lim, bool *id)
{
	const char *colon = memchr(s, ':', (size_t)(lim - s)), *v, *end;
	uint64_t n;

	if (!colon)
		return;
	for (v = colon + 1; v < lim && (*v == ' ' || *v == '\t'); v++)
		;
	if (key_is(s, colon, "drm-driver"))
		copy_name(c->driver, v, lim);
	else if (key_is(s, colon, "drm-pdev"))
		copy_name(c->pdev, v, lim);
	else if (key_is(s, colon, "drm-client-id")) {
		if (parse_u64(v, lim, &n, &end) && unit_is(end, lim, "")) {
			c->client_id = n;
			*id = true;
		}
	} else if (key_prefix(s, colon, "drm-engine-", &end) ||
		   key_prefix(s, colon, "drm-cycles-", &end) ||
		   key_prefix(s, colon, "drm-total-cycles-", &end))
		engine_line(c, s, colon, v, lim);
	else
		region_line(c, s, colon, v, lim);
}

bool drm_fdinfo_parse(const char *buf, size_t len, struct tp_drm_client *c)
{
	const char *p = buf, *lim = buf + len;
	bool id = false;

	memset(c, 0, sizeof(*c));
	while (p < lim) {
		const char *nl = memchr(p, '\n', (size_t)(lim - p));

		if (!nl)
			break;		/* cut off: left out */
		parse_line(c, p, nl, &id);
		p = nl + 1;
	}
	return id && c->driver[0];
}

/* --- the run's devices and clients -------------------------------------- */

struct dev {
	char pdev[TP_DRM_NAME], driver[TP_DRM_NAME];
	bool kfd;
	char engine[TP_DRM_ENGINES][TP_DRM_NAME];
	unsigned capacity[TP_DRM_ENGINES];
	unsigned nengines;
	double busy_s[TP_DRM_ENGINES];		/* so far, over the capacity */
	/* this sample */
	double delta_ns[TP_DRM_ENGINES];
	double delta_cycles[TP_DRM_ENGINES], delta_total[TP_DRM_ENGINES];
	double bytes;
	double memory_mb, peak_memory_mb;
	/* per region: this sample's resident and total bytes, their peaks */
	char region[TP_DRM_REGIONS][TP_DRM_NAME];
	unsigned nregions;
	double reg_res[TP_DRM_REGIONS], reg_tot[TP_DRM_REGIONS];
	double reg_res_peak[TP_DRM_REGIONS], reg_tot_peak[TP_DRM_REGIONS];	/* MB */
	bool reg_has_tot[TP_DRM_REGIONS];	/* a client gave drm-total- */
};

struct client {
	unsigned dev;
	uint64_t id;
	unsigned gen;			/* the sample that counted it last */
	struct tp_drm_engine last[TP_DRM_ENGINES];
	unsigned nlast;
};

/* One process's descriptors at its last scan: their numbers, in the
 * ascending order in which /proc lists them, and which were DRM. */
struct fdcache {
	pid_t pid;			/* 0: a free slot */
	unsigned gen;			/* the sample that scanned it last */
	int *fd;
	bool *drm;
	size_t n, cap;
};

struct tp_drm {
	bool nvml;
	bool scan;			/* the machine has a DRM device (or the
					 * tests ask): else nothing is read */
	int procfd;			/* /proc, opened at the first sample */
	int kfdfd;			/* KFD's proc directory; -1 not yet, -2 none */
	bool pid_amdgpu;		/* the process scanned last had an amdgpu client */
	struct dev dev[TP_DRM_DEVICES];
	unsigned ndev;
	bool too_many;			/* a device beyond TP_DRM_DEVICES */
	struct client *cl;
	size_t ncl, cl_cap;
	unsigned gen;
	unsigned unreadable_now, unreadable;
	struct fdcache *pc;		/* by pid, open addressing */
	size_t pc_cap, pc_n;
	size_t pc_seen;			/* of them, scanned in this sample */
	int *scratch_fd;		/* the list being built */
	bool *scratch_drm;
	size_t scratch_cap;
	double last_t;
	struct tp_gpu_figures fig;
};

/* Has the kernel a DRM device (an entry of /sys/class/drm: card0,
 * renderD128...) or KFD?  Without, no process can hold one, and the
 * samples read nothing.  TPMON_TEST_DRM_SCAN=1 (the tests, on machines
 * without a GPU) scans all the same. */
static bool host_has_drm(void)
{
	const char *force = getenv("TPMON_TEST_DRM_SCAN");
	struct dirent *e;
	bool found = false;
	DIR *dir;

	if (force && !strcmp(force, "1"))
		return true;
	if (access(TP_KFD_PROC, F_OK) == 0)
		return true;
	dir = opendir("/sys/class/drm");
	while (dir && !found && (e = readdir(dir)))
		found = e->d_name[0] != '.';
	if (dir)
		closedir(dir);
	debug_msg("DRM fdinfo: %s", found ? "DRM devices here, read at each sample" :
		  "no DRM device (/sys/class/drm), nothing to read");
	return found;
}

struct tp_drm *drm_new(bool nvml)
{
	struct tp_drm *d = xcalloc(1, sizeof(*d));

	d->nvml = nvml;
	d->scan = host_has_drm();
	d->procfd = -1;
	d->kfdfd = -1;
	d->gen = 1;
	return d;
}

void drm_free(struct tp_drm *d)
{
	size_t i;

	if (!d)
		return;
	if (d->procfd >= 0)
		close(d->procfd);
	if (d->kfdfd >= 0)
		close(d->kfdfd);
	for (i = 0; i < d->pc_cap; i++) {
		free(d->pc[i].fd);
		free(d->pc[i].drm);
	}
	free(d->pc);
	free(d->scratch_fd);
	free(d->scratch_drm);
	free(d->cl);
	free(d);
}

static struct dev *dev_get(struct tp_drm *d, const struct tp_drm_client *c, unsigned *idx)
{
	unsigned i;

	for (i = 0; i < d->ndev; i++)
		if (!strcmp(d->dev[i].pdev, c->pdev) && !strcmp(d->dev[i].driver, c->driver) &&
		    d->dev[i].kfd == c->kfd)
			break;
	if (i == TP_DRM_DEVICES) {
		if (!d->too_many)
			warn_msg("more than %d DRM devices: the others are left out", TP_DRM_DEVICES);
		d->too_many = true;
		return NULL;
	}
	if (i == d->ndev) {
		strcpy(d->dev[i].pdev, c->pdev);
		strcpy(d->dev[i].driver, c->driver);
		d->dev[i].kfd = c->kfd;
		d->ndev++;
	}
	*idx = i;
	return &d->dev[i];
}

/* The slot of engine class @name on @v (its capacity from @e), or -1. */
static int dev_engine(struct dev *v, const struct tp_drm_engine *e)
{
	unsigned i;

	for (i = 0; i < v->nengines; i++)
		if (!strcmp(v->engine[i], e->name))
			break;
	if (i == TP_DRM_ENGINES)
		return -1;
	if (i == v->nengines) {
		strcpy(v->engine[i], e->name);
		v->nengines++;
	}
	v->capacity[i] = e->capacity ? e->capacity : 1;
	return (int)i;
}

static struct client *client_get(struct tp_drm *d, unsigned dev, uint64_t id)
{
	struct client *c;
	size_t i;

	for (i = 0; i < d->ncl; i++)
		if (d->cl[i].dev == dev && d->cl[i].id == id)
			return &d->cl[i];
	if (d->ncl == d->cl_cap) {
		d->cl_cap = d->cl_cap ? 2 * d->cl_cap : 16;
		d->cl = xreallocarray(d->cl, d->cl_cap, sizeof(*d->cl));
	}
	c = &d->cl[d->ncl++];
	memset(c, 0, sizeof(*c));
	c->dev = dev;
	c->id = id;
	return c;
}

/* The client's previous counters of engine @name (zero the first time),
 * or NULL when it has too many engines. */
static struct tp_drm_engine *client_last(struct client *c, const char *name, bool *first)
{
	unsigned i;

	for (i = 0; i < c->nlast; i++)
		if (!strcmp(c->last[i].name, name))
			break;
	*first = i == c->nlast;
	if (i == TP_DRM_ENGINES)
		return NULL;
	if (*first) {
		memset(&c->last[i], 0, sizeof(c->last[i]));
		strcpy(c->last[i].name, name);
		c->nlast++;
	}
	return &c->last[i];
}

/* What a counter gained since @last: nothing when it went back. */
static uint64_t gain(uint64_t now, uint64_t last)
{
	return now >= last ? now - last : 0;
}

/* Keep the larger of a counter and its previous value: a counter seen
 * going back stays at what it was until it catches up (the kernel's
 * drm-usage-stats.rst asks this of userspace). */
static void keep_max(uint64_t *last, uint64_t now)
{
	if (now > *last)
		*last = now;
}

static void add_engine(struct dev *v, struct client *cl, const struct tp_drm_engine *e)
{
	int k = dev_engine(v, e);
	bool first;
	struct tp_drm_engine *last;

	if (k < 0 || !(last = client_last(cl, e->name, &first)))
		return;
	if (e->has_ns) {
		v->delta_ns[k] += (double)gain(e->busy_ns, last->busy_ns);
		keep_max(&last->busy_ns, e->busy_ns);
	}
	if (!e->has_ns && e->has_cycles && e->total_cycles && !first && last->has_cycles) {
		double dt = (double)gain(e->total_cycles, last->total_cycles);

		v->delta_cycles[k] += (double)gain(e->cycles, last->cycles);
		if (dt > v->delta_total[k])
			v->delta_total[k] = dt;	/* one clock per device */
	}
	if (e->has_cycles) {
		keep_max(&last->cycles, e->cycles);
		keep_max(&last->total_cycles, e->total_cycles);
		last->has_cycles = true;
	}
}

/* Region @r of a client into @v's sums: its resident bytes (its total
 * where the driver gives no resident) into the device's memory. */
static void add_region(struct dev *v, const struct tp_drm_region *r)
{
	double res = (double)(r->has_resident ? r->resident : r->total);
	unsigned k;

	v->bytes += res;
	for (k = 0; k < v->nregions; k++)
		if (!strcmp(v->region[k], r->name))
			break;
	if (k == TP_DRM_REGIONS)
		return;
	if (k == v->nregions) {
		strcpy(v->region[k], r->name);
		v->nregions++;
	}
	v->reg_res[k] += res;
	v->reg_tot[k] += (double)r->total;
	v->reg_has_tot[k] = v->reg_has_tot[k] || r->has_total;
}

/* Close the sample of @v's regions: their peaks. */
static void regions_end(struct dev *v)
{
	unsigned k;

	for (k = 0; k < v->nregions; k++) {
		v->reg_res_peak[k] = fmax(v->reg_res_peak[k], v->reg_res[k] / 1048576.0);
		v->reg_tot_peak[k] = fmax(v->reg_tot_peak[k], v->reg_tot[k] / 1048576.0);
		v->reg_res[k] = v->reg_tot[k] = 0;
	}
}

void drm_begin(struct tp_drm *d)
{
	d->unreadable_now = 0;
}

void drm_add(struct tp_drm *d, const struct tp_drm_client *c)
{
	struct client *cl;
	struct dev *v;
	unsigned i, idx = 0;

	if (d->nvml && !strncmp(c->driver, "nvidia", 6))
		return;		/* NVML's: one source per device */
	if (!(v = dev_get(d, c, &idx)))
		return;
	cl = client_get(d, idx, c->client_id);
	if (cl->gen == d->gen)
		return;		/* seen through another descriptor */
	cl->gen = d->gen;
	for (i = 0; i < c->nengines; i++)
		add_engine(v, cl, &c->engine[i]);
	for (i = 0; i < c->nregions; i++)
		add_region(v, &c->region[i]);
}

/* The busy seconds of engine slot @k of @v in this sample's @dt s. */
static double slot_busy(const struct dev *v, unsigned k, double dt)
{
	double s = v->delta_ns[k] / 1e9 / v->capacity[k];

	if (v->delta_total[k] > 0)
		s += v->delta_cycles[k] / v->delta_total[k] / v->capacity[k] * dt;
	return dt > 0 && s > dt ? dt : s;
}

/* Close the sample of device @v: its busy time per class, and its
 * busiest class's utilization (returned, in GPUs) and seconds (*@gs). */
static double dev_end(struct dev *v, double dt, double *gs)
{
	double util = 0, most = 0;
	unsigned k;

	for (k = 0; k < v->nengines; k++) {
		double s = slot_busy(v, k, dt);

		v->busy_s[k] += s;
		if (s > most)
			most = s;
		v->delta_ns[k] = v->delta_cycles[k] = v->delta_total[k] = 0;
	}
	if (dt > 0)
		util = most / dt;
	*gs = most;
	v->memory_mb = v->bytes / 1048576.0;
	if (v->memory_mb > v->peak_memory_mb)
		v->peak_memory_mb = v->memory_mb;
	v->bytes = 0;
	regions_end(v);
	return util;
}

/* --- which descriptors are DRM: a cache per process ------------------ */

/* A descriptor kept from the sample before is stat()ed again only every
 * RECHECK samples (by its number), so that one replaced at the same
 * number (dup2) is found within RECHECK samples; the others cost no
 * system call.  New numbers are always looked at. */
#define RECHECK 16

static size_t pc_slot(const struct tp_drm *d, pid_t pid)
{
	size_t i = ((size_t)pid * 2654435761u) & (d->pc_cap - 1);

	while (d->pc[i].pid && d->pc[i].pid != pid)
		i = (i + 1) & (d->pc_cap - 1);
	return i;
}

/* Move the entries of @old (@cap slots) that are still wanted into a
 * table of @ncap slots; the others are freed. */
static void pc_rehash(struct tp_drm *d, struct fdcache *old, size_t cap, size_t ncap, bool all)
{
	size_t i;

	d->pc = xcalloc(ncap, sizeof(*d->pc));
	d->pc_cap = ncap;
	d->pc_n = 0;
	for (i = 0; i < cap; i++) {
		if (!old[i].pid)
			continue;
		if (all || old[i].gen == d->gen) {
			d->pc[pc_slot(d, old[i].pid)] = old[i];
			d->pc_n++;
		} else {
			free(old[i].fd);
			free(old[i].drm);
		}
	}
	free(old);
}

static struct fdcache *pc_get(struct tp_drm *d, pid_t pid)
{
	struct fdcache *c;

	if ((d->pc_n + 1) * 2 > d->pc_cap)
		pc_rehash(d, d->pc, d->pc_cap, d->pc_cap ? 2 * d->pc_cap : 64, true);
	c = &d->pc[pc_slot(d, pid)];
	if (!c->pid) {
		c->pid = pid;
		d->pc_n++;
	}
	if (c->gen != d->gen)
		d->pc_seen++;
	c->gen = d->gen;
	return c;
}

/* Forget the processes this sample did not scan: gone (a pid used
 * again later starts afresh). */
static void cache_prune(struct tp_drm *d)
{
	if (d->pc_cap && d->pc_seen < d->pc_n)
		pc_rehash(d, d->pc, d->pc_cap, d->pc_cap, false);
	d->pc_seen = 0;
}

/* Was descriptor @fd DRM at the scan before?  -1: look again. */
static int cached(const struct tp_drm *d, const struct fdcache *c, size_t *j, int fd)
{
	while (*j < c->n && c->fd[*j] < fd)
		(*j)++;
	if (*j < c->n && c->fd[*j] == fd && (unsigned)fd % RECHECK != d->gen % RECHECK)
		return c->drm[*j];
	return -1;
}

/* Append @fd, DRM or not, to the list being built (@n entries so far). */
static void scratch_put(struct tp_drm *d, size_t n, int fd, bool drm)
{
	if (n == d->scratch_cap) {
		d->scratch_cap = d->scratch_cap ? 2 * d->scratch_cap : 256;
		d->scratch_fd = xreallocarray(d->scratch_fd, d->scratch_cap, sizeof(int));
		d->scratch_drm = xreallocarray(d->scratch_drm, d->scratch_cap, sizeof(bool));
	}
	d->scratch_fd[n] = fd;
	d->scratch_drm[n] = drm;
}

/* The list built (@n entries) becomes @c's. */
static void cache_take(struct tp_drm *d, struct fdcache *c, size_t n)
{
	if (n > c->cap) {
		c->cap = n;
		c->fd = xreallocarray(c->fd, n, sizeof(int));
		c->drm = xreallocarray(c->drm, n, sizeof(bool));
	}
	if (n) {
		memcpy(c->fd, d->scratch_fd, n * sizeof(int));
		memcpy(c->drm, d->scratch_drm, n * sizeof(bool));
	}
	c->n = n;
}

/* Forget the clients this sample did not see: closed (their counts
 * stay), as a drm-client-id is never reused. */
static void prune(struct tp_drm *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->ncl; i++)
		if (d->cl[i].gen == d->gen)
			d->cl[n++] = d->cl[i];
	d->ncl = n;
}

void drm_end(struct tp_drm *d, double now)
{
	struct tp_gpu_figures *f = &d->fig;
	double dt = now > d->last_t ? now - d->last_t : 0, mb = 0, cores = 0, gs;
	unsigned i;

	/* known when a device counts its engines (KFD's do not) */
	f->util_known = false;
	for (i = 0; i < d->ndev; i++) {
		cores += dev_end(&d->dev[i], dt, &gs);
		f->gpu_seconds += gs;
		mb += d->dev[i].memory_mb;
		if (d->dev[i].nengines > 0)
			f->util_known = true;
	}
	f->devices_used = d->ndev;
	f->memory_mb = mb;
	if (mb > f->peak_memory_mb)
		f->peak_memory_mb = mb;
	f->cores = cores;
	if (cores > f->peak_cores)
		f->peak_cores = cores;
	if (d->unreadable_now > d->unreadable)
		d->unreadable = d->unreadable_now;
	prune(d);
	cache_prune(d);
	d->gen++;
	d->last_t = now;
}

/* --- reading /proc ------------------------------------------------------ */

/* Is descriptor @name of the directory @dfd a DRM character device? */
static bool is_drm(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, 0) == 0 && S_ISCHR(st.st_mode) &&
	       major(st.st_rdev) == TP_DRM_MAJOR;
}

/* Read PID/fdinfo/@fd and add its client; false when it is none. */
static bool read_fdinfo(struct tp_drm *d, int procfd, pid_t pid, const char *fd)
{
	char path[64], buf[FDINFO_MAX];
	struct tp_drm_client c;
	size_t len = 0;
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "%d/fdinfo/%s", (int)pid, fd);
	f = openat(procfd, path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return false;	/* closed since, or the process gone */
	while (len < sizeof(buf) && (n = read(f, buf + len, sizeof(buf) - len)) > 0)
		len += (size_t)n;
	close(f);
	if (!drm_fdinfo_parse(buf, len, &c))
		return false;
	if (!strcmp(c.driver, "amdgpu"))
		d->pid_amdgpu = true;
	drm_add(d, &c);
	return true;
}

int drm_scan_pid(struct tp_drm *d, int procfd, pid_t pid)
{
	char path[32];
	struct fdcache *c;
	struct dirent *e;
	size_t j = 0, n = 0;
	DIR *dir;
	int dfd;

	d->pid_amdgpu = false;
	snprintf(path, sizeof(path), "%d/fd", (int)pid);
	dfd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 && (errno == EACCES || errno == EPERM)) {
		d->unreadable_now++;
		return -1;
	}
	if (dfd < 0 || !(dir = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		return 0;	/* gone */
	}
	c = pc_get(d, pid);
	while ((e = readdir(dir))) {
		int fd, drm;

		if (e->d_name[0] == '.')
			continue;
		fd = atoi(e->d_name);
		drm = cached(d, c, &j, fd);
		if (drm < 0)
			drm = is_drm(dfd, e->d_name);
		if (drm)
			drm = read_fdinfo(d, procfd, pid, e->d_name);
		scratch_put(d, n++, fd, drm);
	}
	closedir(dir);
	cache_take(d, c, n);
	return 0;
}

/* Process @pid's VRAM through KFD, a client per GPU. */
static void add_kfd(struct tp_drm *d, pid_t pid)
{
	struct tp_drm_client c[TP_DRM_DEVICES];
	unsigned i, n = kfd_read_pid(d->kfdfd, pid, c, TP_DRM_DEVICES);

	for (i = 0; i < n; i++)
		drm_add(d, &c[i]);
}

void drm_sample(struct tp_drm *d, const struct tp_ptree *t, double now)
{
	const struct tp_proc *p;

	if (!d || !d->scan)
		return;
	if (d->procfd < 0)
		d->procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->procfd < 0)
		return;
	if (d->kfdfd == -1) {
		d->kfdfd = open(TP_KFD_PROC, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (d->kfdfd < 0)
			d->kfdfd = -2;	/* no KFD: never looked for again */
	}
	drm_begin(d);
	for (p = t->live; p; p = p->next)
		if (drm_scan_pid(d, d->procfd, p->pid) == 0 && !d->pid_amdgpu && d->kfdfd >= 0)
			add_kfd(d, p->pid);
	drm_end(d, now);
}

bool drm_figures(const struct tp_drm *d, struct tp_gpu_figures *f)
{
	if (!d || d->ndev == 0)
		return false;
	*f = d->fig;
	return true;
}

unsigned drm_devices(const struct tp_drm *d, struct tp_drm_device_fig *out, unsigned max)
{
	unsigned i, k;

	if (!d)
		return 0;
	for (i = 0; i < d->ndev && i < max; i++) {
		const struct dev *v = &d->dev[i];

		memset(&out[i], 0, sizeof(out[i]));
		strcpy(out[i].pdev, v->pdev);
		strcpy(out[i].driver, v->driver);
		out[i].kfd = v->kfd;
		out[i].memory_mb = v->memory_mb;
		out[i].peak_memory_mb = v->peak_memory_mb;
		out[i].nengines = v->nengines;
		for (k = 0; k < v->nengines; k++) {
			strcpy(out[i].engine[k], v->engine[k]);
			out[i].busy_s[k] = v->busy_s[k];
		}
		out[i].nregions = v->nregions;
		for (k = 0; k < v->nregions; k++) {
			strcpy(out[i].region[k], v->region[k]);
			out[i].resident_mb[k] = v->reg_res_peak[k];
			out[i].total_mb[k] = v->reg_tot_peak[k];
			out[i].has_total[k] = v->reg_has_tot[k];
		}
	}
	return d->ndev;
}

unsigned drm_unreadable(const struct tp_drm *d)
{
	return d ? d->unreadable : 0;
}
