## SPDX-License-Identifier: MIT
## tests/trace-out.mk: the process records and the trace on a full disk
## (whole records only, the lost ones counted).
TP_TRACE_OUT_TESTS = tests/outputs-full-disk-story.test
TESTS += $(TP_TRACE_OUT_TESTS)
EXTRA_DIST += $(TP_TRACE_OUT_TESTS)
