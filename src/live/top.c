/* SPDX-License-Identifier: MIT */
/* top.c: `tpmon top` (see top.h), in the conventions of systemd-cgtop:
 * -d the delay, -n the number of refreshes, -b plain lines (also when
 * stdout is no terminal, then once by default), sort keys -p (pid), -t
 * (processes), -c (cores), -m (memory), -i (I/O), also as keys on the
 * terminal, with q to quit.  Plain ANSI codes and termios, no curses.
 * Each task's text goes through safetext: it cannot move the cursor. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "live/livedir.h"
#include "live/liveread.h"
#include "basic/figtable.h"
#include "basic/safetext.h"
#include "basic/editdist.h"
#include "live/top.h"
#include "basic/units.h"
#include "basic/xmalloc.h"

enum sort_key { SORT_PID, SORT_PROCS, SORT_CORES, SORT_MEMORY, SORT_IO };

struct top_opts {
	bool batch, all;
	long iterations;		/* <0: forever */
	double delay;
	enum sort_key sort;
	const char *dir;
};

static volatile sig_atomic_t stop_now;

static void on_stop(int sig)
{
	stop_now = 1;
}

/* @v bytes as "123.4M" into @buf ("-" if unknown). */
static const char *size_text(double v, char *buf, size_t len)
{
	static const char units[] = "BKMGTP";
	int i = 0;

	if (v < 0)
		return "-";
	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, i ? "%.1f%c" : "%.0f%c", v, units[i]);
	return buf;
}

static const char *time_text(double s, char *buf, size_t len)
{
	long t = (long)s;

	if (s < 0)
		return "-";
	if (t < 60)
		snprintf(buf, len, "%.1fs", s);
	else if (t < 3600)
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	return buf;
}

static double io_rate(const struct tp_liverun *r)
{
	return (r->read_rate > 0 ? r->read_rate : 0) + (r->write_rate > 0 ? r->write_rate : 0);
}

static enum sort_key sort_by;

static int compare(const void *a, const void *b)
{
	const struct tp_liverun *x = a, *y = b;
	double dx = 0, dy = 0;

	switch (sort_by) {
	case SORT_PID: return (x->pid > y->pid) - (x->pid < y->pid);
	case SORT_PROCS: dx = x->processes; dy = y->processes; break;
	case SORT_CORES: dx = x->cores; dy = y->cores; break;
	case SORT_MEMORY: dx = x->memory; dy = y->memory; break;
	case SORT_IO: dx = io_rate(x); dy = io_rate(y); break;
	}
	if (dx != dy)
		return dx < dy ? 1 : -1;	/* largest first */
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The columns before the task's text, in order; @drop ranks them for a
 * narrow terminal (1 goes first, 0 never). */
enum col { C_PID, C_ELAPSED, C_CORES, C_MEAN, C_MEMORY, C_PEAK, C_LIMIT, C_READ, C_WRITE,
	   C_NET, C_PROCS, C_GPU, C__COUNT };

static const struct {
	const char *name;
	int width, drop;
} cols[C__COUNT] = {
	[C_PID] = { "PID", 7, 0 },	 [C_ELAPSED] = { "ELAPSED", 9, 9 },
	[C_CORES] = { "CORES", 5, 0 },	 [C_MEAN] = { "MEAN", 5, 4 },
	[C_MEMORY] = { "MEMORY", 8, 0 }, [C_PEAK] = { "PEAK", 8, 5 },
	[C_LIMIT] = { "LIMIT", 8, 2 },	 [C_READ] = { "READ/s", 8, 7 },
	[C_WRITE] = { "WRITE/s", 8, 6 }, [C_NET] = { "NET/s", 8, 3 },
	[C_PROCS] = { "PROCS", 6, 8 },	 [C_GPU] = { "GPU", 7, 1 },
};

/* The least room the task's text gets on a terminal before columns drop. */
#define TASK_MIN 20

/* The columns shown and the room left for the task's text. */
struct layout {
	bool on[C__COUNT];
	size_t text_max;
	int sorted;		/* the column marked as the sort key, -1 none */
};

/* All columns and 200 bytes of text for @width 0 (batch lines with no
 * COLUMNS); else the columns that leave the text TASK_MIN, least useful
 * dropped first.  The sort column is marked on a terminal (@term). */
static void layout_make(struct layout *l, size_t width, enum sort_key sort, bool term)
{
	static const int sort_col[] = { C_PID, C_PROCS, C_CORES, C_MEMORY, C_READ };
	size_t used = 2;	/* the two spaces before TASK */
	int c, rank;

	for (c = 0; c < C__COUNT; c++) {
		l->on[c] = true;
		used += (size_t)cols[c].width + (c > 0);
	}
	for (rank = 1; width && rank <= 9 && used + TASK_MIN > width; rank++)
		for (c = 0; c < C__COUNT; c++)
			if (cols[c].drop == rank) {
				l->on[c] = false;
				used -= (size_t)cols[c].width + 1;
			}
	l->text_max = !width ? 200 : width > used + 8 ? width - used : 8;
	l->sorted = term ? sort_col[sort] : -1;
}

/* A line of the columns shown: @cell[c] for each, then @task. */
static void put_line(FILE *f, const struct layout *l, char cell[C__COUNT][24], const char *task)
{
	const char *sep = "";
	int c;

	for (c = 0; c < C__COUNT; c++) {
		if (!l->on[c])
			continue;
		fprintf(f, "%s%*s", sep, cols[c].width, cell[c]);
		sep = " ";
	}
	fprintf(f, "  %s", task);
}

/* The header; on a terminal in reverse video across @width, the sort
 * column marked with '*'. */
static void print_header(FILE *f, const struct layout *l, size_t width)
{
	char cell[C__COUNT][24];
	int c;

	for (c = 0; c < C__COUNT; c++)
		snprintf(cell[c], sizeof(cell[c]), "%s%s", c == l->sorted ? "*" : "", cols[c].name);
	if (width)
		fputs("\033[7m", f);
	put_line(f, l, cell, width ? "TASK" : "TASK\n");
	if (width) {
		size_t used = width - l->text_max + 4;

		fprintf(f, "%*s\033[0m\n", (int)(width > used ? width - used : 0), "");
	}
}

/* A cell (24 bytes) of @v bytes, of @v seconds. */
static void put_size(char *cell, double v)
{
	char b[24];

	snprintf(cell, 24, "%s", size_text(v, b, sizeof(b)));
}

static void put_time(char *cell, double v)
{
	char b[24];

	snprintf(cell, 24, "%s", time_text(v, b, sizeof(b)));
}

static void print_run(FILE *f, const struct layout *l, const struct tp_liverun *r)
{
	char cell[C__COUNT][24];
	const char *text = r->category ? r->category : r->command ? r->command : "?";
	const char *mark = r->stale ? "[stale] " : r->state && strcmp(r->state, "running") ?
			   "[stopping] " : "";
	char *whole = xasprintf("%s%s", mark, text);
	char *shown = safetext_clip(whole, l->text_max < 8 ? 8 : l->text_max);

	snprintf(cell[C_PID], 24, "%d", (int)r->pid);
	if (r->cores >= 0)
		snprintf(cell[C_CORES], 24, "%.2f", r->cores);
	else
		snprintf(cell[C_CORES], 24, "-");
	snprintf(cell[C_MEAN], 24, "%.2f", r->elapsed > 0 && r->cpu_seconds >= 0 ?
		 r->cpu_seconds / r->elapsed : 0.0);
	snprintf(cell[C_PROCS], 24, "%.0f", r->processes >= 0 ? r->processes : 0);
	put_time(cell[C_ELAPSED], r->elapsed);
	put_size(cell[C_MEMORY], r->memory);
	put_size(cell[C_PEAK], r->memory_peak);
	put_size(cell[C_LIMIT], r->memory_limit);
	put_size(cell[C_READ], r->read_rate);
	put_size(cell[C_WRITE], r->write_rate);
	put_size(cell[C_NET], r->net_rate);
	put_size(cell[C_GPU], r->gpu_memory);
	put_line(f, l, cell, shown);
	fputc('\n', f);
	free(whole);
	free(shown);
}

/* On a terminal, under the tasks: their cores and memory added up. */
static void print_total(FILE *f, const struct layout *l, double cores, double memory,
			unsigned n)
{
	char cell[C__COUNT][24], task[32];
	int c;

	for (c = 0; c < C__COUNT; c++)
		cell[c][0] = '\0';
	snprintf(cell[C_PID], 24, "total");
	snprintf(cell[C_CORES], 24, "%.2f", cores);
	put_size(cell[C_MEMORY], memory);
	snprintf(task, sizeof(task), "%u task%s", n, n == 1 ? "" : "s");
	put_line(f, l, cell, task);
	fputc('\n', f);
}

/* The width of the terminal on stdout, or 0 if it is none. */
static size_t term_width(void)
{
	struct winsize ws;

	return ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col ? ws.ws_col : 0;
}

/* Batch lines: the width COLUMNS gives (a script that sets it, as for
 * procps' top -b), else 0: every column, whole. */
static size_t columns_env(void)
{
	const char *s = getenv("COLUMNS");
	char *end;
	long v = s ? strtol(s, &end, 10) : 0;

	return s && *s && !*end && v >= 20 && v <= 4096 ? (size_t)v : 0;
}

/* One screen (or one batch of lines): 0, or -1 if the directory cannot
 * be read. */
static int show(const struct top_opts *t, bool term)
{
	struct tp_liverun *runs;
	struct layout l;
	size_t n, i, width = term ? term_width() : columns_env();
	double cores = 0, memory = 0;
	unsigned shown = 0;

	if (liveread_dir(t->dir, &runs, &n) < 0 && errno != ENOENT) {
		fprintf(stderr, "tpmon top: %s: %s\n", t->dir, strerror(errno));
		return -1;
	}
	sort_by = t->sort;
	if (n)
		qsort(runs, n, sizeof(*runs), compare);
	/* a terminal whose width is unknown: 80 columns */
	if (term && !width)
		width = 80;
	layout_make(&l, width, t->sort, term);
	if (term)
		fputs("\033[H\033[2J", stdout);
	print_header(stdout, &l, term ? width : 0);
	for (i = 0; i < n; i++) {
		if (runs[i].stale && !t->all)
			continue;
		print_run(stdout, &l, &runs[i]);
		cores += runs[i].cores > 0 ? runs[i].cores : 0;
		memory += runs[i].memory > 0 ? runs[i].memory : 0;
		shown++;
	}
	/* none: say where they were looked for (a tpmon of another user, or
	 * with another TPMON_RUNTIME_DIR, writes elsewhere) */
	if (!shown)
		fprintf(term ? stdout : stderr, "%sno task: no runtime file of a running tpmon in %s%s",
			term ? "" : "tpmon top: ", t->dir, term ? "\n\n" : "\n");
	if (term) {
		print_total(stdout, &l, cores, memory, shown);
		printf("\nsort: %s  (p t c m i: sort, q: quit)\n", (const char *[]){ "pid",
		       "processes", res_info(TP_RES_CORES)->name, res_info(TP_RES_MEMORY)->name,
		       "I/O" }[t->sort]);
	}
	fflush(stdout);
	liveread_free(runs, n);
	return 0;
}

static struct termios saved_tio;
static bool tio_saved;

static void term_restore(void)
{
	if (tio_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	fputs("\033[?25h", stdout);
	fflush(stdout);
}

static void term_raw(void)
{
	struct termios tio;

	if (tcgetattr(STDIN_FILENO, &saved_tio) == 0) {
		tio_saved = true;
		tio = saved_tio;
		tio.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		tio.c_cc[VMIN] = 1;
		tio.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &tio);
	}
	fputs("\033[?25l", stdout);	/* no cursor */
}

/* Wait up to @delay s for a key; apply it.  false: quit. */
static bool wait_key(struct top_opts *t, double delay)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char c;

	if (poll(&p, 1, (int)(delay * 1000)) <= 0 || read(STDIN_FILENO, &c, 1) != 1)
		return !stop_now;
	switch (c) {
	case 'q': case 'Q': return false;
	case 'p': t->sort = SORT_PID; break;
	case 't': t->sort = SORT_PROCS; break;
	case 'c': t->sort = SORT_CORES; break;
	case 'm': t->sort = SORT_MEMORY; break;
	case 'i': t->sort = SORT_IO; break;
	default: break;
	}
	return !stop_now;
}

static void top_usage(void)
{
	printf("Usage: tpmon top [-b] [-n N] [-d SECONDS] [-a] [-p|-t|-c|-m|-i]\n"
	       "The tasks that tpmon runs for this user now, from their runtime files.\n"
	       "  -b, --batch           plain lines, no terminal codes (the default when\n"
	       "                        stdout is not a terminal; then -n 1 by default)\n"
	       "  -n, --iterations=N    refresh N times, then exit\n"
	       "  -d, --delay=SECONDS   between refreshes (default 1)\n"
	       "  -a, --all             also the files of tpmons that are gone (stale)\n"
	       "  -p, -t, -c, -m, -i    sort by pid, processes, cores, memory, I/O rate\n"
	       "      --dir=DIR         read DIR instead of the runtime directory\n"
	       "On a terminal: the same letters sort, q quits.\n");
}

/* 0 to go on, 1 served --help, -1 after a message. */
static int top_parse(struct top_opts *t, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ "dir", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char why[128], *end;
	int c;

	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "bn:d:aptcmih", opts, NULL)) != -1) {
		switch (c) {
		case 'b': t->batch = true; break;
		case 'a': t->all = true; break;
		case 'D': t->dir = optarg; break;
		case 'p': t->sort = SORT_PID; break;
		case 't': t->sort = SORT_PROCS; break;
		case 'c': t->sort = SORT_CORES; break;
		case 'm': t->sort = SORT_MEMORY; break;
		case 'i': t->sort = SORT_IO; break;
		case 'h': top_usage(); return 1;
		case 'n':
			errno = 0;
			t->iterations = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || t->iterations < 1) {
				fprintf(stderr, "tpmon top: -n %s: expected a positive count\n", optarg);
				return -1;
			}
			break;
		case 'd':
			if (units_parse_seconds(optarg, &t->delay, why, sizeof(why)) < 0 ||
			    t->delay < 0.1) {
				fprintf(stderr, "tpmon top: -d %s: %s\n", optarg,
					t->delay < 0.1 ? "at least 0.1 s" : why);
				return -1;
			}
			break;
		default: {
			const char *near = editdist_long_option(argv[optind - 1], opts);

			if (near)
				fprintf(stderr, "tpmon top: did you mean --%s? (try 'tpmon top "
					"--help')\n", near);
			return -1;
		}
		}
	}
	if (optind < argc) {
		fprintf(stderr, "tpmon top: %s: unexpected argument\n", argv[optind]);
		return -1;
	}
	return 0;
}

int top_main(int argc, char **argv)
{
	struct top_opts t = { .iterations = -1, .delay = 1.0, .sort = SORT_MEMORY };
	char *dir = NULL;
	bool term;
	long i;
	int r;

	r = top_parse(&t, argc, argv);
	if (r)
		return r > 0 ? 0 : 2;
	if (!t.dir) {
		dir = livedir_path();
		t.dir = dir;
	}
	if (!t.dir) {
		fprintf(stderr, "tpmon top: no runtime directory\n");
		return 1;
	}
	term = !t.batch && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
	if (!term && t.iterations < 0)
		t.iterations = 1;
	if (term) {
		signal(SIGINT, on_stop);
		signal(SIGTERM, on_stop);
		term_raw();
	}
	for (i = 0; t.iterations < 0 || i < t.iterations; i++) {
		if (i > 0) {
			if (term && !wait_key(&t, t.delay))
				break;
			if (!term) {
				struct timespec ts = { (time_t)t.delay,
						       (long)((t.delay - floor(t.delay)) * 1e9) };

				nanosleep(&ts, NULL);
				putchar('\n');
			}
		}
		if (show(&t, term) < 0) {
			r = 1;
			break;
		}
	}
	if (term)
		term_restore();
	free(dir);
	return r;
}
