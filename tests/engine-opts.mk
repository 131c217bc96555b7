## tests/engine-opts.mk: resource_monitor's options that the engines can
## pass: --update-summary, --snapshot-events and --pid.  Included by
## tests/local.mk.

TP_ENGINE_OPTS_TESTS = \
	tests/opts-update-summary.test
TESTS += $(TP_ENGINE_OPTS_TESTS)
EXTRA_DIST += $(TP_ENGINE_OPTS_TESTS)
