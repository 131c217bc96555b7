## SPDX-License-Identifier: MIT
## tests/ship.mk: the tests of what is shipped: a tpmon built with
## --enable-static-binary (they skip themselves, saying why, with a dynamic
## tpmon) with the fake libc.so.6 of another glibc version, and the one
## version that the program, the man page, NEWS and debian/ give.
## Included by tests/local.mk.

TP_SHIP_TESTS = tests/static-chroot.test tests/static-glibc.test tests/release-version.test
TESTS += $(TP_SHIP_TESTS)
EXTRA_DIST += $(TP_SHIP_TESTS)

check_PROGRAMS += tests/helpers/fakelibc/libc.so.6
tests_helpers_fakelibc_libc_so_6_SOURCES = tests/helpers/fake-libc.c
tests_helpers_fakelibc_libc_so_6_CPPFLAGS = $(TPH_CPP)
tests_helpers_fakelibc_libc_so_6_CFLAGS = $(TPH_CF) -fPIC
tests_helpers_fakelibc_libc_so_6_LDFLAGS = -shared -nostdlib -Wl,-soname,libc.so.6
