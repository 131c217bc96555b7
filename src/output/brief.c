/* SPDX-License-Identifier: MIT */
/* brief.c: a human summary of the run, a few lines in the manner of
 * `time -v`: what the task was, how it ended, and the figures a person
 * looks for first, with where the files went.  Engines never see it:
 * they have no terminal, and cctools mode never prints it.  The command
 * and the output names are printed in their shown form (safetext.h): a
 * command line is the task's, and must not drive the terminal. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/brief.h"
#include "measure/endnotes.h"
#include "basic/compat.h"
#include "basic/figtable.h"
#include "basic/safetext.h"

bool brief_wanted(const struct tp_options *o, int fd)
{
	return !o->quiet && o->exit_codes != TP_CODES_CCTOOLS && isatty(fd);
}

/* @mb as "512 MB" or "1.50 GB" into @buf. */
static const char *size(char *buf, size_t len, double mb)
{
	if (mb >= 1024)
		snprintf(buf, len, "%.2f GB", mb / 1024);
	else if (mb >= 10)
		snprintf(buf, len, "%.0f MB", mb);
	else
		snprintf(buf, len, "%.1f MB", mb);
	return buf;
}

static double value(const struct tp_summary *r, enum tp_res res)
{
	return r->known[res] ? r->value[res] : 0;
}

static void ending(FILE *f, const struct tp_summary *r)
{
	fprintf(f, "  ended     ");
	if (r->signal)
		fprintf(f, "killed by signal %d (%s)", r->signal, strsignal(r->signal));
	else
		fprintf(f, "exit status %d", r->exit_status);
	fprintf(f, " after %.2f s wall, %.2f s CPU\n", value(r, TP_RES_WALL_TIME),
		value(r, TP_RES_CPU_TIME));
}

/* Why it ended, when more than its exit status, with the sender's
 * command line in its shown form; then the notes' codes. */
static void cause(FILE *f, const struct tp_options *o, const struct tp_summary *r)
{
	struct tp_note notes[TP_NOTES_MAX];
	size_t i, n = endnotes_compute(r, &o->limits, notes);

	if (r->ending.cause != TP_END_UNKNOWN && r->ending.cause != TP_END_EXITED) {
		fprintf(f, "  cause     %s: ", endcause_name(r->ending.cause));
		safetext_put(f, r->ending.detail);
		if (r->ending.sender.known && r->ending.sender.command[0]) {
			char *c = safetext_clip(r->ending.sender.command, 80);

			fprintf(f, "; command: %s", c);
			free(c);
		}
		fputc('\n', f);
	}
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "  notes     ", notes[i].code);
	if (n)
		fputc('\n', f);
}

static void stop(FILE *f, const struct tp_options *o, const struct tp_summary *r)
{
	int i;

	if (r->stopped_at < 0)
		return;
	fprintf(f, "  stopped   at %.2f s: ", r->stopped_at);
	for (i = 0; i < TP_RES__COUNT; i++)
		if (r->exceeded.set[i])
			break;
	if (i < TP_RES__COUNT && res_info(i)->kind == TP_UNIT_SIZE) {
		char a[32], b[32];

		fprintf(f, "%s over its limit (%s > %s)\n", res_info(i)->name,
			size(a, sizeof(a), value(r, i)), size(b, sizeof(b), o->limits.value[i]));
	} else if (i < TP_RES__COUNT)
		fprintf(f, "%s over its limit of %g %s\n", res_info(i)->name,
			o->limits.value[i], res_info(i)->unit);
	else if (r->monitor_signal)
		fprintf(f, "signal %d to tpmon\n", r->monitor_signal);
	else
		fprintf(f, "the main process ended, %u %s still running\n", r->leftover,
			PLURAL(r->leftover, "other was", "others were"));
}

static void files(FILE *f, const struct tp_options *o)
{
	static const struct {
		size_t flag;	/* offset of the option's bool, or 0: always */
		const char *suffix;
	} outputs[] = {
		{ 0, ".summary" },
		{ offsetof(struct tp_options, time_series), ".series" },
		{ offsetof(struct tp_options, inotify), ".files" },
		{ offsetof(struct tp_options, process_records), ".processes" },
		{ offsetof(struct tp_options, trace), ".trace.json" },
	};
	size_t i;

	fputs("  files    ", f);
	for (i = 0; i < ARRAY_SIZE(outputs); i++)
		if (!outputs[i].flag || *(const bool *)((const char *)o + outputs[i].flag)) {
			fprintf(f, "%s ", i ? "," : "");
			safetext_put(f, o->template);
			fputs(outputs[i].suffix, f);
		}
	fputc('\n', f);
}

void brief_print(FILE *f, const struct tp_options *o, const struct tp_summary *r)
{
	char a[32], b[32], *command = safetext_clip(o->command, 203);

	fprintf(f, "tpmon: %s\n", command);
	free(command);
	ending(f, r);
	cause(f, o, r);
	fprintf(f, "  cores     %.2f mean, %.2f peak; %.0f%% of %g %s\n", r->cores_avg,
		value(r, TP_RES_CORES), r->usage.mean, r->usage.ref,
		o->limits.set[TP_RES_CORES] ? "declared" : "on this machine");
	fprintf(f, "  memory    %s peak RSS", size(a, sizeof(a), value(r, TP_RES_MEMORY)));
	if (r->pss_known)
		fprintf(f, ", %s PSS", size(b, sizeof(b), r->memory_pss));
	if (o->limits.set[TP_RES_MEMORY] && o->limits.value[TP_RES_MEMORY] > 0)
		fprintf(f, "; %.0f%% of %s declared", 100 * value(r, TP_RES_MEMORY) /
			o->limits.value[TP_RES_MEMORY], size(b, sizeof(b), o->limits.value[TP_RES_MEMORY]));
	fputc('\n', f);
	fprintf(f, "  processes %.0f in all, %.0f at most at once\n", value(r, TP_RES_TOTAL_PROCESSES),
		value(r, TP_RES_MAX_CONCURRENT_PROCESSES));
	fprintf(f, "  storage   read %s, wrote %s", size(a, sizeof(a), value(r, TP_RES_BYTES_READ)),
		size(b, sizeof(b), value(r, TP_RES_BYTES_WRITTEN)));
	if (r->known[TP_RES_DISK])
		fprintf(f, "; disk %s in %.0f %s", size(a, sizeof(a), value(r, TP_RES_DISK)),
			value(r, TP_RES_TOTAL_FILES),
			PLURAL(value(r, TP_RES_TOTAL_FILES), "file", "files"));
	fputc('\n', f);
	stop(f, o, r);
	files(f, o);
}
