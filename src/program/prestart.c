/* SPDX-License-Identifier: MIT */
/* prestart.c: the BPF probes loaded in a thread while main() chooses and
 * makes the run's cgroups (prestart.h).  The thread takes no signal (all
 * blocked before it is made), and is joined before the task is forked. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "basic/messages.h"
#include "config/options.h"
#include "kernel/netprobe.h"
#include "kernel/proc.h"
#include "kernel/sigsender/sigprobe.h"
#include "program/prestart.h"

static struct {
	pthread_t thread;
	bool started, joined, want_net;
	struct tp_sigprobe *sigp;
	struct tp_netprobe *netp;
	char sig_why[160], net_why[512];
} pre;

static void *load(void *arg)
{
	(void)arg;
	pre.sigp = sigprobe_open(pre.sig_why, sizeof(pre.sig_why));
	if (pre.want_net)
		pre.netp = netprobe_open_kept(pre.net_why, sizeof(pre.net_why));
	return NULL;
}

/* The socket probes are kept to the run's cgroup where the network is
 * measured by BPF at all (net.c's cgroup_probes()). */
static bool net_wanted(void)
{
	const char *env = getenv("TPMON_NETPROBE");

	return !getenv("TPMON_NET_NO_BPF") && !(env && strcmp(env, "cgskb") == 0);
}

void prestart_begin(const struct tp_options *o)
{
	sigset_t all, old;

	if (pre.started || geteuid() != 0 || o->tracking == TP_TRACK_PTRACE || o->pid)
		return;
	if (proc_init() < 0)	/* (the probes read /proc/self) */
		return;
	pre.want_net = net_wanted();
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pre.started = pthread_create(&pre.thread, NULL, load, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!pre.started)
		debug_msg("prestart: no thread: the probes load on the way");
}

bool prestart_started(void)
{
	return pre.started;
}

static void join(void)
{
	if (!pre.started || pre.joined)
		return;
	pthread_join(pre.thread, NULL);
	pre.joined = true;
	if (!pre.sigp)
		debug_msg("no signal sender: %s", pre.sig_why);
	if (pre.want_net && !pre.netp)
		debug_msg("socket probes, early: %s", pre.net_why);
}

struct tp_sigprobe *prestart_take_sigprobe(void)
{
	struct tp_sigprobe *sp;

	join();
	sp = pre.sigp;
	pre.sigp = NULL;
	return sp;
}

struct tp_netprobe *prestart_take_netprobe(void)
{
	struct tp_netprobe *np;

	join();
	np = pre.netp;
	pre.netp = NULL;
	return np;
}

void prestart_release(void)
{
	join();
	sigprobe_free(pre.sigp);
	netprobe_free(pre.netp);
	pre.sigp = NULL;
	pre.netp = NULL;
}
