dnl SPDX-License-Identifier: MIT
dnl TP_STATIC_BINARY: configure --enable-static-binary[=full|libs], how the
dnl tpmon program is linked (the unit tests and helpers stay dynamic).
dnl   full (yes): everything static, glibc included: -static-pie where the
dnl     toolchain has it, else -static.  It runs on any x86-64 Linux, in an
dnl     empty chroot too; NVML is loaded only beside the same glibc version
dnl     (TP_STATIC_GLIBC, see src/measure/gpu.c).
dnl   libs: libseccomp, jansson and libcap (and liburing, where it is
dnl     used) from their .a files, glibc shared.
dnl The static link lines of the libraries are pkg-config's own
dnl (PKG_CHECK_MODULES_STATIC: Libs.private included), and replace
dnl SECCOMP_LIBS, JANSSON_LIBS, LIBCAP_LIBS and LIBURING_LIBS.
dnl Sets TP_STATIC_LDFLAGS (tpmon's link) and TP_STATIC (for the summary).
AC_DEFUN([TP_STATIC_BINARY], [
AC_ARG_ENABLE([static-binary],
	[AS_HELP_STRING([--enable-static-binary@<:@=full|libs@:>@],
		[link tpmon statically: full (glibc too; the default of yes) or only libseccomp, jansson and libcap])],
	[], [enable_static_binary=no])
TP_STATIC_LDFLAGS=
AS_IF([test "x$enable_static_binary" != xno && test "x$enable_sanitizers" = xyes],
	[AC_MSG_ERROR([--enable-static-binary and --enable-sanitizers do not go together])])
AS_IF([test "x$enable_static_binary" != xno], [
	PKG_CHECK_MODULES_STATIC([SECCOMP_STATIC], [libseccomp >= 2.4])
	PKG_CHECK_MODULES_STATIC([JANSSON_STATIC], [jansson >= 2.10])
	PKG_CHECK_MODULES_STATIC([LIBCAP_STATIC], [libcap >= 2.25])
	SECCOMP_LIBS=$SECCOMP_STATIC_LIBS
	JANSSON_LIBS=$JANSSON_STATIC_LIBS
	LIBCAP_LIBS=$LIBCAP_STATIC_LIBS
	AS_IF([test "x$have_liburing" = xyes], [
		PKG_CHECK_MODULES_STATIC([LIBURING_STATIC], [liburing >= 2.1])
		LIBURING_LIBS=$LIBURING_STATIC_LIBS])])
tp_static_libs="$SECCOMP_LIBS $JANSSON_LIBS $LIBCAP_LIBS $LIBURING_LIBS"
AS_CASE([$enable_static_binary],
[no], [TP_STATIC=no],
[yes|full], [
	TP_STATIC=full
	tp_save_LDFLAGS=$LDFLAGS
	tp_save_LIBS=$LIBS
	LIBS="$tp_static_libs $LIBS"
	for tp_flag in -static-pie -static; do
		AC_MSG_CHECKING([whether tpmon links with $tp_flag])
		LDFLAGS="$tp_save_LDFLAGS $tp_flag"
		AC_LINK_IFELSE([AC_LANG_PROGRAM([[
#include <jansson.h>
#include <seccomp.h>
#include <sys/capability.h>
]], [[json_decref(json_object()); seccomp_release(seccomp_init(0)); cap_free(cap_get_proc());]])],
			[TP_STATIC_LDFLAGS=$tp_flag])
		AC_MSG_RESULT([${TP_STATIC_LDFLAGS:-no}])
		test -n "$TP_STATIC_LDFLAGS" && break
	done
	LDFLAGS=$tp_save_LDFLAGS
	LIBS=$tp_save_LIBS
	AS_IF([test -z "$TP_STATIC_LDFLAGS"],
		[AC_MSG_ERROR([cannot link tpmon statically (Debian: libc6-dev, libseccomp-dev, libjansson-dev and libcap-dev have the .a files)])])
	TP_STATIC="full ($TP_STATIC_LDFLAGS)"
	AC_DEFINE([TP_STATIC_GLIBC], [1], [tpmon carries its own glibc: NVML only beside the same version])],
[libs], [
	TP_STATIC="libseccomp, jansson, libcap (glibc shared)"
	SECCOMP_LIBS="-Wl,-Bstatic $SECCOMP_LIBS -Wl,-Bdynamic"
	JANSSON_LIBS="-Wl,-Bstatic $JANSSON_LIBS -Wl,-Bdynamic"
	LIBCAP_LIBS="-Wl,-Bstatic $LIBCAP_LIBS -Wl,-Bdynamic"
	AS_IF([test -n "$LIBURING_LIBS"], [LIBURING_LIBS="-Wl,-Bstatic $LIBURING_LIBS -Wl,-Bdynamic"])],
[AC_MSG_ERROR([--enable-static-binary=$enable_static_binary: full, libs or no])])
AC_SUBST([TP_STATIC_LDFLAGS])
])
