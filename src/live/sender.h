/* SPDX-License-Identifier: MIT */
/* sender.h: a thread that sends the live figures over the network
 * (InfluxDB over HTTP with libcurl, the catalog over TCP or UDP), so that
 * a collector that is down, slow or silent never delays the loop, the
 * task or the summary.  The loop only queues (bounded: what overflows is
 * dropped and counted); at tpmon's exit the thread gets a short time to
 * finish if the collector has been answering, and none if not, and one
 * line says what was not sent. */
#ifndef TPMON_SENDER_H
#define TPMON_SENDER_H

#include <stdbool.h>
#include <stddef.h>

struct tp_sender;

/* A sender for InfluxDB's write URL @influx_url (NULL: none) and the
 * catalog servers @catalog ("host[:port],...", NULL: none; @udp: by UDP
 * to the port, else TCP to the port + 1, as cctools does).  NULL after
 * filling @why (no libcurl, no thread).  libcurl is loaded (dlopen) only
 * for InfluxDB. */
struct tp_sender *sender_new(const char *influx_url, const char *catalog, bool udp,
			     char *why, size_t whylen);

/* Does @s send to InfluxDB (libcurl could be loaded)? */
bool sender_influx_on(const struct tp_sender *s);
/* Queue one line of line protocol (taken over). */
void sender_influx(struct tp_sender *s, char *line);
/* Queue a catalog update (taken over), replacing one not yet sent. */
void sender_catalog(struct tp_sender *s, char *text);

/* Nothing more will be queued: the thread sends what it has while tpmon
 * writes its summary, and is stopped and freed at exit (atexit), after at
 * most SENDER_EXIT_WAIT s if the collector has been answering.  Only one
 * sender per process. */
#define SENDER_EXIT_WAIT 1.0
void sender_end(struct tp_sender *s);

#endif
