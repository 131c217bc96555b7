## SPDX-License-Identifier: MIT
## tests/slurm.mk: tpmon under a real Slurm (a private cluster on localhost,
## tests/slurm-lib.sh), running the examples of doc/engines.md as written
## (tests/doc-blocks.sh reads them, for tests/snakemake-workflow.test too).
## Each test skips itself, saying why, when Slurm is missing or it is not
## root.
TP_SLURM_TESTS = \
	tests/slurm-timelimit.test \
	tests/slurm-jobs.test \
	tests/slurm-cgroup.test
TESTS += $(TP_SLURM_TESTS)
EXTRA_DIST += $(TP_SLURM_TESTS) tests/slurm-lib.sh tests/doc-blocks.sh
