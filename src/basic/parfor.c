/* SPDX-License-Identifier: MIT */
/* parfor.c: independent iterations on a few threads (parfor.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include "basic/parfor.h"

struct loop {
	size_t n;
	atomic_size_t next;
	void (*fn)(size_t i, void *arg);
	void *arg;
};

static void *run(void *arg)
{
	struct loop *l = arg;
	size_t i;

	while ((i = atomic_fetch_add(&l->next, 1)) < l->n)
		l->fn(i, l->arg);
	return NULL;
}

int parfor_jobs(int jobs)
{
	if (jobs <= 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cpus > 0 ? (int)cpus : 1;
	}
	return jobs > PARFOR_JOBS_MAX ? PARFOR_JOBS_MAX : jobs;
}

void parfor(size_t n, int jobs, void (*fn)(size_t i, void *arg), void *arg)
{
	struct loop l = { .n = n, .fn = fn, .arg = arg };
	pthread_t th[PARFOR_JOBS_MAX];
	int nth = 0, j;

	atomic_init(&l.next, 0);
	jobs = parfor_jobs(jobs);
	if ((size_t)jobs > n)
		jobs = n > 0 ? (int)n : 1;
	/* (fewer threads when one cannot be made: the caller runs the rest) */
	for (j = 1; j < jobs; j++)
		if (pthread_create(&th[nth], NULL, run, &l) == 0)
			nth++;
	run(&l);
	for (j = 0; j < nth; j++)
		pthread_join(th[j], NULL);
}
