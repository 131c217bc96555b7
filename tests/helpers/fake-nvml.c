/* SPDX-License-Identifier: MIT */
/* fake-nvml: a stand-in for libnvidia-ml.so.1, built as a shared library
 * for the GPU tests (CI has no GPU).  It answers the NVML calls tpmon
 * makes from a script named by $TPMON_FAKE_NVML, read at nvmlInit:
 *   devices N                      N devices (default 1)
 *   accounting 0|1                 accounting mode of every device
 *   util 0|1                       per-process utilization (0: NOT_SUPPORTED)
 *   fail_after N                   after N process listings, every call
 *                                  fails with NVML_ERROR_GPU_IS_LOST
 *   proc DEV PIDFILE MEM_MB SM_PCT a compute process on device DEV while
 *                                  the pid written in PIDFILE is alive
 *   acct DEV PIDFILE MAX_MB UTIL_PCT TIME_MS
 *                                  its accounting record (start time: the
 *                                  mtime of PIDFILE), listed once the pid
 *                                  is written
 * Built twice: as is, it has nvmlDeviceGetComputeRunningProcesses_v3 and
 * its four-field record; with FAKE_NVML_V1, only the first version of the
 * call and its two-field record. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>

#define MAX_DEV 8
#define MAX_ENTRIES 64

enum { SUCCESS = 0, NOT_SUPPORTED = 3, NOT_FOUND = 6, INSUFFICIENT_SIZE = 7, GPU_IS_LOST = 15 };

struct entry {
	int acct;			/* an acct line, else a proc line */
	unsigned dev;
	char pidfile[1024];
	double mem_mb;
	unsigned pct;
	unsigned long long time_ms;
};

struct dev_st {
	unsigned index;
};

static struct dev_st devs[MAX_DEV];
static struct entry *entries;
static unsigned nentries, ndevs = 1;
static int accounting, util = 1;
static long fail_after = -1, listings;

#define EXPORT __attribute__((visibility("default")))

static int failing(void)
{
	return fail_after >= 0 && listings >= fail_after;
}

/* The pid written in @e's pid file (0: none yet), and whether that
 * process is alive (and not a zombie). */
static pid_t entry_pid(const struct entry *e, int *alive, unsigned long long *mtime_us)
{
	char path[64], buf[512];
	FILE *f = fopen(e->pidfile, "r");
	struct stat st;
	int pid = 0;
	char *rp;

	*alive = 0;
	if (!f)
		return 0;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	if (mtime_us && fstat(fileno(f), &st) == 0)
		*mtime_us = (unsigned long long)st.st_mtim.tv_sec * 1000000ull +
			    (unsigned long long)st.st_mtim.tv_nsec / 1000;
	fclose(f);
	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')) && rp[1] == ' ')
			*alive = rp[2] != 'Z' && rp[2] != 'X';
		fclose(f);
	}
	return pid;
}

static int parse_line(char *line)
{
	struct entry e;
	char kind[16];
	long v;

	memset(&e, 0, sizeof(e));
	if (sscanf(line, "devices %ld", &v) == 1 && v > 0 && v <= MAX_DEV) {
		ndevs = (unsigned)v;
		return 0;
	}
	if (sscanf(line, "accounting %ld", &v) == 1) {
		accounting = v != 0;
		return 0;
	}
	if (sscanf(line, "util %ld", &v) == 1) {
		util = v != 0;
		return 0;
	}
	if (sscanf(line, "fail_after %ld", &v) == 1) {
		fail_after = v;
		return 0;
	}
	if (sscanf(line, "%15s", kind) != 1 || kind[0] == '#')
		return 0;
	if (!strcmp(kind, "proc") &&
	    sscanf(line, "proc %u %1023s %lf %u", &e.dev, e.pidfile, &e.mem_mb, &e.pct) == 4) {
		e.acct = 0;
	} else if (!strcmp(kind, "acct") &&
		   sscanf(line, "acct %u %1023s %lf %u %llu", &e.dev, e.pidfile, &e.mem_mb,
			  &e.pct, &e.time_ms) == 5) {
		e.acct = 1;
	} else {
		fprintf(stderr, "fake-nvml: bad line: %s", line);
		return -1;
	}
	if (nentries == MAX_ENTRIES)
		return -1;
	entries[nentries++] = e;
	return 0;
}

EXPORT int nvmlInit_v2(void)
{
	const char *path = getenv("TPMON_FAKE_NVML");
	char line[2048];
	unsigned i;
	FILE *f;

	if (!path || !(f = fopen(path, "r")))
		return 9;	/* NVML_ERROR_DRIVER_NOT_LOADED */
	free(entries);
	entries = calloc(MAX_ENTRIES, sizeof(*entries));
	nentries = 0;
	while (entries && fgets(line, sizeof(line), f))
		if (parse_line(line) < 0)
			break;
	fclose(f);
	for (i = 0; i < MAX_DEV; i++)
		devs[i].index = i;
	return entries ? SUCCESS : 999;
}

EXPORT int nvmlShutdown(void)
{
	free(entries);
	entries = NULL;
	nentries = 0;
	return SUCCESS;
}

EXPORT const char *nvmlErrorString(int r)
{
	return r == GPU_IS_LOST ? "GPU is lost" : r == SUCCESS ? "Success" : "fake error";
}

EXPORT int nvmlDeviceGetCount_v2(unsigned *n)
{
	if (failing())
		return GPU_IS_LOST;
	*n = ndevs;
	return SUCCESS;
}

EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned i, struct dev_st **h)
{
	if (i >= ndevs)
		return 2;	/* NVML_ERROR_INVALID_ARGUMENT */
	*h = &devs[i];
	return SUCCESS;
}

#ifdef FAKE_NVML_V1
struct proc_info {
	unsigned pid;
	unsigned long long mem;
};
#define PROCS_SYMBOL nvmlDeviceGetComputeRunningProcesses
#else
struct proc_info {
	unsigned pid;
	unsigned long long mem;
	unsigned gi, ci;
};
#define PROCS_SYMBOL nvmlDeviceGetComputeRunningProcesses_v3
#endif

EXPORT int PROCS_SYMBOL(struct dev_st *h, unsigned *count, struct proc_info *out)
{
	unsigned i, n = 0;
	int alive;

	if (failing())
		return GPU_IS_LOST;
	listings++;
	for (i = 0; i < nentries; i++) {
		pid_t pid;

		if (entries[i].acct || entries[i].dev != h->index)
			continue;
		pid = entry_pid(&entries[i], &alive, NULL);
		if (!pid || !alive)
			continue;
		if (n < *count && out) {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].pid = (unsigned)pid;
			out[n].mem = (unsigned long long)(entries[i].mem_mb * 1048576.0);
		}
		n++;
	}
	if (n > *count) {
		*count = n;
		return INSUFFICIENT_SIZE;
	}
	*count = n;
	return SUCCESS;
}

struct util_sample {
	unsigned pid;
	unsigned long long ts;
	unsigned sm, mem, enc, dec;
};

EXPORT int nvmlDeviceGetProcessUtilization(struct dev_st *h, struct util_sample *out,
					   unsigned *count, unsigned long long last_seen)
{
	struct timeval tv;
	unsigned long long now;
	unsigned i, n = 0;
	int alive;

	if (failing())
		return GPU_IS_LOST;
	if (!util)
		return NOT_SUPPORTED;
	gettimeofday(&tv, NULL);
	now = (unsigned long long)tv.tv_sec * 1000000ull + (unsigned long long)tv.tv_usec;
	if (now <= last_seen)
		return NOT_FOUND;
	for (i = 0; i < nentries; i++) {
		pid_t pid;

		if (entries[i].acct || entries[i].dev != h->index)
			continue;
		pid = entry_pid(&entries[i], &alive, NULL);
		if (!pid || !alive)
			continue;
		if (n < *count && out) {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].pid = (unsigned)pid;
			out[n].ts = now;
			out[n].sm = entries[i].pct;
		}
		n++;
	}
	if (n == 0)
		return NOT_FOUND;
	if (n > *count) {
		*count = n;
		return INSUFFICIENT_SIZE;
	}
	*count = n;
	return SUCCESS;
}

EXPORT int nvmlDeviceGetAccountingMode(struct dev_st *h, int *mode)
{
	(void)h;
	if (failing())
		return GPU_IS_LOST;
	*mode = accounting;
	return SUCCESS;
}

EXPORT int nvmlDeviceGetAccountingPids(struct dev_st *h, unsigned *count, unsigned *pids)
{
	unsigned i, n = 0;
	int alive;

	if (failing())
		return GPU_IS_LOST;
	if (!accounting)
		return NOT_SUPPORTED;
	for (i = 0; i < nentries; i++) {
		pid_t pid;

		if (!entries[i].acct || entries[i].dev != h->index)
			continue;
		pid = entry_pid(&entries[i], &alive, NULL);
		if (!pid)
			continue;
		if (n < *count && pids)
			pids[n] = (unsigned)pid;
		n++;
	}
	if (n > *count) {
		*count = n;
		return INSUFFICIENT_SIZE;
	}
	*count = n;
	return SUCCESS;
}

struct acct_stats {
	unsigned gpu_util, mem_util;
	unsigned long long max_mem, time, start;
	unsigned running;
	unsigned reserved[5];
};

EXPORT int nvmlDeviceGetAccountingStats(struct dev_st *h, unsigned pid, struct acct_stats *st)
{
	unsigned i;
	int alive;

	if (failing())
		return GPU_IS_LOST;
	for (i = 0; i < nentries; i++) {
		unsigned long long mtime = 0;

		if (!entries[i].acct || entries[i].dev != h->index ||
		    entry_pid(&entries[i], &alive, &mtime) != (pid_t)pid)
			continue;
		memset(st, 0, sizeof(*st));
		st->gpu_util = entries[i].pct;
		st->max_mem = (unsigned long long)(entries[i].mem_mb * 1048576.0);
		st->time = entries[i].time_ms;
		st->start = mtime;
		st->running = (unsigned)alive;
		return SUCCESS;
	}
	return NOT_FOUND;
}
