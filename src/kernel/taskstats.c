/* SPDX-License-Identifier: MIT */
/* taskstats.c: the kernel's exit records (taskstats.h): the parser of the
 * TASKSTATS family's messages, and the generic netlink socket that finds
 * the family and registers for every possible CPU's records. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include "kernel/taskstats.h"

/* The fields read, all in struct taskstats since kernel 2.6.20 (version
 * 4): a record shorter than up to nivcsw is refused (ac_ppid is before). */
#define TS_MIN (offsetof(struct taskstats, nivcsw) + sizeof(__u64))

/* The attribute at @off in [@buf, @buf + @end): its type and payload.
 * Returns the offset of the next one, or 0 when none is left or it does
 * not fit. */
static size_t attr_next(const char *buf, size_t off, size_t end, unsigned *type,
			const char **data, size_t *len)
{
	struct nlattr a;

	if (off + NLA_HDRLEN > end)
		return 0;
	memcpy(&a, buf + off, sizeof(a));
	if (a.nla_len < NLA_HDRLEN || a.nla_len > end - off)
		return 0;
	*type = a.nla_type & NLA_TYPE_MASK;
	*data = buf + off + NLA_HDRLEN;
	*len = a.nla_len - NLA_HDRLEN;
	off += NLA_ALIGN(a.nla_len);
	return off > end ? end : off;
}

/* Fill @out from the attributes of an AGGR_PID nest (@buf, @len): the
 * task's id and its struct taskstats.  Returns 1, or -1 if either is
 * missing or short. */
static int aggr_pid(const char *buf, size_t len, struct tp_taskstats *out)
{
	struct taskstats ts;
	const char *data;
	size_t off = 0, n;
	unsigned type;
	uint32_t tid = 0;
	bool have_stats = false;

	while ((off = attr_next(buf, off, len, &type, &data, &n)) != 0) {
		if (type == TASKSTATS_TYPE_PID && n >= sizeof(tid)) {
			memcpy(&tid, data, sizeof(tid));
		} else if (type == TASKSTATS_TYPE_STATS && n >= TS_MIN) {
			memset(&ts, 0, sizeof(ts));
			memcpy(&ts, data, n < sizeof(ts) ? n : sizeof(ts));
			have_stats = true;
		}
		if (off >= len)
			break;
	}
	if (!have_stats || tid == 0 || tid > INT32_MAX)
		return -1;
	memset(out, 0, sizeof(*out));
	out->tid = (pid_t)tid;
	out->ppid = ts.ac_ppid <= INT32_MAX ? (pid_t)ts.ac_ppid : 0;
	out->cpu_ns = ts.cpu_run_virtual_total;
	/* a task that ran has a sum_exec_runtime: none means a kernel
	 * without delay accounting built in */
	out->cpu_exact = ts.cpu_run_virtual_total > 0 || ts.ac_utime + ts.ac_stime == 0;
	out->rchar = ts.read_char;
	out->wchar = ts.write_char;
	out->read_bytes = ts.read_bytes;
	out->write_bytes = ts.write_bytes;
	out->cancelled_write_bytes = ts.cancelled_write_bytes;
	out->ctxsw = ts.nvcsw + ts.nivcsw;
	out->hiwater_rss_kb = ts.hiwater_rss;
	return 1;
}

int taskstats_parse(const void *buf, size_t len, uint16_t family, struct tp_taskstats *out)
{
	const char *b = buf, *data;
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	size_t off, n;
	unsigned type;

	if (len < NLMSG_HDRLEN)
		return -1;
	memcpy(&nh, b, sizeof(nh));
	if (nh.nlmsg_len < NLMSG_HDRLEN || nh.nlmsg_len > len)
		return -1;
	if (nh.nlmsg_type != family || family < NLMSG_MIN_TYPE)
		return 0;	/* an ack, an error, another family */
	if (nh.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -1;
	memcpy(&gh, b + NLMSG_HDRLEN, sizeof(gh));
	if (gh.cmd != TASKSTATS_CMD_NEW)
		return 0;
	off = NLMSG_HDRLEN + GENL_HDRLEN;
	while ((off = attr_next(b, off, nh.nlmsg_len, &type, &data, &n)) != 0) {
		if (type == TASKSTATS_TYPE_AGGR_PID)
			return aggr_pid(data, n, out);
		if (off >= nh.nlmsg_len)
			break;
	}
	return 0;	/* no task's record in it */
}

/* Send one request of @type/@cmd with one attribute (@atype, @data of
 * @dlen bytes), asking for an ack.  Returns 0 or -1 with errno. */
static int request(int fd, uint16_t type, uint8_t cmd, uint16_t atype, const void *data,
		   size_t dlen)
{
	struct {
		char buf[NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + 256];
	} __attribute__((aligned(8))) m;
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	struct nlattr a;
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + NLA_ALIGN(dlen);

	if (dlen > 256) {
		errno = EINVAL;
		return -1;
	}
	memset(&m, 0, sizeof(m));
	memset(&nh, 0, sizeof(nh));
	memset(&gh, 0, sizeof(gh));
	nh.nlmsg_len = (uint32_t)len;
	nh.nlmsg_type = type;
	nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	gh.cmd = cmd;
	gh.version = 1;
	a.nla_len = (uint16_t)(NLA_HDRLEN + dlen);
	a.nla_type = atype;
	memcpy(m.buf, &nh, sizeof(nh));
	memcpy(m.buf + NLMSG_HDRLEN, &gh, sizeof(gh));
	memcpy(m.buf + NLMSG_HDRLEN + GENL_HDRLEN, &a, sizeof(a));
	memcpy(m.buf + NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN, data, dlen);
	return send(fd, m.buf, len, 0) == (ssize_t)len ? 0 : -1;
}

/* Read the answers to a request until its ack: the family's id when one
 * comes (*@family, if not NULL).  Returns 0, or -1 with errno (the
 * kernel's error, or the receive timeout's). */
static int answer(int fd, uint16_t *family)
{
	struct {
		char buf[8192];
	} __attribute__((aligned(8))) m;

	for (;;) {
		ssize_t n = recv(fd, m.buf, sizeof(m.buf), 0);
		struct nlmsghdr nh;
		struct nlmsgerr e;
		const char *data;
		size_t off, len;
		unsigned type;

		if (n < 0)
			return -1;
		if ((size_t)n < NLMSG_HDRLEN)
			continue;
		memcpy(&nh, m.buf, sizeof(nh));
		if (nh.nlmsg_len > (size_t)n || nh.nlmsg_len < NLMSG_HDRLEN)
			continue;
		if (nh.nlmsg_type == NLMSG_ERROR && nh.nlmsg_len >= NLMSG_HDRLEN + sizeof(e)) {
			memcpy(&e, m.buf + NLMSG_HDRLEN, sizeof(e));
			errno = -e.error;
			return e.error ? -1 : 0;
		}
		if (nh.nlmsg_type != GENL_ID_CTRL || !family)
			continue;
		off = NLMSG_HDRLEN + GENL_HDRLEN;
		while ((off = attr_next(m.buf, off, nh.nlmsg_len, &type, &data, &len)) != 0) {
			if (type == CTRL_ATTR_FAMILY_ID && len >= sizeof(*family))
				memcpy(family, data, sizeof(*family));
			if (off >= nh.nlmsg_len)
				break;
		}
	}
}

/* Find the family and register @fd for every possible CPU's records.
 * Returns 0 or -1 with errno. */
static int setup(int fd, int rcvbuf, uint16_t *family)
{
	struct sockaddr_nl sa;
	struct timeval tv = { 1, 0 };
	char mask[32];

	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	*family = 0;
	/* setup's answers come at once: never wait long for them */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    request(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
		    TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME)) < 0 ||
	    answer(fd, family) < 0)
		return -1;
	if (*family == 0) {
		errno = ENOENT;
		return -1;
	}
	/* every CPU the machine may ever run a task on */
	snprintf(mask, sizeof(mask), "0-%d", get_nprocs_conf() - 1);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (request(fd, *family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK,
		    mask, strlen(mask) + 1) < 0 || answer(fd, NULL) < 0)
		return -1;
	return fcntl(fd, F_SETFL, O_NONBLOCK);
}

int taskstats_open(int rcvbuf, uint16_t *family)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd >= 0 && setup(fd, rcvbuf, family) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		fd = -1;
	}
	return fd;
}
