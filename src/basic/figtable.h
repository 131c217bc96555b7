/* SPDX-License-Identifier: MIT */
/* figtable.h: the one table of the figures a run reports.  Each row says
 * how a figure is named and written everywhere: its summary key and unit,
 * the kind of value, its column in the time series, whether cctools'
 * parser reads it, its live name in base units, its column in the
 * report's CSV, and which rule decides that it is a lower bound.  The
 * monitor (summary, cctools view, series, live point, quality) and the
 * report (readers and writers) both iterate over it: a new figure is a
 * reader plus a row.  No I/O. */
#ifndef TPMON_FIGTABLE_H
#define TPMON_FIGTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include "basic/resources.h"

/* The figures: the limitable resources (enum tp_res, the same numbers),
 * then the others.  The summary writes them section by section (enum
 * tp_fig_place), each in this order. */
enum tp_fig {
	TP_FIG_CORES_AVG = TP_RES__COUNT,
	TP_FIG_MEMORY_PSS,
	TP_FIG_GPU_CORES,
	TP_FIG_GPU_CORES_AVG,
	TP_FIG_GPU_TIME,
	TP_FIG_RCHAR,
	TP_FIG_WCHAR,
	TP_FIG_SYSCR,
	TP_FIG_SYSCW,
	TP_FIG_READ_BYTES,
	TP_FIG_WRITE_BYTES,
	/* the task's input (measure/opens.h) */
	TP_FIG_INPUT_SIZE,
	TP_FIG_INPUT_FILES,
	TP_FIG_MAX_CONCURRENT_THREADS,
	TP_FIG_CONTEXT_SWITCHES,
	TP_FIG_MACHINE_CPUS,
	TP_FIG_MACHINE_LOAD,
	TP_FIG_LEFTOVER_PROCESSES,
	TP_FIG_MEMORY_CGROUP,
	TP_FIG_CPU_PRESSURE_SOME,	/* PSI: the cgroup's stall totals */
	TP_FIG_CPU_PRESSURE_FULL,
	TP_FIG_MEMORY_PRESSURE_SOME,
	TP_FIG_MEMORY_PRESSURE_FULL,
	TP_FIG_IO_PRESSURE_SOME,
	TP_FIG_IO_PRESSURE_FULL,
	/* issue 44: the device memory the kernel charged to the cgroup */
	TP_FIG_GPU_MEMORY_CGROUP,
	TP_FIG__COUNT
};

/* What one value of a figure is. */
enum tp_fig_agg {
	TP_AGG_PEAK,		/* the largest value seen */
	TP_AGG_TOTAL,		/* a counter: the sum so far */
	TP_AGG_AVERAGE,		/* a mean over the run */
	TP_AGG_NOW,		/* the value at the end */
};

/* The rule that says whether a run's figure is a lower bound
 * (measure/quality.c decides each rule from what the run knows). */
enum tp_fig_quality {
	TP_Q_EXACT,		/* never a lower bound */
	TP_Q_COUNTS,		/* process counts: births missed */
	TP_Q_CPU,		/* CPU time of processes whose end was not seen */
	TP_Q_READS,		/* storage reads: idem, unless io.stat */
	TP_Q_WRITES,		/* storage writes: idem */
	TP_Q_CHARS_IO,		/* /proc/PID/io's character counters */
	TP_Q_CALLS_IO,		/* /proc/PID/io's syscall counters (taskstats
				 * rounds them down to 1024) */
	TP_Q_SAMPLED,		/* peaks of sums that only samples see */
	TP_Q_NET,		/* a socket missed between samples */
	TP_Q_GPU,		/* a GPU process missed */
	TP_Q_DISK,		/* the disk walk could not read everything */
	TP_Q_CGROUP,		/* the cgroup's own files: a process that left
				 * the cgroup is in none of them */
	TP_Q_INPUT,		/* open calls of the tree missed */
	TP_Q_DMEM,		/* dmem.current's peak: read at samples only */
	TP_Q__COUNT
};

/* Where the summary writes a figure: its sections, in order. */
enum tp_fig_place {
	TP_FIGP_RES,		/* the resources, then the threads */
	TP_FIGP_USE,		/* averages, PSS, GPU utilization */
	TP_FIGP_MACHINE,	/* context switches, the machine, leftovers */
	TP_FIGP_IO,		/* /proc/PID/io's counters */
	TP_FIGP_KERNEL,		/* after lower_bounds: the cgroup's own figures */
	TP_FIGP__COUNT
};

struct tp_fig_info {
	const char *name;	/* summary key, e.g. "memory" */
	const char *unit;	/* summary unit, e.g. "MB" */
	enum tp_unit_kind kind;	/* how a value is written and read */
	bool zero_ok;		/* resources: is a limit of 0 meaningful? */
	int decimals;		/* in the summary */
	enum tp_fig_agg agg;
	enum tp_fig_place place;
	bool cctools;		/* cctools' rmsummary parser reads it */
	const char *series;	/* its column in TEMPLATE.series, or NULL */
	const char *live;	/* base-unit name in the live formats, or NULL */
	double live_factor;	/* summary unit -> live base unit */
	const char *csv;	/* the report's CSV column, unit in the name */
	enum tp_fig_quality quality;
};

/* The figures the report holds for each task, in the order it shows
 * them: X(NAME, FIGURE, KIND, OPTIONAL, BUCKET).  KIND is how the report
 * reads a value (gpus: a share may be fractional in engines' summaries),
 * OPTIONAL: shown only when some task has a value, BUCKET: cctools'
 * histogram bucket size (0: none).  The report's enum rp_res
 * (report/read/rtask.h) and its table are made from this list: a figure
 * that the report shows is its row and one line here. */
#define TP_REPORT_FIGURES(X) \
	X(CORES, TP_RES_CORES, TP_UNIT_CORES, false, 1) \
	X(MEMORY, TP_RES_MEMORY, TP_UNIT_SIZE, false, 250) \
	X(MEMORY_PSS, TP_FIG_MEMORY_PSS, TP_UNIT_SIZE, true, 0) \
	X(DISK, TP_RES_DISK, TP_UNIT_SIZE, false, 250) \
	X(WALL_TIME, TP_RES_WALL_TIME, TP_UNIT_TIME, false, 0) \
	X(CPU_TIME, TP_RES_CPU_TIME, TP_UNIT_TIME, false, 0) \
	X(BYTES_READ, TP_RES_BYTES_READ, TP_UNIT_SIZE, false, 0) \
	X(BYTES_WRITTEN, TP_RES_BYTES_WRITTEN, TP_UNIT_SIZE, false, 0) \
	X(GPUS, TP_RES_GPUS, TP_UNIT_CORES, true, 1) \
	X(BYTES_RECEIVED, TP_RES_BYTES_RECEIVED, TP_UNIT_SIZE, true, 0) \
	X(BYTES_SENT, TP_RES_BYTES_SENT, TP_UNIT_SIZE, true, 0) \
	X(GPU_MEMORY, TP_RES_GPU_MEMORY, TP_UNIT_SIZE, true, 0) \
	X(GPU_TIME, TP_FIG_GPU_TIME, TP_UNIT_TIME, true, 0) \
	X(CPU_PRESSURE_SOME, TP_FIG_CPU_PRESSURE_SOME, TP_UNIT_TIME, true, 0) \
	X(CPU_PRESSURE_FULL, TP_FIG_CPU_PRESSURE_FULL, TP_UNIT_TIME, true, 0) \
	X(MEMORY_PRESSURE_SOME, TP_FIG_MEMORY_PRESSURE_SOME, TP_UNIT_TIME, true, 0) \
	X(MEMORY_PRESSURE_FULL, TP_FIG_MEMORY_PRESSURE_FULL, TP_UNIT_TIME, true, 0) \
	X(IO_PRESSURE_SOME, TP_FIG_IO_PRESSURE_SOME, TP_UNIT_TIME, true, 0) \
	X(IO_PRESSURE_FULL, TP_FIG_IO_PRESSURE_FULL, TP_UNIT_TIME, true, 0)

/* A column of TEMPLATE.series: its figure (the name is the row's series
 * column), or TP_SERIES_WALL_CLOCK, and its decimals there and in the
 * cctools-shaped file (those of cctools' rmsummary_resource_to_str()). */
#define TP_SERIES_WALL_CLOCK (-1)
struct tp_series_col {
	int fig;
	int decimals, cctools_decimals;
};

/* The base columns of TEMPLATE.series in their order: resource_monitor's
 * 13 (rmonitor_log_row()), its 2 disk columns, then tpmon's 4; @n gets
 * their number.  A cctools-shaped file has the first 13 or 15. */
const struct tp_series_col *fig_series_columns(size_t *n);
enum { TP_SERIES_CCTOOLS = 13, TP_SERIES_CCTOOLS_DISK = 15 };

/* The name of series column @c. */
const char *fig_series_name(const struct tp_series_col *c);

/* The row of figure @f (< TP_FIG__COUNT). */
const struct tp_fig_info *fig_info(enum tp_fig f);

/* What one summary unit of figure @f is in the base unit of its kind
 * (TP_UNIT_TIME: s, TP_UNIT_SIZE: MB, cores and counts: 1): 1e-6 for the
 * pressure totals, kept in us.  The report's one conversion: what it
 * shows people is a value times this. */
double fig_base_factor(enum tp_fig f);

/* The figure whose summary key is @name, or -1. */
int fig_by_name(const char *name);

/* Does cctools' parser read @name as a resource ([value, "unit"])?  The
 * figures it reads, and its other resource names (start, end, fs_nodes,
 * workers) that tpmon's table has no row for. */
bool fig_cctools_resource(const char *name);

/* Is @name one of those other names (not a row of the table)? */
bool fig_cctools_extra(const char *name);

#endif
