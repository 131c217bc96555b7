## tests/hostile-outputs.mk: what tpmon does with hostile or broken output
## paths (planted links, umask, bad templates), a full disk and a deep tree.
TP_HOSTILE_OUTPUTS_TESTS = tests/outputs-links.test tests/outputs-umask.test \
	tests/outputs-template.test
TESTS += $(TP_HOSTILE_OUTPUTS_TESTS)
EXTRA_DIST += $(TP_HOSTILE_OUTPUTS_TESTS)
