## SPDX-License-Identifier: MIT
## tests/batch.mk: tpmon under a real Slurm (a private cluster on localhost,
## tests/slurm-lib.sh) and a real Snakemake, running the examples of
## doc/engines.md as written (tests/doc-blocks.sh reads them).  Each test
## skips itself, saying why, when its engine is missing or it is not root.
TP_BATCH_TESTS = tests/slurm-jobs.test tests/slurm-timelimit.test \
	tests/snakemake-workflow.test tests/sizing-slurm.test tests/sizing-snakemake.test
TESTS += $(TP_BATCH_TESTS)
EXTRA_DIST += $(TP_BATCH_TESTS) tests/slurm-lib.sh tests/doc-blocks.sh
