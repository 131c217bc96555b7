/* sandbox.h: seccomp and capabilities; the only user of <seccomp.h> and
 * <sys/capability.h>. */
#ifndef TPMON_SANDBOX_H
#define TPMON_SANDBOX_H

#include <stdbool.h>

struct sock_fprog;

/* The BPF program of a traced task.  It refuses clone(CLONE_UNTRACED)
 * with EPERM and clone3 with ENOSYS (libc then uses clone), so no process
 * of the task leaves the traced tree; with @trace_opens, the open family
 * (open, openat, openat2, creat) stops in the tracer with
 * PTRACE_EVENT_SECCOMP.  Everything else passes.  Built in the parent, so
 * the child only has to prctl() it.  NULL (with a message) on failure.
 * Free with sandbox_filter_free(). */
struct sock_fprog *sandbox_task_filter(bool trace_opens);
void sandbox_filter_free(struct sock_fprog *prog);

/* Does tpmon hold CAP_SYS_ADMIN (so a seccomp filter needs no
 * no_new_privs, and setuid programs keep working)? */
bool sandbox_have_cap_sys_admin(void);

#endif
