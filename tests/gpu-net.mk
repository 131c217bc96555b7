## SPDX-License-Identifier: MIT
## tests/gpu-net.mk: network (sock_diag) and GPU (NVML) tests, their
## helpers and the fake NVML library.  Included by tests/local.mk.

check_PROGRAMS += tests/helpers/net-peer
tests_helpers_net_peer_SOURCES = tests/helpers/net-peer.c $(TPH_COMMON)
tests_helpers_net_peer_LDADD = $(TPH_LIB)
tests_helpers_net_peer_CPPFLAGS = $(TPH_CPP)
tests_helpers_net_peer_CFLAGS = $(TPH_CF)
tests_helpers_net_peer_LDFLAGS = $(TPH_LD)

TP_GPU_NET_TESTS = tests/net-tcp.test tests/net-storm.test tests/gpu-nvml.test
TESTS += $(TP_GPU_NET_TESTS)
EXTRA_DIST += $(TP_GPU_NET_TESTS)

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
