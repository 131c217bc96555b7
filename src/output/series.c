/* SPDX-License-Identifier: MIT */
/* series.c: the time series files.  TEMPLATE.series has resource_monitor's
 * columns and units, then tpmon's own (gpus, gpu_memory, gpu_cores,
 * memory_pss), and in a run with a cgroup the table's kernel columns (the
 * PSI totals: basic/figtable.h).  In cctools mode TEMPLATE.series is exactly what cctools'
 * resource_monitor writes (its header, its 15 columns, or 13 without the
 * disk footprint, its decimals), for scripts that read Makeflow's monitor
 * directories by position; the 19-column file is TEMPLATE.tpmon.series. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic/messages.h"
#include "basic/outfile.h"
#include "output/series.h"
#include "basic/xmalloc.h"

struct tp_series {
	struct tp_outfile *f;
	unsigned long lines, lost;	/* sample lines tried, lost */
	bool headless;		/* the header is not written yet */
	const char *head;	/* the header of this file */
	char *own_head;		/* it, when made for this run (owned) */
	bool kernel;		/* with the table's kernel columns */
	struct tp_series *cct;	/* cctools mode: the cctools-shaped .series */
	bool disk;		/* cctools-shaped: with total_files and disk */
};

static const char header[] =
	"# Units:\n"
	"# wall_clock in seconds since the epoch; cpu_time in seconds\n"
	"# virtual, resident and swap memory in megabytes.\n"
	"# disk in megabytes.\n"
	"# bandwidth in Mbps (sent + received over the last 5 s).\n"
	"# bytes_received and bytes_sent in megabytes, over TCP (IPv4 and IPv6, loopback included).\n"
	"# cpu_time, bytes_read, bytes_written, bytes_sent, and bytes_received show cummulative values.\n"
	"# wall_clock, max_concurrent_processes, virtual, resident, swap, files, and disk show values at the sample point.\n"
	"# nan: unknown (bytes_received, bytes_sent and bandwidth without sock_diag, bandwidth\n"
	"# until its window is full, total_files and disk until the first walk or without it,\n"
	"# machine_load when /proc/loadavg is unreadable, the GPU columns without NVML).\n"
	"# gpus: distinct GPUs used so far; gpu_memory in megabytes and gpu_cores (SM utilization,\n"
	"# in GPUs) at the sample.\n"
	"# memory_pss (MB): the sum of each live process's latest PSS, at most its RSS (nan with none).\n"
	"#wall_clock cpu_time cores max_concurrent_processes virtual_memory memory swap_memory "
	"bytes_read bytes_written bytes_received bytes_sent bandwidth machine_load total_files disk "
	"gpus gpu_memory gpu_cores memory_pss\n";

/* resource_monitor's header (rmonitor_summary_header() in cctools'
 * resource_monitor.c), with and without the disk columns. */
#define CCT_HEADER \
	"# Units:\n" \
	"# wall_clock and cpu_time in seconds\n" \
	"# virtual, resident and swap memory in megabytes.\n" \
	"# disk in megabytes.\n" \
	"# bandwidth in Mbps.\n" \
	"# cpu_time, bytes_read, bytes_written, bytes_sent, and bytes_received show cummulative values.\n" \
	"# wall_clock, max_concurrent_processes, virtual, resident, swap, files, and disk show values at the sample point.\n" \
	"#wall_clock cpu_time cores max_concurrent_processes virtual_memory memory swap_memory " \
	"bytes_read bytes_written bytes_received bytes_sent bandwidth machine_load"
static const char cct_header_disk[] = CCT_HEADER
	/* " %25s %25s", "total_files", "disk" */
	"               total_files                      disk\n";
static const char cct_header[] = CCT_HEADER "\n";

/* The figures whose columns follow memory_pss in a run with a cgroup. */
static bool kernel_column(int f)
{
	return fig_info(f)->place == TP_FIGP_KERNEL && fig_info(f)->series;
}

/* tpmon's header with the kernel columns after memory_pss (malloc'd). */
static char *kernel_header(void)
{
	const char *cols = strstr(header, "#wall_clock");
	char *s = xasprintf("%.*s# the cgroup's PSI totals (*_pressure_some, *_pressure_full) in us "
			    "stalled (nan: no such file).\n%.*s", (int)(cols - header), header,
			    (int)strlen(cols) - 1, cols);
	char *more;
	int f;

	for (f = 0; f < TP_FIG__COUNT; f++)
		if (kernel_column(f)) {
			more = xasprintf("%s %s", s, fig_info(f)->series);
			free(s);
			s = more;
		}
	more = xasprintf("%s\n", s);
	free(s);
	return more;
}

static struct tp_series *open_one(const char *template, const char *suffix,
				  const char *head, bool kernel)
{
	struct tp_outfile *f = outfile_open_output(template, suffix);
	struct tp_series *se;

	if (!f)
		return NULL;
	se = xcalloc(1, sizeof(*se));
	se->f = f;
	se->kernel = kernel;
	if (kernel)
		head = se->own_head = kernel_header();
	se->head = head;
	se->headless = outfile_append(f, head, strlen(head)) < 0;
	return se;
}

struct tp_series *series_open(const char *template, bool cctools, bool disk, bool kernel)
{
	struct tp_series *se, *cct = NULL;

	if (cctools) {
		cct = open_one(template, "series", disk ? cct_header_disk : cct_header, false);
		if (!cct)
			return NULL;
		cct->disk = disk;
	}
	se = open_one(template, cctools ? "tpmon.series" : "series", header, kernel);
	if (!se) {
		series_close(cct);
		return NULL;
	}
	se->cct = cct;
	return se;
}

/* Append one line, after the header if that could not be written yet
 * (the disk was full at the start): readers need its column names. */
static int append(struct tp_series *se, const char *line, size_t len)
{
	char *both;
	int r;

	if (!se->headless)
		return outfile_append(se->f, line, len);
	both = xasprintf("%s%.*s", se->head, (int)len, line);
	r = outfile_append(se->f, both, strlen(both));
	free(both);
	se->headless = r < 0;
	return r;
}

/* A column of @v with @decimals, "nan" when it is not @known: an unknown
 * value is never written as 0. */
struct col { char s[40]; };

static const char *col(struct col *c, bool known, double v, int decimals)
{
	if (known)
		snprintf(c->s, sizeof(c->s), "%.*f", decimals, v);
	else
		snprintf(c->s, sizeof(c->s), "nan");
	return c->s;
}

/* The columns that may be unknown, as both files write them. */
enum { C_RECV, C_SENT, C_BW, C_LOAD, C_FILES, C_DISK, C_GPUS, C_GPU_MEM, C_GPU_CORES,
       C__COUNT };

static void unknowable(struct col *c, const struct tp_figures *f, int net_decimals)
{
	const struct tp_summary *rep = f->rep;
	const double *cur = f->cur;

	col(&c[C_RECV], rep->known[TP_RES_BYTES_RECEIVED], cur[TP_RES_BYTES_RECEIVED], net_decimals);
	col(&c[C_SENT], rep->known[TP_RES_BYTES_SENT], cur[TP_RES_BYTES_SENT], net_decimals);
	/* bandwidth: a rate once its window is full */
	col(&c[C_BW], rep->known[TP_RES_BANDWIDTH] && f->cur_known[TP_RES_BANDWIDTH],
	    cur[TP_RES_BANDWIDTH], 3);
	col(&c[C_LOAD], rep->load_known, rep->machine_load, 0);
	col(&c[C_FILES], rep->known[TP_RES_TOTAL_FILES], cur[TP_RES_TOTAL_FILES], 0);
	col(&c[C_DISK], rep->known[TP_RES_DISK], cur[TP_RES_DISK], 0);
	col(&c[C_GPUS], rep->known[TP_RES_GPUS], cur[TP_RES_GPUS], 0);
	col(&c[C_GPU_MEM], rep->known[TP_RES_GPU_MEMORY], cur[TP_RES_GPU_MEMORY], 3);
	col(&c[C_GPU_CORES], rep->known[TP_RES_GPUS], rep->gpu_cores_now, 3);
}

/* One line of the cctools-shaped file: rmonitor_log_row()'s columns with
 * the decimals of cctools' rmsummary_resource_to_str(); "nan" where
 * tpmon does not know the value (resource_monitor measures them all). */
static void add_cctools(struct tp_series *se, const struct tp_sample *s,
			const struct tp_figures *f)
{
	const struct tp_summary *rep = f->rep;
	struct col c[C__COUNT];
	char line[2048], disk[256] = "";
	int n;

	unknowable(c, f, 0);
	if (se->disk)
		snprintf(disk, sizeof(disk), " %s %s", c[C_FILES].s, c[C_DISK].s);
	n = snprintf(line, sizeof(line), "%.6f %.6f %.3f %u %.0f %.0f %.0f %.0f %.0f %s %s %s %s%s\n",
		rep->start + s->t, s->cpu_s, f->cur[TP_RES_CORES], s->nprocs,
		s->vm_mb, s->rss_mb, s->swap_mb,
		(double)s->acct.io.read_bytes / 1048576.0,
		(double)s->acct.io.write_bytes / 1048576.0,
		c[C_RECV].s, c[C_SENT].s, c[C_BW].s, c[C_LOAD].s, disk);
	se->lines++;
	if (n <= 0 || (size_t)n >= sizeof(line) || append(se, line, (size_t)n) < 0)
		se->lost++;
}

/* The kernel columns of @rep, " N" or " nan" each, into @buf. */
static const char *kernel_columns(const struct tp_summary *rep, char *buf, size_t size)
{
	size_t len = 0;
	int f;

	buf[0] = '\0';
	for (f = 0; f < TP_FIG__COUNT && len < size; f++) {
		struct col c;
		double v;
		bool known;

		if (!kernel_column(f))
			continue;
		known = figures_value(rep, f, &v);	/* before v is read */
		col(&c, known, v, fig_info(f)->decimals);
		len += (size_t)snprintf(buf + len, size - len, " %s", c.s);
	}
	return buf;
}

void series_add(struct tp_series *se, const struct tp_sample *s, const struct tp_figures *f)
{
	const struct tp_summary *rep = f->rep;
	struct col c[C__COUNT];
	/* 19 fields of at most ~100 characters, and the kernel's */
	char line[4096], pss[32] = "nan", kernel[1024];
	int n;

	if (!se)
		return;
	if (se->cct)
		add_cctools(se->cct, s, f);
	if (s->nprocs > 0)
		snprintf(pss, sizeof(pss), "%.1f", s->pss_mb);
	unknowable(c, f, 3);
	/* one write per line: a full disk loses whole lines, never halves */
	n = snprintf(line, sizeof(line), "%.6f %.6f %.3f %u %.0f %.0f %.0f %.0f %.0f %s %s %s %s %s %s "
		"%s %s %s %s%s\n",
		rep->start + s->t, s->cpu_s, f->cur[TP_RES_CORES], s->nprocs,
		s->vm_mb, s->rss_mb, s->swap_mb,
		(double)s->acct.io.read_bytes / 1048576.0,
		(double)s->acct.io.write_bytes / 1048576.0,
		c[C_RECV].s, c[C_SENT].s, c[C_BW].s, c[C_LOAD].s, c[C_FILES].s, c[C_DISK].s,
		c[C_GPUS].s, c[C_GPU_MEM].s, c[C_GPU_CORES].s, pss,
		se->kernel ? kernel_columns(rep, kernel, sizeof(kernel)) : "");
	se->lines++;
	if (n <= 0 || (size_t)n >= sizeof(line) || append(se, line, (size_t)n) < 0)
		se->lost++;
}

void series_close(struct tp_series *se)
{
	if (!se)
		return;
	series_close(se->cct);
	if (se->lost)
		warn_msg("%s: %lu of %lu sample lines could not be written (%s)",
			 outfile_path(se->f), se->lost, se->lines,
			 outfile_error(se->f) ? strerror(outfile_error(se->f)) : "too long");
	outfile_close(se->f);
	free(se->own_head);
	free(se);
}
