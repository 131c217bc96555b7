## SPDX-License-Identifier: MIT
## bench/local.mk: `make bench` runs the benchmark against the built tpmon
## (included by Makefile.am).  The bench compiles its own workloads with
## cc at run time, so nothing here is built by `make all`.
EXTRA_DIST += bench/run bench/report-speed bench/phases bench/README.md \
	bench/workloads/rusage-of.c \
	bench/workloads/spin-threads.c \
	bench/workloads/many-alive.c \
	bench/workloads/mem-spike.c \
	bench/workloads/mem-grow.c \
	bench/workloads/disk-grow.c \
	bench/workloads/ptrace-floor.c \
	bench/workloads/tcp-load.c

.PHONY: bench bench-quick bench-report
bench: all
	$(srcdir)/bench/run --tpmon $(abs_top_builddir)/tpmon $(BENCH_FLAGS)
bench-quick: all
	$(srcdir)/bench/run --quick --tpmon $(abs_top_builddir)/tpmon $(BENCH_FLAGS)
# `tpmon report` reading 100,000 summaries (target: 5 s)
bench-report: all
	$(srcdir)/bench/report-speed --tpmon $(abs_top_builddir)/tpmon $(BENCH_FLAGS)
