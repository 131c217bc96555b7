/* SPDX-License-Identifier: MIT */
/* prestart.h: what a run loads before its cgroup is chosen, in a thread
 * beside the choosing (the cgroups made, the guard forked): the BPF
 * programs that the kernel verifies as they load, the signal-sender
 * probe and the socket probes, as root in the modes that do not trace.
 * On the critical path they were a third of a run's fixed cost
 * (doc/PERFORMANCE.md).  One run a process: a singleton, as the summary's
 * output is. */
#ifndef TPMON_PRESTART_H
#define TPMON_PRESTART_H

#include <stdbool.h>

struct tp_options;
struct tp_sigprobe;
struct tp_netprobe;

/* Start loading what the run @o will want, if anything (root, not
 * ptrace, not --pid).  Nothing where the thread cannot be made: the run
 * loads them itself, as before. */
void prestart_begin(const struct tp_options *o);

/* Did prestart_begin() start the loading?  Then the two below wait for
 * it (once) and give what it loaded, each once; NULL where it could not
 * load (why is in the debug output) or was taken already. */
bool prestart_started(void);
struct tp_sigprobe *prestart_take_sigprobe(void);
struct tp_netprobe *prestart_take_netprobe(void);

/* Wait for the thread, free what was not taken. */
void prestart_release(void);

#endif
