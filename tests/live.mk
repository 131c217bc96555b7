## SPDX-License-Identifier: MIT
## tests/live.mk: the live figures (src/live, issue 26): the runtime file
## and `tpmon top` (in tmux), and the real collectors started on localhost
## by tests/live-lib.sh: node_exporter and Prometheus, influxd, cctools'
## catalog_server; a collector down or hung.  Each skips with its reason
## where a server is missing.
TP_LIVE_TESTS = tests/live-runtime.test tests/live-top.test \
	tests/live-prometheus.test tests/live-influxdb.test \
	tests/live-down.test tests/live-catalog.test
TESTS += $(TP_LIVE_TESTS)
EXTRA_DIST += $(TP_LIVE_TESTS) tests/live-lib.sh
