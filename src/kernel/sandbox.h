/* SPDX-License-Identifier: MIT */
/* sandbox.h: seccomp and capabilities; the only user of <seccomp.h> and
 * <sys/capability.h>. */
#ifndef TPMON_SANDBOX_H
#define TPMON_SANDBOX_H

#include <stdbool.h>

struct sock_fprog;

/* What a PTRACE_EVENT_SECCOMP stop's event message says was trapped. */
enum tp_trap { TP_TRAP_OPEN = 1, TP_TRAP_NET = 2 };

/* The BPF program of a traced task.  It refuses clone(CLONE_UNTRACED)
 * with EPERM and clone3 with ENOSYS (libc then uses clone), so no process
 * of the task leaves the traced tree; with @trace_opens, the open family
 * (open, openat, openat2, creat), and with @trace_net, connect, accept
 * and accept4, stop in the tracer with PTRACE_EVENT_SECCOMP (event
 * message TP_TRAP_OPEN or TP_TRAP_NET).  Everything else passes.  Built
 * in the parent, so the child only has to prctl() it.  NULL (with a
 * message) on failure.  Free with sandbox_filter_free().
 * @contained: a cgroup holds the tree, so nothing is refused (NULL, and
 * no message, when nothing is trapped either). */
struct sock_fprog *sandbox_task_filter(bool trace_opens, bool trace_net, bool contained);
void sandbox_filter_free(struct sock_fprog *prog);

/* Does tpmon hold CAP_SYS_ADMIN (so a seccomp filter needs no
 * no_new_privs, and setuid programs keep working)? */
bool sandbox_have_cap_sys_admin(void);

#endif
