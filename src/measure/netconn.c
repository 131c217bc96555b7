/* SPDX-License-Identifier: MIT */
/* netconn.c: the tree's connect and accept calls, caught at their seccomp
 * stops (net_syscall()): a connecting socket's cookie is noted before any
 * byte goes, an accepting socket's port marks the connections the tree
 * will accept, so that a connection closed between two samples still
 * counts (its destruction is announced).  The socket table, dumps and
 * totals are net.c's: this file calls into net.c (netint.h), never the
 * other way round. */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "kernel/proc.h"
#include "kernel/sockdiag.h"
#include "kernel/tracer.h"
#include "measure/netint.h"

#ifndef SO_COOKIE
#define SO_COOKIE 57
#endif

static bool accept_seen(const struct tp_net *n, uint64_t ino)
{
	unsigned i;

	for (i = 0; ino && i < n->naccept_seen && i < ACCEPT_SEEN; i++)
		if (n->accept_seen[i] == ino)
			return true;
	return false;
}

/* Remember that socket @ino has been noted (the oldest is forgotten: it
 * is looked at once more, which is harmless).  A socket's protocol never
 * changes, nor the port of a bound one. */
static void remember_accept(struct tp_net *n, uint64_t ino)
{
	if (ino)
		n->accept_seen[n->naccept_seen++ % ACCEPT_SEEN] = ino;
}

/* The inode of socket @fd, 0 if unknown. */
static uint64_t socket_inode(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* Note the TCP socket @fd (a copy of the tracee's): its cookie for a
 * connect, its port for an accept. */
static void note_socket(struct tp_net *n, int fd, bool connecting)
{
	int proto = 0, family = 0;
	socklen_t len = sizeof(int);
	/* (of the copy: the tracee's other threads may have changed what
	 * its descriptor is since the readlink()) */
	uint64_t ino = connecting ? 0 : socket_inode(fd);

	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) < 0)
		return;
	if (proto != IPPROTO_TCP ||
	    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &family, &len) < 0 ||
	    (family != AF_INET && family != AF_INET6)) {
		if (!connecting && proto)
			remember_accept(n, ino);	/* not TCP: never will be */
		return;
	}
	if (connecting) {
		uint64_t cookie = 0;

		len = sizeof(cookie);
		ino = socket_inode(fd);
		if (getsockopt(fd, SOL_SOCKET, SO_COOKIE, &cookie, &len) == 0 && cookie && ino)
			net_rec_get(n, cookie, ino, 0, 0)->open = true;
	} else {
		struct sockaddr_storage ss;

		uint16_t port;

		len = sizeof(ss);
		if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
			return;
		port = family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port :
		       ((struct sockaddr_in6 *)&ss)->sin6_port;
		net_add_listener(n, family, port);
		if (port)	/* bound: its port is for good */
			remember_accept(n, ino);
	}
}

/* A connection that may go uncounted: its socket could not be noted at
 * its connect or accept (a kernel before 5.3 without
 * PTRACE_GET_SYSCALL_INFO, before 5.6 without pidfd_getfd, or EPERM).
 * It still counts if a sample sees it open; the totals are then lower
 * bounds (net_bytes_exact()). */
static void note_lost(struct tp_net *n, const char *what)
{
	if (!n->lost++)
		debug_msg("%s: %s: connections closed between two samples are missed; "
			  "the network figures are lower bounds", what, strerror(errno));
}

/* Note the listening port of socket @ino, found in a dump of the
 * listeners: where no copy of the tracee's descriptor can be had. */
static void find_listener(struct tp_net *n, uint64_t ino)
{
	n->listener_ino = ino;
	if (net_dump(n, AF_INET, 1u << TP_SOCKDIAG_LISTEN) < 0 ||
	    net_dump(n, AF_INET6, 1u << TP_SOCKDIAG_LISTEN) < 0)
		debug_msg("sock_diag listeners: %s", strerror(errno));
	n->listener_ino = 0;
	/* not a TCP listener: the accept fails, or is not TCP's */
	remember_accept(n, ino);
}

/* Before 5.6 (no pidfd_getfd): an accept's listener is found by its
 * inode; a connect's socket cannot be read before it connects, so that
 * connection is counted only if a sample sees it open. */
static void without_copy(struct tp_net *n, pid_t pid, bool connecting, int fd,
			 const char *what)
{
	uint64_t ino;

	if (connecting) {
		note_lost(n, what);
		return;
	}
	ino = proc_read_fd_socket(pid, fd);
	if (ino && !accept_seen(n, ino))
		find_listener(n, ino);
}

void net_syscall(struct tp_net *n, pid_t pid, pid_t tid)
{
	struct tp_syscall call;
	const char *what;
	bool connecting;
	int fd, tfd;

	if (!n)
		return;
	net_drain_destroyed(n);	/* keeps the announcements from piling up */
	if (tracer_seccomp_call(tid, &call) < 0) {
		if (errno == ESRCH || errno == EINVAL)
			return;		/* killed meanwhile, or not a seccomp stop */
		if (tracer_stop_regs(tid, &call) < 0) {
			note_lost(n, "PTRACE_GET_SYSCALL_INFO");
			return;
		}
	}
	connecting = call.nr == SYS_connect;
	tfd = (int)call.args[0];
	/* an accept on a socket noted before costs one readlink(), not
	 * the copy and four calls on it */
	if (!connecting && accept_seen(n, proc_read_fd_socket(pid, tfd)))
		return;
	/* a copy of the tracee's descriptor; closing it leaves the socket
	 * to the tracee */
	fd = tracer_copy_fd(pid, tfd, &what);
	if (fd < 0) {
		/* EBADF: no such descriptor, the call itself fails */
		if (errno != EBADF && errno != ESRCH)
			without_copy(n, pid, connecting, tfd, what);
		return;
	}
	note_socket(n, fd, connecting);
	close(fd);
}
