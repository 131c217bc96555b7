/* SPDX-License-Identifier: MIT */
/* nested.c: a tpmon inside a tpmon.  The outer traces every process and
 * keeps, per registered subtree, the totals of its ended processes and
 * its peak of live ones (ptree.c counts them); it answers an inner tpmon,
 * which cannot trace, with the exact figures of its own child's subtree.  The channel is an
 * AF_UNIX datagram socket pair: the task inherits one end, the outer
 * reads the other with the sender's pid checked by the kernel
 * (SCM_CREDENTIALS); each request carries the socket for its answer
 * (SCM_RIGHTS).  A task that closes the descriptors it inherited
 * (Python's subprocess, Snakemake) finds the outer by name instead: a
 * datagram socket in the abstract namespace under a random name, named
 * in TPMON_NEST, served the same way.  The outer never blocks on either,
 * never lets go of a process, and tells a caller only about a subtree it
 * registered for its own child.  See doc/INTERNALS.md, "Nested tpmon". */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "track/nested.h"
#include "track/ptree.h"
#include "basic/xmalloc.h"

#define NEST_ENV "TPMON_NEST_FD"
#define NEST_NAME_ENV "TPMON_NEST"	/* @name: the outer's abstract socket */
/* The request's magic names the protocol it speaks; the answer comes in
 * the same one, or, to a magic the outer does not know, in its newest with
 * ok 0 (so an inner can ask again in an older one). */
#define NEST_MAGIC1 0x74706e31u		/* "tpn1": totals of ended processes */
#define NEST_MAGIC2 0x74706e32u		/* "tpn2": all their figures, and the
					 * subtree's peak of live processes */
#define NEST_PER_TURN 16		/* requests served per call */
#define NEST_WAIT_MS 10000		/* the inner's patience for an answer */

enum { NEST_REGISTER = 1, NEST_TOTALS = 2 };

struct nest_req {
	uint32_t magic, op;
	int32_t child;
};

/* Answers: magic, ok, then a fixed layout per protocol (an inner may be
 * another build) */
struct nest_ans1 {
	uint64_t procs, cpu_ns, read_bytes, write_bytes;
};

struct nest_ans2 {
	uint64_t procs, peak, peak_ago_us;
	uint64_t cpu_ns, ctxsw;
	uint64_t rchar, wchar, syscr, syscw;
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
};

struct nest_ans {
	uint32_t magic, ok;
	union {
		struct nest_ans1 a1;
		struct nest_ans2 a2;
	} u;
};

#define ANS1_SIZE (offsetof(struct nest_ans, u) + sizeof(struct nest_ans1))
#define ANS2_SIZE (offsetof(struct nest_ans, u) + sizeof(struct nest_ans2))

struct tp_nested {
	int fd;			/* the outer's end */
	int name_fd;		/* the outer's named socket, -1: none */
	int task_fd;		/* the task's end, until the task started */
	char **envp;		/* the traced task's environment, until then */
	char *var;		/* its TPMON_NEST_FD=N */
	char *name_var;		/* its TPMON_NEST=@name, NULL: none */
	struct tp_nests ns;	/* the registrations, once the task started */
};

extern char **environ;

/* Whether @e is the variable @name=... */
static bool is_var(const char *e, const char *name)
{
	size_t len = strlen(name);

	return strncmp(e, name, len) == 0 && e[len] == '=';
}

/* environ with our TPMON_NEST_FD and TPMON_NEST instead of any others */
static void make_env(struct tp_nested *n)
{
	size_t k = 0;
	char **e;

	for (e = environ; *e; e++)
		k++;
	n->envp = xcalloc(k + 3, sizeof(*n->envp));
	k = 0;
	for (e = environ; *e; e++)
		if (!is_var(*e, NEST_ENV) && !is_var(*e, NEST_NAME_ENV))
			n->envp[k++] = *e;
	n->var = xasprintf("%s=%d", NEST_ENV, n->task_fd);
	n->envp[k++] = n->var;
	if (n->name_var)
		n->envp[k] = n->name_var;
}

/* The socket address of abstract name @name (no leading NUL); its length
 * in @len, or 0 for a name that does not fit. */
static void abstract_addr(struct sockaddr_un *sa, socklen_t *len, const char *name)
{
	size_t l = strlen(name);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	*len = 0;
	if (l == 0 || l + 1 > sizeof(sa->sun_path))
		return;
	memcpy(sa->sun_path + 1, name, l);	/* sun_path[0] = 0: abstract */
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + l);
}

/* The outer's socket @fd: credentials on, non-blocking, SIGIO to us. */
static int serve_setup(int fd)
{
	int on = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0 ||
	    fcntl(fd, F_SETOWN, getpid()) < 0 ||
	    fcntl(fd, F_SETFL, O_NONBLOCK | O_ASYNC) < 0)
		return -1;
	return 0;
}

/* The named socket, under a name nobody can guess before we bind it (a
 * name taken already: none, the descriptor alone is handed on). */
static void open_named(struct tp_nested *n)
{
	struct sockaddr_un sa;
	socklen_t len;
	uint64_t r;
	char name[64];
	int fd;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		return;
	snprintf(name, sizeof(name), "tpmon-nest-%ld-%016llx", (long)getpid(),
		 (unsigned long long)r);
	abstract_addr(&sa, &len, name);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (len == 0 || bind(fd, (struct sockaddr *)&sa, len) < 0 || serve_setup(fd) < 0) {
		close(fd);
		return;
	}
	n->name_fd = fd;
	n->name_var = xasprintf("%s=@%s", NEST_NAME_ENV, name);
}

struct tp_nested *nested_open(void)
{
	struct tp_nested *n;
	int sv[2];

	/* the task's end must survive exec: no SOCK_CLOEXEC on it */
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		return NULL;
	if (fcntl(sv[0], F_SETFD, FD_CLOEXEC) < 0 || serve_setup(sv[0]) < 0) {
		close(sv[0]);
		close(sv[1]);
		return NULL;
	}
	n = xcalloc(1, sizeof(*n));
	n->fd = sv[0];
	n->task_fd = sv[1];
	n->name_fd = -1;
	open_named(n);
	make_env(n);
	return n;
}

char **nested_env(const struct tp_nested *n)
{
	return n ? n->envp : NULL;
}

int nested_task_fd(const struct tp_nested *n)
{
	return n ? n->task_fd : -1;
}

static void drop_env(struct tp_nested *n)
{
	free(n->envp);
	free(n->var);
	free(n->name_var);
	n->envp = NULL;
	n->var = NULL;
	n->name_var = NULL;
}

struct tp_nested *nested_started(struct tp_nested *n, int traced, struct tp_ptree *t)
{
	if (!n)
		return NULL;
	close(n->task_fd);
	n->task_fd = -1;
	drop_env(n);
	if (traced) {
		nests_init(&n->ns, t);
		return n;
	}
	nested_close(n);
	return NULL;
}

void nested_close(struct tp_nested *n)
{
	if (!n)
		return;
	if (n->task_fd >= 0)
		close(n->task_fd);
	drop_env(n);
	close(n->fd);
	if (n->name_fd >= 0)
		close(n->name_fd);
	free(n);
}

/* One more live process in registration @tag and in each one enclosing
 * it, up to (not including) registration @stop (0: all); each peak
 * follows.  A new process counts in all; a registration counts its
 * child, already counted by the enclosing ones, in the new one only. */
static void nest_born(struct tp_nests *ns, unsigned tag, unsigned stop)
{
	for (; tag > 0 && tag <= ns->nnest && tag != stop; tag = ns->nest[tag - 1].parent) {
		struct tp_nest *g = &ns->nest[tag - 1];

		if (++g->live > g->peak) {
			g->peak = g->live;
			g->peak_at = ns->tree->now;
		}
	}
}

static void proc_added(void *arg, struct tp_proc *p)
{
	struct tp_nests *ns = arg;
	const struct tp_proc *parent = p->ppid > 0 ? ptree_proc(ns->tree, p->ppid) : NULL;

	p->nest_tag = parent ? parent->nest_tag : 0;
	nest_born(ns, p->nest_tag, 0);
}

static void proc_ended(void *arg, const struct tp_proc *p, const struct tp_acct *a)
{
	struct tp_nests *ns = arg;
	unsigned tag;

	for (tag = p->nest_tag; tag > 0 && tag <= ns->nnest; tag = ns->nest[tag - 1].parent) {
		struct tp_nest *g = &ns->nest[tag - 1];

		ptree_acct_add(&g->acct, a);
		g->procs++;
		if (g->live > 0)
			g->live--;
	}
}

void nests_init(struct tp_nests *ns, struct tp_ptree *t)
{
	struct tp_ptree_watcher w = { .added = proc_added, .ended = proc_ended, .arg = ns };

	memset(ns, 0, sizeof(*ns));
	ns->tree = t;
	ptree_watch(t, &w);
}

unsigned nests_register(struct tp_nests *ns, pid_t owner, pid_t child)
{
	struct tp_proc *c = ptree_proc(ns->tree, child);
	struct tp_nest *g;

	if (!c || c->ppid != owner || ns->nnest >= TP_NEST_MAX)
		return 0;
	if (c->nest_tag && ns->nest[c->nest_tag - 1].child == child)
		return 0;
	g = &ns->nest[ns->nnest++];
	memset(g, 0, sizeof(*g));
	g->owner = owner;
	g->child = child;
	g->parent = c->nest_tag;
	c->nest_tag = ns->nnest;
	/* the enclosing registrations count it already */
	nest_born(ns, c->nest_tag, g->parent);
	return c->nest_tag;
}

/* TOTALS: only for the subtree @sender registered for @child. */
static const struct tp_nest *find_totals(const struct tp_nests *ns, pid_t sender,
					 pid_t child)
{
	unsigned i;

	for (i = 0; i < ns->nnest; i++)
		if (ns->nest[i].owner == sender && ns->nest[i].child == child)
			return &ns->nest[i];
	return NULL;
}

static void fill_ans1(struct nest_ans1 *a, const struct tp_nest *g)
{
	a->procs = g->procs;
	a->cpu_ns = g->acct.cpu_ns;
	a->read_bytes = g->acct.io.read_bytes;
	a->write_bytes = g->acct.io.write_bytes;
}

static void fill_ans2(struct nest_ans2 *a, const struct tp_nest *g, double now)
{
	double ago = now > g->peak_at ? now - g->peak_at : 0;

	a->procs = g->procs;
	a->peak = g->peak;
	a->peak_ago_us = (uint64_t)(ago * 1e6);
	a->cpu_ns = g->acct.cpu_ns;
	a->ctxsw = g->acct.ctxsw;
	a->rchar = g->acct.io.rchar;
	a->wchar = g->acct.io.wchar;
	a->syscr = g->acct.io.syscr;
	a->syscw = g->acct.io.syscw;
	a->read_bytes = g->acct.io.read_bytes;
	a->write_bytes = g->acct.io.write_bytes;
	a->cancelled_write_bytes = g->acct.io.cancelled_write_bytes;
}

/* The answer to @req from @sender (0: not vouched for); its size. */
static size_t answer(struct tp_nests *ns, const struct nest_req *req, pid_t sender,
		     double now, struct nest_ans *ans)
{
	bool v1 = req->magic == NEST_MAGIC1;
	const struct tp_nest *g;

	memset(ans, 0, sizeof(*ans));
	ans->magic = v1 ? NEST_MAGIC1 : NEST_MAGIC2;
	if (sender <= 0 || (!v1 && req->magic != NEST_MAGIC2))
		return v1 ? ANS1_SIZE : ANS2_SIZE;
	if (req->op == NEST_REGISTER) {
		ans->ok = nests_register(ns, sender, req->child) != 0;
	} else if (req->op == NEST_TOTALS &&
		   (g = find_totals(ns, sender, req->child)) != NULL) {
		ans->ok = 1;
		if (v1)
			fill_ans1(&ans->u.a1, g);
		else
			fill_ans2(&ans->u.a2, g, now);
	}
	return v1 ? ANS1_SIZE : ANS2_SIZE;
}

/* Read one request from @fd.  1: one was handled (or dropped), 0: none
 * waiting.  Anyone may send to the named socket: the answer depends on
 * the sender's pid alone, which the kernel vouches for. */
static int serve_one(struct tp_nested *n, int fd, double now)
{
	struct nest_req req;
	struct nest_ans ans;
	size_t len;
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { &req, sizeof(req) };
	struct msghdr msg;
	struct cmsghdr *c;
	struct ucred cred = { 0, 0, 0 };
	int reply = -1, have_cred = 0;
	ssize_t r;

	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof(ctl.buf);
	r = recvmsg(fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (r < 0)
		return errno == EINTR;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level != SOL_SOCKET)
			continue;
		if (c->cmsg_type == SCM_CREDENTIALS &&
		    c->cmsg_len == CMSG_LEN(sizeof(cred))) {
			memcpy(&cred, CMSG_DATA(c), sizeof(cred));
			have_cred = 1;
		} else if (c->cmsg_type == SCM_RIGHTS) {
			size_t k, nfd = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

			for (k = 0; k < nfd; k++) {
				int got;

				memcpy(&got, CMSG_DATA(c) + k * sizeof(int), sizeof(int));
				if (reply < 0)
					reply = got;
				else
					close(got);
			}
		}
	}
	if (r != (ssize_t)sizeof(req))
		memset(&req, 0, sizeof(req));
	/* the sender: a process of the tree, its pid vouched for by the kernel */
	if (!have_cred || cred.pid <= 0 || !ptree_proc(n->ns.tree, cred.pid))
		cred.pid = 0;
	len = answer(&n->ns, &req, cred.pid, now, &ans);
	if (reply >= 0) {
		if (send(reply, &ans, len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			/* the caller's loss: the outer never waits for it */
		}
		close(reply);
	}
	return 1;
}

/* Serve up to NEST_PER_TURN requests waiting on @fd; 1: more may wait. */
static int serve_fd(struct tp_nested *n, int fd, double now)
{
	int i;

	for (i = 0; i < NEST_PER_TURN; i++)
		if (!serve_one(n, fd, now))
			return 0;
	return 1;
}

int nested_serve(struct tp_nested *n, double now)
{
	int more = serve_fd(n, n->fd, now);

	if (n->name_fd >= 0 && serve_fd(n, n->name_fd, now))
		more = 1;
	return more;
}

/* Whether @fd is an AF_UNIX datagram socket (a descriptor closed and its
 * number taken again by something else is not the channel). */
static bool is_dgram_unix(int fd)
{
	struct stat st;
	int v;
	socklen_t l = sizeof(v);

	if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
		return false;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &l) < 0 || v != SOCK_DGRAM)
		return false;
	l = sizeof(v);
	return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &l) == 0 && v == AF_UNIX;
}

/* The inherited descriptor named by TPMON_NEST_FD, or -1. */
static int outer_by_fd(void)
{
	const char *s = getenv(NEST_ENV);
	char *end;
	long fd;

	if (!s || !*s)
		return -1;
	errno = 0;
	fd = strtol(s, &end, 10);
	if (errno || *end || fd < 0 || fd > 1 << 20 || !is_dgram_unix((int)fd))
		return -1;
	return (int)fd;
}

/* A socket connected to the abstract name in TPMON_NEST (@name), or -1. */
static int outer_by_name(void)
{
	const char *s = getenv(NEST_NAME_ENV);
	struct sockaddr_un sa;
	socklen_t len;
	int fd;

	if (!s || s[0] != '@')
		return -1;
	abstract_addr(&sa, &len, s + 1);
	if (len == 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, len) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int nested_outer(void)
{
	int fd = outer_by_fd();

	/* a copy of our own, closed like the named one */
	if (fd >= 0)
		return fcntl(fd, F_DUPFD_CLOEXEC, 3);
	return outer_by_name();
}

/* Ask the outer on @chan in the protocol of @magic; the answer comes on a
 * fresh private pair.  Its size, or -1 for none. */
static ssize_t ask_once(int chan, uint32_t magic, uint32_t op, pid_t child,
			struct nest_ans *ans)
{
	struct nest_req req = { magic, op, (int32_t)child };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { &req, sizeof(req) };
	struct msghdr msg;
	struct cmsghdr *c;
	struct pollfd pfd;
	int sv[2], rc;
	ssize_t len = -1;

	if (chan < 0 || socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	memset(&msg, 0, sizeof(msg));
	memset(&ctl, 0, sizeof(ctl));
	memset(ans, 0, sizeof(*ans));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof(ctl.buf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &sv[1], sizeof(int));
	if (sendmsg(chan, &msg, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		goto out;
	close(sv[1]);
	sv[1] = -1;
	pfd.fd = sv[0];
	pfd.events = POLLIN;
	pfd.revents = 0;
	while ((rc = poll(&pfd, 1, NEST_WAIT_MS)) < 0 && errno == EINTR)
		;
	if (rc == 1)
		len = recv(sv[0], ans, sizeof(*ans), MSG_DONTWAIT);
out:
	close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	return len;
}

/* Ask in protocol 2, and in 1 if the outer speaks only that.  The
 * protocol of an accepted answer, or 0. */
static int ask(int chan, uint32_t op, pid_t child, struct nest_ans *ans)
{
	ssize_t len = ask_once(chan, NEST_MAGIC2, op, child, ans);

	if (len == (ssize_t)ANS2_SIZE && ans->magic == NEST_MAGIC2)
		return ans->ok ? 2 : 0;
	if (len != (ssize_t)ANS1_SIZE || ans->magic != NEST_MAGIC1)
		return 0;
	len = ask_once(chan, NEST_MAGIC1, op, child, ans);
	if (len == (ssize_t)ANS1_SIZE && ans->magic == NEST_MAGIC1 && ans->ok)
		return 1;
	return 0;
}

int nested_register(int chan, pid_t child)
{
	struct nest_ans ans;

	return ask(chan, NEST_REGISTER, child, &ans) > 0 ? 0 : -1;
}

int nested_totals(int chan, pid_t child, struct tp_nest_totals *out)
{
	struct nest_ans ans;
	int v = ask(chan, NEST_TOTALS, child, &ans);

	memset(out, 0, sizeof(*out));
	if (v == 1) {
		out->procs = ans.u.a1.procs;
		out->acct.cpu_ns = ans.u.a1.cpu_ns;
		out->acct.io.read_bytes = ans.u.a1.read_bytes;
		out->acct.io.write_bytes = ans.u.a1.write_bytes;
		return 0;
	}
	if (v != 2)
		return -1;
	out->procs = ans.u.a2.procs;
	out->whole = true;
	out->peak = ans.u.a2.peak;
	out->peak_ago = (double)ans.u.a2.peak_ago_us / 1e6;
	out->acct.cpu_ns = ans.u.a2.cpu_ns;
	out->acct.ctxsw = ans.u.a2.ctxsw;
	out->acct.io.rchar = ans.u.a2.rchar;
	out->acct.io.wchar = ans.u.a2.wchar;
	out->acct.io.syscr = ans.u.a2.syscr;
	out->acct.io.syscw = ans.u.a2.syscw;
	out->acct.io.read_bytes = ans.u.a2.read_bytes;
	out->acct.io.write_bytes = ans.u.a2.write_bytes;
	out->acct.io.cancelled_write_bytes = ans.u.a2.cancelled_write_bytes;
	return 0;
}
