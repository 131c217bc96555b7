/* SPDX-License-Identifier: MIT */
/* liveint.h: inside src/live: what every live format says of the run
 * (struct tp_live_meta), and one pure formatter per format, each with its
 * own escaping: the runtime file (publish.c), the Prometheus text
 * (prom.c), InfluxDB's line protocol (influx.c), the catalog's JSON
 * (catalog.c).  live.c does the I/O. */
#ifndef TPMON_LIVEINT_H
#define TPMON_LIVEINT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "config/limitset.h"
#include "live/point.h"

/* The run, as the live formats name it.  Strings owned by live.c; any
 * may be untrusted (the task's command line, a -V category). */
struct tp_live_meta {
	const char *command;		/* the command line */
	const char *category;		/* -V category, or NULL */
	const char *template;		/* -O */
	const char *task;		/* the template's base name */
	const char *job;		/* the batch system's job id, or NULL */
	const char *task_id;		/* -V task_id (Work Queue, TaskVine), or NULL */
	const char *host;
	pid_t pid;			/* tpmon's */
	uint64_t pid_start;		/* its start time (livedir_starttime()) */
	pid_t root;			/* the task's main process */
	double start;			/* s since the epoch */
	const struct tp_limits *limits;
	double interval;		/* -i */
};

/* Rates between two published points, per second (<0: unknown). */
struct tp_live_rates {
	double read, written, net;
};

/* The runtime file's text (JSON), newly allocated (publish.c). */
char *publish_text(const struct tp_live_meta *m, const struct tp_live_point *p,
		   const struct tp_live_rates *rt, double now);

/* The .prom file's text, newly allocated (prom.c). */
char *prom_text(const struct tp_live_meta *m, const struct tp_live_point *p);
/* @s as a Prometheus label value (\ " and newline escaped, invalid UTF-8
 * replaced), newly allocated. */
char *prom_label_value(const char *s);

/* One line of line protocol, '\n'-terminated, newly allocated, for the
 * point @p at @now (s since the epoch; written in ms) (influx.c). */
char *influx_line(const struct tp_live_meta *m, const struct tp_live_point *p, double now);
/* @s as an InfluxDB tag value (newly allocated; never empty: "-"). */
char *influx_tag_value(const char *s);
/* The write URL for --influxdb=@url: "/write?db=tpmon" added to a bare
 * server URL, "precision=ms" to any. */
char *influx_write_url(const char *url);

/* The catalog update: the summary @json (a JSON object) with type, uuid,
 * owner, task and project added, newly allocated; NULL if @json is not
 * an object (catalog.c). */
char *catalog_text(const char *json, const char *uuid, const char *owner,
		   const char *task, const char *project);
/* A random UUID (version 4) into @out (37 bytes). */
void catalog_uuid(char *out);

#endif
