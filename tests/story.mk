## tests/story.mk: the story of one task: process records, the trace,
## plots, utilization figures and the terminal summary (issue 12).
TP_STORY_TESTS = \
	tests/story-records.test \
	tests/story-records-memory.test \
	tests/story-trace.test

TESTS += $(TP_STORY_TESTS)
EXTRA_DIST += $(TP_STORY_TESTS)
