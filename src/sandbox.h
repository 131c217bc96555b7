/* sandbox.h: seccomp and capabilities; the only user of <seccomp.h> and
 * <sys/capability.h>. */
#ifndef TPMON_SANDBOX_H
#define TPMON_SANDBOX_H

#include <stdbool.h>

struct sock_fprog;

/* A BPF program that lets every syscall through except the open family
 * (open, openat, openat2, creat), which stops in the tracer with
 * PTRACE_EVENT_SECCOMP.  Built in the parent, so the child only has to
 * prctl() it.  NULL (with a message) on failure.  Free with
 * sandbox_filter_free(). */
struct sock_fprog *sandbox_open_filter(void);
void sandbox_filter_free(struct sock_fprog *prog);

/* Does tpmon hold CAP_SYS_ADMIN (so a seccomp filter needs no
 * no_new_privs, and setuid programs keep working)? */
bool sandbox_have_cap_sys_admin(void);

#endif
