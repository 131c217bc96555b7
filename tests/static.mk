## SPDX-License-Identifier: MIT
## tests/static.mk: the tests of the static binary: a tpmon built with
## --enable-static-binary (they skip themselves, saying why, with a dynamic
## tpmon) in an empty chroot and with the fake libc.so.6 of another glibc
## version.
## Included by tests/local.mk.

TP_STATIC_TESTS = \
	tests/static-chroot.test \
	tests/static-glibc.test
TESTS += $(TP_STATIC_TESTS)
EXTRA_DIST += $(TP_STATIC_TESTS)

check_PROGRAMS += tests/helpers/fakelibc/libc.so.6
tests_helpers_fakelibc_libc_so_6_SOURCES = tests/helpers/fake-libc.c
tests_helpers_fakelibc_libc_so_6_CPPFLAGS = $(TPH_CPP)
tests_helpers_fakelibc_libc_so_6_CFLAGS = $(TPH_CF) -fPIC
tests_helpers_fakelibc_libc_so_6_LDFLAGS = -shared -nostdlib -Wl,-soname,libc.so.6
