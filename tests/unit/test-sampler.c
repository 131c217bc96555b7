/* SPDX-License-Identifier: MIT */
/* test-sampler.c: the sampler (measure/sampler.c) on real processes: two
 * children, one holding 64 MiB it wrote and one burning 0.3 s of CPU,
 * put in a table as the tracker would; a sample sees both processes, an
 * RSS sum 64 MiB above that of two idle children of the same program
 * (sampled alike; up to 16 MiB more for a sanitizer's shadow), the CPU
 * of the burner, a PSS that is not above the RSS, and the biggest
 * process named. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "kernel/proc.h"
#include "measure/sampler.h"
#include "track/ptree.h"
#include "tap.h"

#define HOLD_MB 64

/* A child that does @what, tells the parent through @ready, then waits
 * to be killed. */
static pid_t child(int what)
{
	int p[2];
	pid_t pid;
	char c = 'r';

	if (pipe(p) < 0 || (pid = fork()) < 0)
		exit(99);
	if (pid == 0) {
		close(p[0]);
		if (what == 2) {
			/* idle: the program's own memory only */
		} else if (what == 0) {
			volatile char *m = malloc((size_t)HOLD_MB << 20);
			size_t i;

			if (!m)
				_exit(1);
			/* every page written (volatile: the compiler may not
			 * drop the stores of memory never read) */
			for (i = 0; i < (size_t)HOLD_MB << 20; i += 4096)
				m[i] = 1;
		} else {
			struct timespec ts;
			double start;

			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
			start = (double)ts.tv_sec + ts.tv_nsec / 1e9;
			do
				clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
			while ((double)ts.tv_sec + ts.tv_nsec / 1e9 - start < 0.3);
		}
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		exit(99);
	close(p[0]);
	return pid;
}

/* The RSS sum, MB, of two idle children, sampled as the others are. */
static double idle_rss(void)
{
	struct tp_ptree t;
	struct tp_sampler sm;
	struct tp_sample s;
	pid_t a = child(2), b = child(2);

	ptree_init(&t);
	sampler_init(&sm, &t);
	sampler_started(&sm, ptree_add_proc(&t, a, 0));
	sampler_started(&sm, ptree_add_proc(&t, b, 0));
	memset(&s, 0, sizeof(s));
	sampler_sample(&sm, 1.0, NULL, &s);
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	ptree_free(&t);
	return s.rss_mb;
}

int main(void)
{
	struct tp_ptree t;
	struct tp_sampler sm;
	struct tp_sample s;
	struct tp_proc *ph, *pb;
	pid_t holder, burner;
	bool done_one;
	double idle;

	plan(8);
	if (proc_init() < 0)
		return 99;
	idle = idle_rss();
	holder = child(0);
	burner = child(1);
	ptree_init(&t);
	sampler_init(&sm, &t);
	ph = ptree_add_proc(&t, holder, 0);	/* with its leader thread */
	pb = ptree_add_proc(&t, burner, 0);
	sampler_started(&sm, ph);
	sampler_started(&sm, pb);

	memset(&s, 0, sizeof(s));
	done_one = sampler_sample(&sm, 1.0, NULL, &s);
	ok(done_one, "without a deadline the sample completes");
	is_int(s.nprocs, 2, "two live processes");
	is_int(s.nthreads, 2, "two threads");
	ok(s.rss_mb - idle >= HOLD_MB - 1 && s.rss_mb - idle < HOLD_MB + 16,
	   "RSS sum %.1f MB, %.1f MB above two idle children's: the 64 MiB held",
	   s.rss_mb, s.rss_mb - idle);
	ok(s.pss_mb > 0 && s.pss_mb <= s.rss_mb + 0.01, "PSS %.1f MB, not above the RSS", s.pss_mb);
	ok(s.vm_mb >= s.rss_mb, "virtual size %.1f MB at least the RSS", s.vm_mb);
	ok(s.cpu_s >= 0.29 && s.cpu_s < 30, "CPU %.3f s: the burner's 0.3 s at least", s.cpu_s);
	is_int(s.biggest_pid, holder, "the biggest process is the holder");

	kill(holder, SIGKILL);
	kill(burner, SIGKILL);
	waitpid(holder, NULL, 0);
	waitpid(burner, NULL, 0);
	ptree_free(&t);
	return done();
}
