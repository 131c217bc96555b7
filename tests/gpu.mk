## SPDX-License-Identifier: MIT
## tests/gpu.mk: the GPU figures: NVML through the fake NVML library, DRM
## fdinfo through documented fdinfo text.
## Included by tests/local.mk.

TP_GPU_TESTS = tests/gpu-nvml.test tests/gpu-drm.test
# a real DRM driver (vgem): in vm-run's VM only (make check-cgroup-vm)
TP_GPU_VM_TESTS = tests/gpu-drm-vgem.test
TESTS += $(TP_GPU_TESTS) $(TP_GPU_VM_TESTS)
EXTRA_DIST += $(TP_GPU_TESTS) $(TP_GPU_VM_TESTS)

# The fake NVML, twice: with nvmlDeviceGetComputeRunningProcesses_v3 and
# its four-field record, and with only the first version of the call.
check_PROGRAMS += tests/helpers/nvml/libnvidia-ml.so.1 tests/helpers/nvml-v1/libnvidia-ml.so.1
tests_helpers_nvml_libnvidia_ml_so_1_SOURCES = tests/helpers/fake-nvml.c
tests_helpers_nvml_libnvidia_ml_so_1_CPPFLAGS = $(TPH_CPP)
tests_helpers_nvml_libnvidia_ml_so_1_CFLAGS = $(TPH_CF) -Wno-missing-prototypes -fPIC -fvisibility=hidden
tests_helpers_nvml_libnvidia_ml_so_1_LDFLAGS = -shared
tests_helpers_nvml_v1_libnvidia_ml_so_1_SOURCES = tests/helpers/fake-nvml.c
tests_helpers_nvml_v1_libnvidia_ml_so_1_CPPFLAGS = $(TPH_CPP) -DFAKE_NVML_V1
tests_helpers_nvml_v1_libnvidia_ml_so_1_CFLAGS = $(TPH_CF) -Wno-missing-prototypes -fPIC -fvisibility=hidden
tests_helpers_nvml_v1_libnvidia_ml_so_1_LDFLAGS = -shared

# DRM fdinfo (src/measure/drmfdinfo.c): the parser on the drivers'
# documented fdinfo, the sums, the /proc reader on a fake proc directory
UNIT_TESTS += tests/unit/test-drmfdinfo
tests_unit_test_drmfdinfo_SOURCES = tests/unit/test-drmfdinfo.c tests/unit/tap.h
tests_unit_test_drmfdinfo_LDADD = $(TPMON_LIBS)

# a process whose descriptors its own user may not read (gpu-drm.test)
check_PROGRAMS += tests/helpers/undumpable
tests_helpers_undumpable_SOURCES = tests/helpers/undumpable.c $(TPH_COMMON)
tests_helpers_undumpable_LDADD = $(TPH_LIB)
tests_helpers_undumpable_CPPFLAGS = $(TPH_CPP)
tests_helpers_undumpable_CFLAGS = $(TPH_CF)
tests_helpers_undumpable_LDFLAGS = $(TPH_LD)

# DRM fdinfo's figures through figures_fill() and the summary writer
UNIT_TESTS += tests/unit/test-drm-summary
tests_unit_test_drm_summary_SOURCES = tests/unit/test-drm-summary.c tests/unit/tap.h
tests_unit_test_drm_summary_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_drm_summary_LDADD = $(TPMON_LIBS)

# the GPU text parsers (DRM fdinfo, KFD, dmem), fuzzed
if ENABLE_FUZZERS
noinst_PROGRAMS += tests/fuzz/fuzz-drm
tests_fuzz_fuzz_drm_SOURCES = tests/fuzz/fuzz-drm.c src/measure/drmfdinfo.c src/measure/kfd.c \
	src/cgroup/dmem.c src/basic/xmalloc.c src/basic/messages.c src/basic/outfile.c
tests_fuzz_fuzz_drm_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS)
tests_fuzz_fuzz_drm_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_FLAGS)
endif
