/* SPDX-License-Identifier: MIT */
/* procconn.c: the proc connector (procconn.h): the netlink socket, the
 * parser of its messages, and the per-CPU sequence check. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include "kernel/procconn.h"

/* The fields of struct proc_event that every kernel since 2.6.15 sends:
 * up to the exit event's signal.  Its parent fields (4.18) are not read. */
#define PC_EVENT_MIN offsetof(struct proc_event, event_data.exit.exit_signal)

int procconn_parse(const void *buf, size_t len, struct tp_pc_event *ev)
{
	const struct nlmsghdr *nh = buf;
	struct cn_msg cn;
	struct proc_event pe;
	size_t body;

	if (len < NLMSG_HDRLEN || nh->nlmsg_len < NLMSG_HDRLEN || nh->nlmsg_len > len)
		return -1;
	if (nh->nlmsg_type == NLMSG_NOOP || nh->nlmsg_type == NLMSG_ERROR ||
	    nh->nlmsg_type == NLMSG_OVERRUN)
		return 0;
	body = nh->nlmsg_len - NLMSG_HDRLEN;
	if (body < sizeof(cn))
		return -1;
	memcpy(&cn, (const char *)buf + NLMSG_HDRLEN, sizeof(cn));
	if (cn.id.idx != CN_IDX_PROC || cn.id.val != CN_VAL_PROC)
		return 0;
	if (cn.len > body - sizeof(cn) || cn.len < PC_EVENT_MIN)
		return -1;
	memset(&pe, 0, sizeof(pe));
	memcpy(&pe, (const char *)buf + NLMSG_HDRLEN + sizeof(cn),
	       cn.len < sizeof(pe) ? cn.len : sizeof(pe));
	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = pe.timestamp_ns;
	ev->cpu = pe.cpu;
	ev->seq = cn.seq;
	switch (pe.what) {
	case PROC_EVENT_FORK:
		ev->kind = TP_PC_FORK;
		ev->ppid = pe.event_data.fork.parent_tgid;
		ev->ptid = pe.event_data.fork.parent_pid;
		ev->pid = pe.event_data.fork.child_tgid;
		ev->tid = pe.event_data.fork.child_pid;
		break;
	case PROC_EVENT_EXEC:
		ev->kind = TP_PC_EXEC;
		ev->pid = pe.event_data.exec.process_tgid;
		ev->tid = pe.event_data.exec.process_pid;
		break;
	case PROC_EVENT_EXIT:
		ev->kind = TP_PC_EXIT;
		ev->pid = pe.event_data.exit.process_tgid;
		ev->tid = pe.event_data.exit.process_pid;
		ev->status = (int)pe.event_data.exit.exit_code;
		break;
	default:
		/* uid, gid, sid, ptrace, comm, coredump: they are numbered
		 * too, so the caller still checks their sequence.  So is an
		 * ack (PROC_EVENT_NONE), which every listener gets when any
		 * process of the machine subscribes or unsubscribes (another
		 * tpmon starting): the kernel's send_msg() numbers it with
		 * the CPU's counter.  Skipping its number read as a lost
		 * event.  An ack with cpu -1 (as cn_proc_ack() fills it
		 * before send_msg() overwrites it) is not checked. */
		return 2;
	}
	if (ev->pid <= 0 || ev->tid <= 0)
		return -1;
	return 1;
}

bool procconn_seq_gap(struct tp_pc_seq *s, unsigned cpu, uint32_t seq)
{
	bool gap;

	if (cpu >= 65536)
		return false;	/* not a CPU's number: nothing to check */
	if (cpu >= s->ncpu) {
		unsigned n = cpu + 1 > 2 * s->ncpu ? cpu + 1 : 2 * s->ncpu, i;
		uint32_t *next = realloc(s->next, n * sizeof(*next));
		bool *seen;

		if (!next)
			return false;
		s->next = next;
		seen = realloc(s->seen, n * sizeof(*seen));
		if (!seen)
			return false;
		s->seen = seen;
		for (i = s->ncpu; i < n; i++)
			s->seen[i] = false;
		s->ncpu = n;
	}
	gap = s->seen[cpu] && seq != s->next[cpu];
	s->seen[cpu] = true;
	s->next[cpu] = seq + 1;
	return gap;
}

void procconn_seq_free(struct tp_pc_seq *s)
{
	free(s->next);
	free(s->seen);
	memset(s, 0, sizeof(*s));
}

int procconn_open(int rcvbuf)
{
	struct sockaddr_nl sa;
	struct nlmsghdr nh;
	struct cn_msg cn;
	enum proc_cn_mcast_op op = PROC_CN_MCAST_LISTEN;
	char req[NLMSG_HDRLEN + sizeof(struct cn_msg) + sizeof(op)];
	int fd = socket(PF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	int saved;

	if (fd < 0)
		return -1;
	/* past net.core.rmem_max with CAP_NET_ADMIN; else as much as allowed */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	sa.nl_groups = CN_IDX_PROC;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail;
	/* one netlink message: the connector's header, then the operation */
	memset(req, 0, sizeof(req));
	memset(&nh, 0, sizeof(nh));
	memset(&cn, 0, sizeof(cn));
	nh.nlmsg_len = sizeof(req);
	nh.nlmsg_type = NLMSG_DONE;
	cn.id.idx = CN_IDX_PROC;
	cn.id.val = CN_VAL_PROC;
	cn.len = sizeof(op);
	memcpy(req, &nh, sizeof(nh));
	memcpy(req + NLMSG_HDRLEN, &cn, sizeof(cn));
	memcpy(req + NLMSG_HDRLEN + sizeof(cn), &op, sizeof(op));
	if (send(fd, req, sizeof(req), 0) != (ssize_t)sizeof(req))
		goto fail;
	return fd;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

ssize_t procconn_recv(int fd, void *buf, size_t size)
{
	ssize_t n;

	do
		n = recv(fd, buf, size, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	return n;
}

int procconn_next(int fd, void *buf, size_t size, struct tp_pc_seq *seq,
		  struct tp_pc_event *ev, const char **lost)
{
	ssize_t n = procconn_recv(fd, buf, size);
	int r;

	if (n < 0 && errno == ENOBUFS) {
		*lost = "queue full";
		return 2;
	}
	if (n <= 0)
		return 0;
	r = procconn_parse(buf, (size_t)n, ev);
	if (r <= 0)
		return 2;
	if (procconn_seq_gap(seq, ev->cpu, ev->seq))
		*lost = "sequence gap";
	return r == 1 ? 1 : 2;
}
