/* SPDX-License-Identifier: MIT */
/* oldkernel: run a command as on a kernel older than 5.3 (RHEL 8's 4.18),
 * as far as the system calls go.  Installs a seccomp filter that fails
 * pidfd_open (5.3), pidfd_getfd (5.6) and clone3 (5.3) with ENOSYS, and
 * ptrace(PTRACE_GET_SYSCALL_INFO) (5.3) with EIO, as those kernels do,
 * then execs the command.  The filter is inherited: run tpmon under it
 * and the task lives under it too.  The newer cgroup files (cgroup.kill,
 * memory.peak) are hidden from tpmon by TPMON_TEST_HIDE_CGROUP_FILES
 * (src/cgroup/cgroup.c), which the tests set themselves.
 *   usage: oldkernel COMMAND [ARGS...] */
#include <errno.h>
#include <linux/ptrace.h>
#include <seccomp.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "helper.h"

#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO 0x420e
#endif

static const char *const usage = "COMMAND [ARGS...]";

/* Fail the call @name with @err; a name this libseccomp does not know
 * is a call the kernel lacks anyway. */
static void fail_call(scmp_filter_ctx ctx, const char *name, int err)
{
	int nr = seccomp_syscall_resolve_name(name);

	if (nr != __NR_SCMP_ERROR && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), nr, 0) < 0)
		helper_die("seccomp_rule_add(%s)", name);
}

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx;

	helper_init(argc, argv);
	if (argc < 2)
		helper_usage(usage);
	ctx = seccomp_init(SCMP_ACT_ALLOW);	/* sets no_new_privs */
	if (!ctx)
		helper_die("seccomp_init");
	fail_call(ctx, "pidfd_open", ENOSYS);
	fail_call(ctx, "pidfd_getfd", ENOSYS);
	fail_call(ctx, "clone3", ENOSYS);
	if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EIO), SCMP_SYS(ptrace), 1,
			     SCMP_A0(SCMP_CMP_EQ, PTRACE_GET_SYSCALL_INFO, 0)) < 0)
		helper_die("seccomp_rule_add(ptrace)");
	if (seccomp_load(ctx) < 0)
		helper_die("seccomp_load");
	seccomp_release(ctx);
	/* the filter holds: the calls fail as on 4.18 */
	if (syscall(SYS_pidfd_open, getpid(), 0) != -1 || errno != ENOSYS)
		helper_die("pidfd_open still answers under the filter");
	execvp(argv[1], argv + 1);
	helper_die("exec %s", argv[1]);
}
