/* sandbox.c: the seccomp filter of --with-inotify, built with libseccomp
 * and exported as raw BPF, and the capability checks done with libcap. */
#include <errno.h>
#include <linux/filter.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>
#include "error.h"
#include "sandbox.h"
#include "xmalloc.h"

/* The syscalls whose paths --with-inotify records. */
static const char *const open_calls[] = { "open", "openat", "openat2", "creat" };

static int add_rules(scmp_filter_ctx ctx)
{
	size_t i;

	for (i = 0; i < sizeof(open_calls) / sizeof(open_calls[0]); i++) {
		int nr = seccomp_syscall_resolve_name(open_calls[i]);

		if (nr == __NR_SCMP_ERROR)
			continue;	/* not on this architecture */
		if (seccomp_rule_add(ctx, SCMP_ACT_TRACE(1), nr, 0) < 0)
			return -1;
	}
	return 0;
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

struct sock_fprog *sandbox_open_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	struct sock_fprog *prog = NULL;

	if (!ctx) {
		error_msg("seccomp_init failed");
		return NULL;
	}
	/* no_new_privs is set by the child itself, only when needed */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (add_rules(ctx) == 0)
		prog = export_bpf(ctx);
	if (!prog)
		error_msg("cannot build the seccomp filter: files will not be recorded");
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
