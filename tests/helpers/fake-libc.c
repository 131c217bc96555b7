/* SPDX-License-Identifier: MIT */
/* fake-libc: a libc.so.6 whose banner says glibc 2.99: what a static
 * tpmon finds on a worker whose glibc is not the one it was linked with
 * (tests/static-glibc.test puts it first on LD_LIBRARY_PATH).  tpmon only
 * reads it, never loads it.  Built with -nostdlib: it needs nothing. */

extern const char fake_libc_banner[];

const char fake_libc_banner[] = "GNU C Library (tpmon test) stable release version 2.99.";
