/* SPDX-License-Identifier: MIT */
/* fuzz-proc.c: libFuzzer harness for the kernel's text parsers (/proc,
 * and the cgroup's flat-keyed, io.stat and pressure files).  Whatever a
 * kernel (or a hostile comm) puts in those files, parsing must neither
 * crash nor read past the text, and a parsed comm is always terminated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup/cgroup.h"
#include "kernel/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	struct proc_stat st;
	struct proc_schedstat ss;
	struct proc_io io;
	struct proc_rollup r;
	pid_t a, b;
	double load;
	uint64_t u, v;
	bool has_full;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (proc_stat_parse(buf, &st) == 0 && memchr(st.comm, '\0', sizeof(st.comm)) == NULL)
		abort();
	proc_schedstat_parse(buf, &ss);
	proc_io_parse(buf, &io);
	proc_rollup_parse(buf, &r);
	proc_status_ids_parse(buf, &a, &b);
	proc_loadavg_parse(buf, &load);
	cgroup_parse_key(buf, "usage_usec", &u);
	cgroup_parse_io(buf, &u, &v);
	cgroup_parse_pressure(buf, &u, &v, &has_full);
	free(buf);
	return 0;
}
