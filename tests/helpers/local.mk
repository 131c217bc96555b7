## SPDX-License-Identifier: MIT
## tests/helpers/local.mk: the misbehaving helper programs run by the
## scenario tests (tests/*.test; each family's .mk lists its tests).
## Helpers are built without sanitizers on purpose: they run under ptrace,
## where LeakSanitizer aborts, and some of them hog memory or fork fast.
## No include path into src/: the helpers share no code with tpmon.
TPH_CPP = -include $(top_builddir)/config.h
TPH_CF = -std=c11 $(TP_WARN_CFLAGS)
TPH_LD =
TPH_COMMON = tests/helpers/helper.h
# helper.c, compiled once for every helper
TPH_LIB = tests/helpers/libhelper.a
check_LIBRARIES = $(TPH_LIB)
tests_helpers_libhelper_a_SOURCES = tests/helpers/helper.c tests/helpers/helper.h
tests_helpers_libhelper_a_CPPFLAGS = $(TPH_CPP)
tests_helpers_libhelper_a_CFLAGS = $(TPH_CF)

check_PROGRAMS += tests/helpers/fork-tree
tests_helpers_fork_tree_SOURCES = tests/helpers/fork-tree.c $(TPH_COMMON)
tests_helpers_fork_tree_LDADD = $(TPH_LIB)
tests_helpers_fork_tree_CPPFLAGS = $(TPH_CPP)
tests_helpers_fork_tree_CFLAGS = $(TPH_CF)
tests_helpers_fork_tree_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/fork-noreap
tests_helpers_fork_noreap_SOURCES = tests/helpers/fork-noreap.c $(TPH_COMMON)
tests_helpers_fork_noreap_LDADD = $(TPH_LIB)
tests_helpers_fork_noreap_CPPFLAGS = $(TPH_CPP)
tests_helpers_fork_noreap_CFLAGS = $(TPH_CF)
tests_helpers_fork_noreap_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/spawn
tests_helpers_spawn_SOURCES = tests/helpers/spawn.c $(TPH_COMMON)
tests_helpers_spawn_LDADD = $(TPH_LIB)
tests_helpers_spawn_CPPFLAGS = $(TPH_CPP)
tests_helpers_spawn_CFLAGS = $(TPH_CF)
tests_helpers_spawn_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/fork-static
tests_helpers_fork_static_SOURCES = tests/helpers/fork-static.c $(TPH_COMMON)
tests_helpers_fork_static_LDADD = $(TPH_LIB)
tests_helpers_fork_static_CPPFLAGS = $(TPH_CPP)
tests_helpers_fork_static_CFLAGS = $(TPH_CF)
# static on purpose: no dynamic loader, so no LD_PRELOAD tracking
tests_helpers_fork_static_LDFLAGS = -static

check_PROGRAMS += tests/helpers/read-files
tests_helpers_read_files_SOURCES = tests/helpers/read-files.c $(TPH_COMMON)
tests_helpers_read_files_LDADD = $(TPH_LIB)
tests_helpers_read_files_CPPFLAGS = $(TPH_CPP)
tests_helpers_read_files_CFLAGS = $(TPH_CF)
# static on purpose: no dynamic loader, so the input is the files named
tests_helpers_read_files_LDFLAGS = -static

check_PROGRAMS += tests/helpers/hog-mem
tests_helpers_hog_mem_SOURCES = tests/helpers/hog-mem.c $(TPH_COMMON)
tests_helpers_hog_mem_LDADD = $(TPH_LIB)
tests_helpers_hog_mem_CPPFLAGS = $(TPH_CPP)
tests_helpers_hog_mem_CFLAGS = $(TPH_CF)
tests_helpers_hog_mem_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/hog-mem-grow
tests_helpers_hog_mem_grow_SOURCES = tests/helpers/hog-mem-grow.c $(TPH_COMMON)
tests_helpers_hog_mem_grow_LDADD = $(TPH_LIB)
tests_helpers_hog_mem_grow_CPPFLAGS = $(TPH_CPP)
tests_helpers_hog_mem_grow_CFLAGS = $(TPH_CF)
tests_helpers_hog_mem_grow_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/shared-mem
tests_helpers_shared_mem_SOURCES = tests/helpers/shared-mem.c $(TPH_COMMON)
tests_helpers_shared_mem_LDADD = $(TPH_LIB)
tests_helpers_shared_mem_CPPFLAGS = $(TPH_CPP)
tests_helpers_shared_mem_CFLAGS = $(TPH_CF)
tests_helpers_shared_mem_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/daemonize
tests_helpers_daemonize_SOURCES = tests/helpers/daemonize.c $(TPH_COMMON)
tests_helpers_daemonize_LDADD = $(TPH_LIB)
tests_helpers_daemonize_CPPFLAGS = $(TPH_CPP)
tests_helpers_daemonize_CFLAGS = $(TPH_CF)
tests_helpers_daemonize_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/threads-exec
tests_helpers_threads_exec_SOURCES = tests/helpers/threads-exec.c $(TPH_COMMON)
tests_helpers_threads_exec_LDADD = $(TPH_LIB)
tests_helpers_threads_exec_CPPFLAGS = $(TPH_CPP)
tests_helpers_threads_exec_CFLAGS = $(TPH_CF)
tests_helpers_threads_exec_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/stop-self
tests_helpers_stop_self_SOURCES = tests/helpers/stop-self.c $(TPH_COMMON)
tests_helpers_stop_self_LDADD = $(TPH_LIB)
tests_helpers_stop_self_CPPFLAGS = $(TPH_CPP)
tests_helpers_stop_self_CFLAGS = $(TPH_CF)
tests_helpers_stop_self_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/ignore-term
tests_helpers_ignore_term_SOURCES = tests/helpers/ignore-term.c $(TPH_COMMON)
tests_helpers_ignore_term_LDADD = $(TPH_LIB)
tests_helpers_ignore_term_CPPFLAGS = $(TPH_CPP)
tests_helpers_ignore_term_CFLAGS = $(TPH_CF)
tests_helpers_ignore_term_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/exit-with
tests_helpers_exit_with_SOURCES = tests/helpers/exit-with.c $(TPH_COMMON)
tests_helpers_exit_with_LDADD = $(TPH_LIB)
tests_helpers_exit_with_CPPFLAGS = $(TPH_CPP)
tests_helpers_exit_with_CFLAGS = $(TPH_CF)
tests_helpers_exit_with_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/kill-self
tests_helpers_kill_self_SOURCES = tests/helpers/kill-self.c $(TPH_COMMON)
tests_helpers_kill_self_LDADD = $(TPH_LIB)
tests_helpers_kill_self_CPPFLAGS = $(TPH_CPP)
tests_helpers_kill_self_CFLAGS = $(TPH_CF)
tests_helpers_kill_self_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/hog-cpu
tests_helpers_hog_cpu_SOURCES = tests/helpers/hog-cpu.c $(TPH_COMMON)
tests_helpers_hog_cpu_LDADD = $(TPH_LIB)
tests_helpers_hog_cpu_CPPFLAGS = $(TPH_CPP)
tests_helpers_hog_cpu_CFLAGS = $(TPH_CF)
tests_helpers_hog_cpu_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/write-disk
tests_helpers_write_disk_SOURCES = tests/helpers/write-disk.c $(TPH_COMMON)
tests_helpers_write_disk_LDADD = $(TPH_LIB)
tests_helpers_write_disk_CPPFLAGS = $(TPH_CPP)
tests_helpers_write_disk_CFLAGS = $(TPH_CF)
tests_helpers_write_disk_LDFLAGS = $(TPH_LD)

check_PROGRAMS += tests/helpers/fork-bomb
tests_helpers_fork_bomb_SOURCES = tests/helpers/fork-bomb.c $(TPH_COMMON)
tests_helpers_fork_bomb_LDADD = $(TPH_LIB)
tests_helpers_fork_bomb_CPPFLAGS = $(TPH_CPP)
tests_helpers_fork_bomb_CFLAGS = $(TPH_CF)
tests_helpers_fork_bomb_LDFLAGS = $(TPH_LD)

EXTRA_DIST += tests/init.sh

# preloaded by quality-outputs.test: json_dumps() fails, a fatal error
check_PROGRAMS += tests/helpers/faildumps/libfaildumps.so
tests_helpers_faildumps_libfaildumps_so_SOURCES = tests/helpers/fail-dumps.c
tests_helpers_faildumps_libfaildumps_so_CPPFLAGS = $(TPH_CPP)
tests_helpers_faildumps_libfaildumps_so_CFLAGS = $(TPH_CF) -fPIC
tests_helpers_faildumps_libfaildumps_so_LDFLAGS = -shared
