/* SPDX-License-Identifier: MIT */
/* sigprobe.h: who sent a signal to a process, in the modes that do not
 * trace it: a BPF program on the raw tracepoint signal_generate notes,
 * for each process of the machine that is sent a signal by another
 * process (kill(2), tgkill(2), sigqueue(3), and the kernel's sends on a
 * process's behalf, SEND_SIG_NOINFO), the last such signal delivered:
 * its number and the sender's pid, uid and comm.  The kernel's own
 * signals (faults, SIGCHLD, the OOM killer's) are not noted.  The
 * program runs only when a signal is generated: nothing else costs.
 *
 * Needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN (root, in practice),
 * and the kernel's BTF (/sys/kernel/btf/vmlinux) for the offset of
 * task_struct's tgid.  The program lives as long as its descriptors. */
#ifndef TPMON_SIGPROBE_H
#define TPMON_SIGPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "kernel/tracer.h"

struct tp_sigprobe;

/* Load and attach the program.  NULL with the reason in @why when the
 * kernel, its BTF or tpmon's privileges do not allow it, or when tpmon's
 * pids are not the kernel's (a pid namespace below the initial one). */
struct tp_sigprobe *sigprobe_open(char *why, size_t size);

/* The sender of the last signal delivered to process @pid, if it was
 * @sig, into @s (its command line if it still runs as the same comm,
 * else that comm).  Returns whether one is known (s->known). */
bool sigprobe_sender(const struct tp_sigprobe *sp, pid_t pid, int sig, struct tp_sender *s);

void sigprobe_free(struct tp_sigprobe *sp);

#endif
