## SPDX-License-Identifier: MIT
## tests/sizing.mk: the right-sizing of issue 28 through real engines: the
## requests recommended and replayed under Slurm and Snakemake (running
## doc/engines.md's examples, as tests/slurm.mk's tests) and cctools
## (tests/engines/sizing-manager.py).  Each skips itself, saying why, when
## its engine is missing.  Included by tests/local.mk.
TP_SIZING_TESTS = \
	tests/sizing-slurm.test \
	tests/sizing-snakemake.test \
	tests/sizing-cctools.test
TESTS += $(TP_SIZING_TESTS)
EXTRA_DIST += $(TP_SIZING_TESTS)
