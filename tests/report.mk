## SPDX-License-Identifier: MIT
## tests/report.mk: `tpmon report`: unit tests of its statistics and of its
## copy of cctools' allocation code, and scenario tests of its inputs and
## outputs (included by tests/local.mk).
UNIT_TESTS += tests/unit/test-report
tests_unit_test_report_SOURCES = tests/unit/test-report.c tests/unit/tap.h
tests_unit_test_report_LDADD = $(REPORT_LIBS)
UNIT_TESTS += tests/unit/test-report-readers
tests_unit_test_report_readers_SOURCES = tests/unit/test-report-readers.c tests/unit/tap.h
tests_unit_test_report_readers_LDADD = $(REPORT_LIBS)
UNIT_TESTS += tests/unit/test-report-timeline
UNIT_TESTS += tests/unit/test-report-sumscan
tests_unit_test_report_sumscan_SOURCES = tests/unit/test-report-sumscan.c tests/unit/tap.h
tests_unit_test_report_sumscan_LDADD = $(REPORT_LIBS)
UNIT_TESTS += tests/unit/test-report-sizing
tests_unit_test_report_sizing_SOURCES = tests/unit/test-report-sizing.c tests/unit/tap.h
tests_unit_test_report_sizing_LDADD = $(REPORT_LIBS)
UNIT_TESTS += tests/unit/test-report-inputfit
tests_unit_test_report_inputfit_SOURCES = tests/unit/test-report-inputfit.c tests/unit/tap.h
tests_unit_test_report_inputfit_LDADD = $(REPORT_LIBS)
UNIT_TESTS += tests/unit/test-report-store
tests_unit_test_report_store_SOURCES = tests/unit/test-report-store.c tests/unit/tap.h
tests_unit_test_report_store_LDADD = $(REPORT_LIBS)
UNIT_TESTS += tests/unit/test-report-labels
# the pictures' colours for how a task ended, under simulated colour vision
UNIT_TESTS += tests/unit/test-report-endstyle
tests_unit_test_report_endstyle_SOURCES = tests/unit/test-report-endstyle.c tests/unit/tap.h
tests_unit_test_report_endstyle_LDADD = $(REPORT_LIBS) -lm
UNIT_TESTS += tests/unit/test-report-batchread
tests_unit_test_report_batchread_SOURCES = tests/unit/test-report-batchread.c tests/unit/tap.h
tests_unit_test_report_batchread_LDADD = $(REPORT_LIBS)
tests_unit_test_report_labels_SOURCES = tests/unit/test-report-labels.c tests/unit/tap.h
tests_unit_test_report_labels_LDADD = $(REPORT_LIBS)
tests_unit_test_report_timeline_SOURCES = tests/unit/test-report-timeline.c tests/unit/tap.h
tests_unit_test_report_timeline_LDADD = $(REPORT_LIBS)

REPORT_TESTS = tests/report-inputs.test tests/report-cctools.test tests/report-outputs.test \
	tests/report-devices.test \
	tests/report-makeflow.test tests/report-zero.test tests/report-inject.test \
	tests/report-others.test tests/report-timeline.test tests/report-html.test tests/report-page.test \
	tests/report-hostile-files.test tests/report-text.test tests/report-write-errors.test \
	tests/report-layers.test tests/report-sizing.test tests/report-trust.test \
	tests/report-jobs.test tests/report-cache.test tests/report-units.test \
	tests/report-input.test \
	tests/report-byjob.test
TESTS += $(REPORT_TESTS)
EXTRA_DIST += $(REPORT_TESTS) tests/report/wq-transactions tests/report/vine-transactions \
	tests/report/nf-trace.txt tests/report/nf-trace-raw.txt tests/report/sacct.psv tests/report/smk \
	tests/report/cctools-alloc.c tests/report/gen-summaries.awk tests/report/png-check.py \
	tests/report/gen-nf-core.py tests/report/nf-core-trace.txt tests/report/nf-bad-trace.txt \
	tests/report/sizing-check.py tests/report/nf-config-check.groovy \
	tests/report/gen-input-trace.py tests/report/nf-input-check.groovy

# libFuzzer harness of the report's readers of outside input (transaction
# logs, summaries); seeds in tests/fuzz/corpus/report/.
if ENABLE_FUZZERS
noinst_PROGRAMS += tests/fuzz/fuzz-report
tests_fuzz_fuzz_report_SOURCES = tests/fuzz/fuzz-report.c \
	src/report/read/txnlog.c src/report/read/rsummary.c src/report/read/sumscan.c src/basic/sumkeys.c \
	src/report/read/store.c \
	src/report/read/rtask.c src/basic/units.c src/basic/resources.c src/basic/editdist.c src/basic/figtable.c src/basic/xmalloc.c src/basic/messages.c src/basic/outfile.c \
	src/basic/safetext.c
tests_fuzz_fuzz_report_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_report_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_report_LDADD = $(JANSSON_LIBS)

# ... and of the cache (--cache=FILE); seeds in tests/fuzz/corpus/report-cache/.
noinst_PROGRAMS += tests/fuzz/fuzz-report-cache
tests_fuzz_fuzz_report_cache_SOURCES = tests/fuzz/fuzz-report-cache.c \
	src/report/read/rcache.c src/report/files/infile.c src/report/read/store.c \
	src/report/read/rtask.c src/basic/units.c src/basic/resources.c src/basic/editdist.c src/basic/figtable.c \
	src/basic/xmalloc.c src/basic/messages.c src/basic/safetext.c src/basic/outfile.c
tests_fuzz_fuzz_report_cache_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_report_cache_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)

# ... and of other tools' records (Nextflow, Snakemake, sacct); seeds in
# tests/fuzz/corpus/report-others/.
noinst_PROGRAMS += tests/fuzz/fuzz-report-others
tests_fuzz_fuzz_report_others_SOURCES = tests/fuzz/fuzz-report-others.c \
	src/report/read/foreign.c src/report/read/nextflow.c src/report/read/snakemake.c \
	src/report/read/sacct.c src/report/read/table.c src/report/read/store.c src/report/read/rtask.c \
	src/basic/figtable.c src/basic/xmalloc.c src/basic/messages.c src/basic/outfile.c
tests_fuzz_fuzz_report_others_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_report_others_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_report_others_LDADD = $(JANSSON_LIBS)

# ... and of the writers of untrusted text (shown form, gnuplot strings,
# HTML text, the SVG check, CSV's UTF-8, JSON, the emitters' escapes), each output judged by a
# checker of the harness's own; seeds in tests/fuzz/corpus/writers/.
noinst_PROGRAMS += tests/fuzz/fuzz-writers
tests_fuzz_fuzz_writers_SOURCES = tests/fuzz/fuzz-writers.c \
	src/basic/safetext.c src/basic/jsontext.c src/basic/shquote.c \
	src/report/gnuplot/gnuplot.c src/report/write/html.c \
	src/report/files/infile.c src/report/write/escape.c \
	src/basic/xmalloc.c src/basic/messages.c src/basic/outfile.c
tests_fuzz_fuzz_writers_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_writers_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_writers_LDADD = $(JANSSON_LIBS)
endif

# the escapes of untrusted text (safetext.c, gnuplot.c, HTML, CSV)
UNIT_TESTS += tests/unit/test-untrusted
tests_unit_test_untrusted_SOURCES = tests/unit/test-untrusted.c tests/unit/tap.h
tests_unit_test_untrusted_LDADD = $(REPORT_LIBS)
