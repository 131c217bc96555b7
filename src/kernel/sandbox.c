/* SPDX-License-Identifier: MIT */
/* sandbox.c: the seccomp filter every traced task runs under, built with
 * libseccomp and exported as raw BPF, and the capability checks done with
 * libcap.  The filter keeps every process in the traced tree (clone with
 * CLONE_UNTRACED is refused, clone3 is routed to clone), stops connect,
 * accept and accept4 in the tracer for the network figures and, with
 * --with-inotify, the open family. */
#include <errno.h>
#include <linux/filter.h>
#include <sched.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>
#include "basic/compat.h"
#include "basic/messages.h"
#include "kernel/sandbox.h"
#include "basic/xmalloc.h"

#ifndef CLONE_UNTRACED
#define CLONE_UNTRACED 0x00800000
#endif

/* The syscalls whose paths --with-inotify records. */
static const char *const open_calls[] = { "open", "openat", "openat2", "creat" };

/* The calls that give the tree a new TCP connection: the network counter
 * learns each socket's cookie there, so that a connection closed before
 * the next sample still counts.  Rare calls: a stop each costs nothing
 * that shows. */
static const char *const net_calls[] = { "connect", "accept", "accept4" };

/* Stop @calls in the tracer, with @data as the event message. */
static int add_trace_rules(scmp_filter_ctx ctx, const char *const *calls, size_t n,
			   uint32_t data)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int nr = seccomp_syscall_resolve_name(calls[i]);

		if (nr == __NR_SCMP_ERROR)
			continue;	/* not on this architecture */
		if (seccomp_rule_add(ctx, SCMP_ACT_TRACE(data), nr, 0) < 0)
			return -1;
	}
	return 0;
}

/* A process created with CLONE_UNTRACED is not auto-attached: it and its
 * descendants would escape every count and limit, and PTRACE_O_EXITKILL.
 * The flag is refused (EPERM).  clone3 passes its flags in memory, which
 * a filter cannot read, so it fails with ENOSYS, on which glibc (2.34 and
 * later: pthread_create, posix_spawn) falls back to clone. */
static int add_escape_rules(scmp_filter_ctx ctx)
{
	int clone3 = seccomp_syscall_resolve_name("clone3");

	if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
			     SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_UNTRACED, CLONE_UNTRACED)) < 0)
		return -1;
	if (clone3 != __NR_SCMP_ERROR &&
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), clone3, 0) < 0)
		return -1;
	return 0;
}

/* The other ABIs the native one runs (i386 and x32 binaries on x86-64,
 * 32-bit ARM on arm64): the escape rules must hold there too, and without
 * their arch in the filter every syscall of such a binary would kill it. */
static const uint32_t compat_archs[] = {
#if defined(__x86_64__)
	SCMP_ARCH_X86, SCMP_ARCH_X32,
#elif defined(__aarch64__)
	SCMP_ARCH_ARM,
#endif
	0
};

/* The escape rules for the compat ABIs, merged into @ctx (so the open
 * and network rules, which the tracer decodes with the native numbering, stay native
 * only).  -1 when no compat ABI can be added. */
static int add_compat(scmp_filter_ctx ctx, bool contained)
{
	scmp_filter_ctx compat = seccomp_init(SCMP_ACT_ALLOW);
	int added = 0;
	size_t i;

	if (!compat)
		return -1;
	seccomp_attr_set(compat, SCMP_FLTATR_CTL_NNP, 0);
	seccomp_arch_remove(compat, SCMP_ARCH_NATIVE);
	for (i = 0; compat_archs[i]; i++)
		if (seccomp_arch_add(compat, compat_archs[i]) == 0)
			added++;
	if (!added || (!contained && add_escape_rules(compat) < 0) ||
	    seccomp_merge(ctx, compat) < 0) {
		seccomp_release(compat);
		return -1;
	}
	return 0;	/* the merge took @compat over */
}

/* Export the filter through a pipe into memory (libseccomp 2.5 has no
 * export-to-memory call). */
static struct sock_fprog *export_bpf(scmp_filter_ctx ctx)
{
	struct sock_fprog *prog;
	size_t cap = 4096, len = 0;
	char *buf;
	int fds[2];
	ssize_t n;

	if (pipe(fds) < 0)
		return NULL;
	if (seccomp_export_bpf(ctx, fds[1]) < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	close(fds[1]);
	buf = xmalloc(cap);
	while ((n = read(fds[0], buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
	}
	close(fds[0]);
	if (n < 0 || len == 0 || len % sizeof(struct sock_filter)) {
		free(buf);
		return NULL;
	}
	prog = xmalloc(sizeof(*prog));
	prog->len = (unsigned short)(len / sizeof(struct sock_filter));
	prog->filter = (struct sock_filter *)(void *)buf;
	return prog;
}

struct sock_fprog *sandbox_task_filter(bool trace_opens, bool trace_net, bool contained)
{
	scmp_filter_ctx ctx;
	struct sock_fprog *prog = NULL;

	if (contained && !trace_opens && !trace_net)
		return NULL;	/* nothing to trap, nothing to refuse */
	/* The filter is only exported, and installed with prctl() by the
	 * child: the base API level is enough, and setting it spares the
	 * probes of the seccomp() syscall (which valgrind does not know) */
	seccomp_api_set(1);
	ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (!ctx) {
		warn_msg("seccomp_init failed");
		return NULL;
	}
	/* no_new_privs is set by the child itself, only when needed */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if ((contained || add_escape_rules(ctx) == 0) &&
	    (!trace_opens || add_trace_rules(ctx, open_calls, ARRAY_SIZE(open_calls), TP_TRAP_OPEN) == 0) &&
	    (!trace_net || add_trace_rules(ctx, net_calls, ARRAY_SIZE(net_calls), TP_TRAP_NET) == 0)) {
		if (add_compat(ctx, contained) < 0)
			debug_msg("no compat ABI in the seccomp filter");
		prog = export_bpf(ctx);
	}
	if (!prog)
		warn_msg("cannot build the seccomp filter");
	seccomp_release(ctx);
	return prog;
}

void sandbox_filter_free(struct sock_fprog *prog)
{
	if (!prog)
		return;
	free(prog->filter);
	free(prog);
}

bool sandbox_have_cap_sys_admin(void)
{
	cap_t caps = cap_get_proc();
	cap_flag_value_t v = CAP_CLEAR;

	if (!caps)
		return false;
	if (cap_get_flag(caps, CAP_SYS_ADMIN, CAP_EFFECTIVE, &v) < 0)
		v = CAP_CLEAR;
	cap_free(caps);
	return v == CAP_SET;
}
