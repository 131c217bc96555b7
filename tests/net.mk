## SPDX-License-Identifier: MIT
## tests/net.mk: the network figures (sock_diag): TCP bytes each way, short
## connections, accepts on a socket noted before (the cheaper seccomp
## stops must not lose them), and the net-peer helper.  Included by
## tests/local.mk.

check_PROGRAMS += tests/helpers/net-peer
tests_helpers_net_peer_SOURCES = tests/helpers/net-peer.c $(TPH_COMMON)
tests_helpers_net_peer_LDADD = $(TPH_LIB)
tests_helpers_net_peer_CPPFLAGS = $(TPH_CPP)
tests_helpers_net_peer_CFLAGS = $(TPH_CF)
tests_helpers_net_peer_LDFLAGS = $(TPH_LD)

TP_NET_TESTS = \
	tests/net-tcp.test \
	tests/net-storm.test \
	tests/net-accept.test \
	tests/net-probes.test
TESTS += $(TP_NET_TESTS)
# run again in the VM by make check-cgroup-vm (tests/cgroup.mk): its 6.1
# kernel has kprobes and no socket tracepoints, so the kprobe source's
# rows run there (this project's 6.18 hosts have no CONFIG_KPROBES)
TP_NET_VM_TESTS = tests/net-probes.test
EXTRA_DIST += $(TP_NET_TESTS)
