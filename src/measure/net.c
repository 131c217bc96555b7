/* SPDX-License-Identifier: MIT */
/* net.c: per-task TCP byte counts.  Where tpmon holds the task in a
 * cgroup and may load BPF (root), the kernel counts every TCP payload
 * byte of the cgroup's sockets (cgskb.c) and nothing else is needed.
 * As root on 6.4 and later, the socket calls' tracepoints count every
 * process's IP bytes (netprobe.c), summed over the tree's processes
 * (net_use_probes()): poll and --pid use them.
 * Otherwise, without privileges: at each sample the
 * socket inodes of the tree are read from /proc/PID/fd (only for
 * processes that ran since their last scan), then the kernel's TCP table
 * is dumped through sock_diag (NETLINK_SOCK_DIAG, IPv4 and IPv6, every
 * state, with INET_DIAG_INFO) and each socket of the tree (by inode, or
 * by the cgroup that made it, INET_DIAG_CGROUP_ID, 5.9) has its
 * tcpi_bytes_acked and tcpi_bytes_received kept by its cookie, which
 * stays with the socket for its whole life.  A socket that is gone keeps
 * the figures last seen of it.  UDP, raw and UNIX sockets carry no byte
 * counts in sock_diag and are not counted.  Whether the totals are exact
 * or lower bounds: net_bytes_exact().  The messages are decoded by
 * kernel/sockdiag.c, the descriptors read by kernel/proc.c; the tree's
 * connect and accept calls are netconn.c's: it calls into this file
 * through netint.h, and nothing here calls it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include "basic/compat.h"
#include "basic/clock.h"
#include "basic/messages.h"
#include "basic/xmalloc.h"
#include "kernel/cgskb.h"
#include "kernel/netprobe.h"
#include "kernel/proc.h"
#include "kernel/sockdiag.h"
#include "measure/netint.h"


static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool has_ino(const uint64_t *v, size_t n, uint64_t ino)
{
	return n > 0 && bsearch(&ino, v, n, sizeof(*v), cmp_u64) != NULL;
}

/* @v cut to its @n items, NULL for none.  Kept exactly: 10,000
 * processes that share one inherited socket keep 10,000 of these. */
static uint64_t *fit(uint64_t *v, size_t n)
{
	uint64_t *e;

	if (n == 0) {
		free(v);
		return NULL;
	}
	e = realloc(v, n * sizeof(*v));
	if (!e)
		return v;	/* the larger block still holds them */
	return e;
}

/* The kernel multicasts each TCP socket's last figures when it is
 * destroyed (SKNLGRP_INET_TCP_DESTROY and its IPv6 twin, no privilege
 * needed: the kernel marks sock_diag NL_CFG_F_NONROOT_RECV): the final
 * figures of a socket closed between two samples.
 * Non-blocking, drained at each look. */
static int open_destroy(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
		.nl_groups = 1u << (SKNLGRP_INET_TCP_DESTROY - 1) |
			     1u << (SKNLGRP_INET6_TCP_DESTROY - 1) };
	int size = 4 << 20;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_SOCK_DIAG);

	if (fd < 0)
		return -1;
	/* large: every socket of the machine that ends is announced.  Past
	 * net.core.rmem_max (208 kB by default) where tpmon may (root). */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		debug_msg("sock_diag destroy group: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

struct tp_net *net_new(void)
{
	struct tp_net *n;
	size_t cap = 0;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);

	if (fd < 0) {
		debug_msg("sock_diag: %s: network figures unknown", strerror(errno));
		return NULL;
	}
	n = xcalloc(1, sizeof(*n));
	n->fd = fd;
	n->destroy_fd = open_destroy();
	n->cap = 256;
	n->recs = xcalloc(n->cap, sizeof(*n->recs));
	if (proc_read_socket_inodes("self", &n->inherited, &n->ninherited, &cap) > 0)
		qsort(n->inherited, n->ninherited, sizeof(uint64_t), cmp_u64);
	return n;
}

void net_free(struct tp_net *n)
{
	if (!n)
		return;
	close(n->fd);
	if (n->destroy_fd >= 0)
		close(n->destroy_fd);
	free(n->recs);
	free(n->inherited);
	free(n->skip);
	free(n->ino);
	free(n->listeners);
	cgskb_free(n->skb);
	netprobe_free(n->probe);
	free(n->cg_dir);
	free(n->cg_ids);
	free(n);
}

static size_t slot(const struct tp_net *n, uint64_t cookie)
{
	size_t i = (size_t)(cookie * 0x9e3779b97f4a7c15ull) & (n->cap - 1);

	while (n->recs[i].cookie && n->recs[i].cookie != cookie)
		i = (i + 1) & (n->cap - 1);
	return i;
}

static void grow(struct tp_net *n)
{
	struct sock_rec *old = n->recs;
	size_t i, oldcap = n->cap;

	n->cap *= 2;
	n->recs = xcalloc(n->cap, sizeof(*n->recs));
	for (i = 0; i < oldcap; i++)
		if (old[i].cookie)
			n->recs[slot(n, old[i].cookie)] = old[i];
	free(old);
}

static struct sock_rec *find(struct tp_net *n, uint64_t cookie)
{
	struct sock_rec *r = &n->recs[slot(n, cookie)];

	return r->cookie ? r : NULL;
}

/* The record of @cookie, created when @create; an inherited socket starts
 * from the figures it has now. */
struct sock_rec *net_rec_get(struct tp_net *n, uint64_t cookie, uint64_t ino,
			    uint64_t sent, uint64_t recv)
{
	struct sock_rec *r = find(n, cookie);

	if (r)
		return r;
	if ((n->n + 1) * 2 > n->cap)
		grow(n);
	r = &n->recs[slot(n, cookie)];
	r->cookie = cookie;
	if (has_ino(n->inherited, n->ninherited, ino)) {
		r->base_sent = sent;
		r->base_recv = recv;
	}
	r->sent = r->base_sent;
	r->recv = r->base_recv;
	n->n++;
	return r;
}

/* Figures only grow: a smaller one is a stale read. */
static void update(struct tp_net *n, struct sock_rec *r, uint64_t sent, uint64_t recv)
{
	if (sent > r->sent) {
		n->sent += sent - r->sent;
		r->sent = sent;
	}
	if (recv > r->recv) {
		n->recv += recv - r->recv;
		r->recv = recv;
	}
}

/* A connection accepted on a port the tree listens on, that the tree
 * closed before a sample saw it (announced at its destruction). */
static bool accepted_by_tree(const struct tp_net *n, const struct tp_sockdiag_sock *m)
{
	size_t i;

	if (m->state == TP_SOCKDIAG_LISTEN)
		return false;
	for (i = 0; i < n->nlisteners; i++)
		if (n->listeners[i].family == m->family && n->listeners[i].port == m->sport)
			return true;
	return false;
}

void net_add_listener(struct tp_net *n, int family, uint16_t port)
{
	size_t i;

	for (i = 0; i < n->nlisteners; i++)
		if (n->listeners[i].family == family && n->listeners[i].port == port)
			return;
	n->listeners = xreallocarray(n->listeners, n->nlisteners + 1, sizeof(*n->listeners));
	n->listeners[n->nlisteners].family = family;
	n->listeners[n->nlisteners++].port = port;
}

/* One socket of the dump: kept when it belongs to the tree now (by its
 * inode, or made in the task's cgroup), or when it was seen before (it
 * may since have been closed, and still be listed with its final
 * figures).  Called by sockdiag_parse() with net_messages()' @arg. */
static void on_socket(void *arg, const struct tp_sockdiag_sock *m)
{
	struct net_batch *b = arg;
	struct tp_net *n = b->net;
	struct sock_rec *r;
	bool mine = (m->inode && has_ino(n->ino, n->nino, m->inode)) ||
		    (m->cgroup_id && has_ino(n->cg_ids, n->ncg_ids, m->cgroup_id));

	if (n->listener_ino) {	/* find_listener()'s dump */
		if (m->inode == n->listener_ino && m->state == TP_SOCKDIAG_LISTEN)
			net_add_listener(n, m->family, m->sport);
		return;
	}
	if (!mine && (m->inode || (!find(n, m->cookie) && !accepted_by_tree(n, m))))
		return;
	if (!m->info)
		return;		/* a TIME_WAIT socket: its figures are gone */
	r = net_rec_get(n, m->cookie, m->inode, m->bytes_acked, m->bytes_received);
	update(n, r, m->bytes_acked, m->bytes_received);
	if (b->destroyed)
		r->open = false;
	else
		r->dump_gen = n->dump_gen;
}

/* The inet_diag messages in @buf (of a dump, or announcements of
 * @destroyed sockets): 0 at the end of a dump, -1 on an error message, 1
 * when more may come. */
static int on_messages(struct tp_net *n, const char *buf, size_t len, bool destroyed)
{
	struct net_batch b = { n, destroyed };

	return sockdiag_parse(buf, len, on_socket, &b);
}

/* The kernel's TCP states of the mini sockets (include/net/tcp_states.h;
 * no uapi header names them) */
#define TP_TCP_TIME_WAIT 6
#define TP_TCP_NEW_SYN_RECV 12

/* Every state but the two of mini sockets, which carry no INET_DIAG_INFO
 * (on_socket() would drop them): a machine that made many short
 * connections holds thousands in TIME_WAIT, and listing them made each
 * dump cost milliseconds. */
#define DUMP_STATES (~(1u << TP_TCP_TIME_WAIT | 1u << TP_TCP_NEW_SYN_RECV))

/* Send the dump request @req of @len bytes and read the whole dump; -1
 * when sock_diag failed or answered with an error. */
static int run_dump(struct tp_net *n, const void *req, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	static char buf[32768] __attribute__((aligned(NLMSG_ALIGNTO)));

	if (sendto(n->fd, req, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	for (;;) {
		ssize_t got = recv(n->fd, buf, sizeof(buf), 0);
		int r;

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		r = on_messages(n, buf, (size_t)got, false);
		if (r <= 0)
			return r;
	}
}

/* Dump the TCP sockets of @family in @states; -1 when sock_diag failed. */
int net_dump(struct tp_net *n, int family, uint32_t states)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.r.sdiag_family = (unsigned char)family;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_ext = 1 << (INET_DIAG_INFO - 1);
	req.r.idiag_states = states;
	return run_dump(n, &req, sizeof(req));
}

/* Dump the TCP sockets of both families in one walk of the kernel's
 * table: the older TCPDIAG_GETSOCK request dumps them all (family
 * AF_UNSPEC), where SOCK_DIAG_BY_FAMILY walks the whole table once per
 * family.  Where it is refused, one dump per family. */
static int dump_all(struct tp_net *n)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req r;
	} req;

	if (!n->per_family) {
		memset(&req, 0, sizeof(req));
		req.nlh.nlmsg_len = sizeof(req);
		req.nlh.nlmsg_type = TCPDIAG_GETSOCK;
		req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		req.r.idiag_family = AF_INET;	/* not looked at by a dump */
		req.r.idiag_ext = 1 << (INET_DIAG_INFO - 1);
		req.r.idiag_states = DUMP_STATES;
		if (run_dump(n, &req, sizeof(req)) == 0)
			return 0;
		debug_msg("sock_diag: TCPDIAG_GETSOCK refused, one dump per family");
		n->per_family = true;
	}
	return net_dump(n, AF_INET, DUMP_STATES) < 0 || net_dump(n, AF_INET6, DUMP_STATES) < 0 ? -1 : 0;
}

/* Read the destructions announced since the last look.  When the buffer
 * overflowed (ENOBUFS), some were lost: say so once. */
void net_drain_destroyed(struct tp_net *n)
{
	static char buf[32768] __attribute__((aligned(NLMSG_ALIGNTO)));
	static bool warned;

	if (n->destroy_fd < 0)
		return;
	for (;;) {
		ssize_t len = recv(n->destroy_fd, buf, sizeof(buf), 0);
		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0 && errno == ENOBUFS) {
			n->destroys_lost = true;
			if (!warned)
				debug_msg("sock_diag: socket destructions lost (buffer overflow)");
			warned = true;
			continue;
		}
		if (len <= 0)
			return;
		on_messages(n, buf, (size_t)len, true);
	}
}

/* The key that tells whether @p may have new descriptors: its leader's
 * run stamp when it is single-threaded and was not running at its last
 * stat read (nothing changes a process's descriptors while it does not
 * run), else 0, which means rescan. */
static uint64_t fd_key(const struct tp_proc *p)
{
	return p->single && p->run_stamp != UINT64_MAX ? p->run_stamp + 1 : 0;
}

static void proc_freed(void *arg, struct tp_proc *p)
{
	(void)arg;
	free(p->sock_ino);
	p->sock_ino = NULL;
	p->nsock = 0;
}

/* A process of the tree ended: its bytes by the probes are final. */
static void proc_ended(void *arg, const struct tp_proc *p, const struct tp_acct *a)
{
	struct tp_net *n = arg;

	(void)a;
	netprobe_take(n->probe, p->pid);
}

void net_watch(struct tp_net *n, struct tp_ptree *t)
{
	struct tp_ptree_watcher w = { .freed = proc_freed, .ended = proc_ended, .arg = n };

	if (n)
		ptree_watch(t, &w);
}

void net_skip_inode(struct tp_net *n, uint64_t ino)
{
	if (!n || !ino)
		return;
	n->skip = xreallocarray(n->skip, n->nskip + 1, sizeof(*n->skip));
	n->skip[n->nskip++] = ino;
}

/* @v without the inodes to skip; returns how many are left. */
static size_t drop_skipped(const struct tp_net *n, uint64_t *v, size_t cnt)
{
	size_t i, j, k = 0;

	for (i = 0; i < cnt; i++) {
		for (j = 0; j < n->nskip && n->skip[j] != v[i]; j++)
			;
		if (j == n->nskip)
			v[k++] = v[i];
	}
	return k;
}

static void collect_inodes(struct tp_net *n, struct tp_ptree *t)
{
	struct tp_proc *p;
	size_t i;

	n->nino = 0;
	for (p = t->live; p; p = p->next) {
		uint64_t key = fd_key(p);

		if (n->trapping && !p->net_flag)
			continue;
		if (!key || key != p->net_key) {
			uint64_t *v = NULL;
			size_t cnt = 0, cap = 0;
			char pid[16];

			snprintf(pid, sizeof(pid), "%d", (int)p->pid);
			if (proc_read_socket_inodes(pid, &v, &cnt, &cap) >= 0) {
				cnt = drop_skipped(n, v, cnt);
				free(p->sock_ino);
				p->sock_ino = fit(v, cnt);
				p->nsock = (unsigned)cnt;
				p->net_key = key;
				/* without a socket it needs no more scans
				 * until it connects or accepts (caught),
				 * and its children inherit none */
				if (n->trapping)
					p->net_flag = cnt > 0;
			} else {
				free(v);
			}
		}
		for (i = 0; i < p->nsock; i++) {
			if (n->nino == n->ino_cap) {
				n->ino_cap = n->ino_cap ? n->ino_cap * 2 : 64;
				n->ino = xreallocarray(n->ino, n->ino_cap, sizeof(*n->ino));
			}
			n->ino[n->nino++] = p->sock_ino[i];
		}
	}
	if (n->nino > 1)	/* n->ino is NULL before the first socket */
		qsort(n->ino, n->nino, sizeof(*n->ino), cmp_u64);
}

void net_set_trapping(struct tp_net *n, bool on)
{
	if (n)
		n->trapping = on;
}

void net_pace_dumps(struct tp_net *n, bool on)
{
	if (n)
		n->paced = on;
}

/* A dump walks every TCP socket of the machine (the kernel filters the
 * states on the way): with 30,000 in TIME_WAIT one costs 5-10 ms, during
 * which the tracees stopped at a connect or a fork wait.  Paced, dumps
 * take at most this share of a CPU. */
#define DUMP_CPU_SHARE 0.02

/* The ids of the cgroup @dir and of its descendants (a cgroup's id is
 * its directory's inode on cgroup2) appended to n->cg_ids; depth bounded. */
static void add_cgroup_ids(struct tp_net *n, const char *dir, int depth, size_t *cap)
{
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (stat(dir, &st) < 0)
		return;
	if (n->ncg_ids == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		n->cg_ids = xreallocarray(n->cg_ids, *cap, sizeof(*n->cg_ids));
	}
	n->cg_ids[n->ncg_ids++] = (uint64_t)st.st_ino;
	if (depth >= 8 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		char sub[4096];

		if (de->d_type != DT_DIR || de->d_name[0] == '.' ||
		    snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= (int)sizeof(sub))
			continue;
		add_cgroup_ids(n, sub, depth + 1, cap);
	}
	closedir(d);
}

static void refresh_cgroup_ids(struct tp_net *n)
{
	size_t cap = n->ncg_ids;

	if (!n->cg_dir)
		return;
	n->ncg_ids = 0;
	add_cgroup_ids(n, n->cg_dir, 0, &cap);
	if (n->ncg_ids > 1)
		qsort(n->cg_ids, n->ncg_ids, sizeof(*n->cg_ids), cmp_u64);
}

/* The kernel's counters (monotonic: a smaller read is ignored). */
static void read_skb(struct tp_net *n)
{
	uint64_t sent, recv;

	if (cgskb_read(n->skb, &sent, &recv) < 0) {
		debug_msg("cgroup_skb counters: %s", strerror(errno));
		return;
	}
	if (sent > n->sent)
		n->sent = sent;
	if (recv > n->recv)
		n->recv = recv;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* The probes' totals over the tree's processes, ended and live. */
static void read_probe(struct tp_net *n, const struct tp_ptree *t)
{
	const struct tp_proc *p;
	pid_t *live = xreallocarray(NULL, t->nlive + 1, sizeof(*live));
	size_t k = 0;
	uint64_t sent, recv;

	for (p = t->live; p && k < t->nlive; p = p->next)
		live[k++] = p->pid;
	qsort(live, k, sizeof(*live), cmp_pid);
	if (netprobe_totals(n->probe, live, k, &sent, &recv) == 0) {
		n->sent = sent > n->sent ? sent : n->sent;
		n->recv = recv > n->recv ? recv : n->recv;
	}
	free(live);
}

/* Look at the sockets now, or (@all false, paced, trapping) when the last
 * dump's cost allows.  Skipping one loses nothing: each connection of the
 * tree is known from its connect or accept, and the final figures of one
 * closed before the next dump come with its destruction. */
static void sample(struct tp_net *n, struct tp_ptree *t, bool all)
{
	double t0;

	if (!n)
		return;
	if (n->skb) {
		read_skb(n);
		return;
	}
	if (n->probe) {
		read_probe(n, t);
		return;
	}
	collect_inodes(n, t);
	refresh_cgroup_ids(n);
	net_drain_destroyed(n);
	/* a socket seen last time may be closing now: look once more.
	 * With the task's cgroup known and connects not caught, its sockets
	 * are found by the dump itself: every sample dumps. */
	if (n->nino == 0 && !n->had_sockets && !(n->cg_dir && !n->trapping))
		return;
	t0 = clock_mono();
	if (!all && n->paced && n->trapping && t0 < n->next_dump)
		return;
	n->had_sockets = n->nino > 0;
	n->dump_gen++;
	if (dump_all(n) < 0)
		debug_msg("sock_diag dump: %s", strerror(errno));
	n->next_dump = t0 + (clock_mono() - t0) / DUMP_CPU_SHARE;
}

/* The socket probes kept to the task's cgroup, where they work (root):
 * preferred to cgroup_skb, which makes IPv6 TCP lower bounds and counts
 * no UDP; TPMON_NETPROBE=cgskb keeps to cgroup_skb (to compare them). */
static bool cgroup_probes(struct tp_net *n, const char *dir)
{
	const char *env = getenv("TPMON_NETPROBE");
	char why[512];

	if (env && strcmp(env, "cgskb") == 0)
		return false;
	n->probe = netprobe_open(dir, why, sizeof(why));
	if (!n->probe)
		debug_msg("%s: the cgroup's bytes from cgroup_skb", why);
	return n->probe != NULL;
}

bool net_use_cgroup(struct tp_net *n, const char *dir)
{
	char why[512];

	if (!n || !dir)
		return false;
	if (getenv("TPMON_NET_NO_BPF"))	/* to test the other ways */
		snprintf(why, sizeof(why), "TPMON_NET_NO_BPF is set");
	else if (cgroup_probes(n, dir) || (n->skb = cgskb_attach(dir, why, sizeof(why))))
		return true;
	debug_msg("%s: TCP sockets found by sock_diag dumps (INET_DIAG_CGROUP_ID)", why);
	n->cg_dir = xstrdup(dir);
	return false;
}

bool net_use_probes(struct tp_net *n)
{
	char why[512];

	if (!n)
		return false;
	if (getenv("TPMON_NET_NO_BPF"))	/* to test the other ways */
		snprintf(why, sizeof(why), "TPMON_NET_NO_BPF is set");
	else if ((n->probe = netprobe_open(NULL, why, sizeof(why))))
		return true;
	debug_msg("%s: TCP sockets found by sock_diag dumps", why);
	return false;
}

bool net_bytes_exact(const struct tp_net *n)
{
	if (!n)
		return false;
	if (n->skb)
		return !cgskb_ipv6_seen(n->skb);
	if (n->probe)
		return netprobe_complete(n->probe);
	/* every connection is noted at its connect or accept, and its final
	 * figures come with its destruction */
	return n->trapping && n->destroy_fd >= 0 && !n->lost && !n->destroys_lost &&
	       !n->unannounced_end;
}

void net_sample(struct tp_net *n, struct tp_ptree *t)
{
	sample(n, t, false);
}

void net_totals(const struct tp_net *n, uint64_t *sent, uint64_t *received)
{
	*sent = n ? n->sent : 0;
	*received = n ? n->recv : 0;
}

/* Destructions are announced from a kernel work queue, a little after
 * the close: wait that long for those of the tree's last sockets.  On a
 * machine overloaded by other work (a fork bomb beside the task) that
 * work queue can lag by seconds: for a socket the tree connected, whose
 * destruction is not announced yet and which the last dump did not list
 * (it is gone, its last figures are in the announcement), wait longer,
 * up to DESTROY_WAIT_MS in all. */
#define DESTROY_LAG_MS 20
#define DESTROY_WAIT_MS 3000

/* Connected sockets gone without their announcement yet. */
static size_t unannounced(const struct tp_net *n)
{
	size_t i, k = 0;

	for (i = 0; i < n->cap; i++)
		if (n->recs[i].cookie && n->recs[i].open && n->recs[i].dump_gen != n->dump_gen)
			k++;
	return k;
}

/* The kernel's counters once the tree has ended: the sockets it closed
 * may still send what was queued, and their last segments are counted as
 * they go.  Read until they stay the same for DESTROY_LAG_MS. */
static void end_skb(struct tp_net *n)
{
	double start = clock_mono();
	uint64_t s, r;

	do {
		s = n->sent;
		r = n->recv;
		if (s == 0 && r == 0)
			return;	/* no traffic at all */
		usleep(DESTROY_LAG_MS * 1000);
		read_skb(n);
	} while ((n->sent != s || n->recv != r) &&
		 clock_mono() - start < DESTROY_WAIT_MS / 1000.0);
}

void net_end(struct tp_net *n, struct tp_ptree *t)
{
	struct pollfd pfd;
	double start = clock_mono(), quiet_since = start;

	if (!n)
		return;
	if (n->skb) {
		read_skb(n);
		end_skb(n);
		return;
	}
	if (n->probe) {
		read_probe(n, t);
		return;
	}
	if (n->n > 0)
		n->had_sockets = true;	/* one last dump */
	sample(n, t, true);
	if (n->n == 0 || n->destroy_fd < 0)
		return;
	pfd.fd = n->destroy_fd;
	pfd.events = POLLIN;
	/* every socket of the machine is announced: the wait is bounded by
	 * the clock, not by silence */
	for (;;) {
		double now = clock_mono();

		if (now - start >= DESTROY_WAIT_MS / 1000.0 ||
		    (now - quiet_since >= DESTROY_LAG_MS / 1000.0 && !unannounced(n)))
			break;
		if (poll(&pfd, 1, DESTROY_LAG_MS) > 0) {
			net_drain_destroyed(n);
			quiet_since = clock_mono();
		}
	}
	if (unannounced(n)) {
		n->unannounced_end = true;
		debug_msg("sock_diag: %zu %s ended unannounced", unannounced(n),
			  PLURAL(unannounced(n), "connection", "connections"));
	}
}
