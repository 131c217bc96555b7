dnl SPDX-License-Identifier: MIT
dnl TP_CHECK_CFLAG(FLAG, ACTION-IF-OK): does the C compiler accept FLAG?
AC_DEFUN([TP_CHECK_CFLAG], [
	AS_VAR_PUSHDEF([tp_var], [tp_cv_cflag_$1])
	AC_CACHE_CHECK([whether $CC accepts $1], [tp_var], [
		tp_save_CFLAGS="$CFLAGS"
		CFLAGS="$CFLAGS -Werror $1"
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
			[AS_VAR_SET([tp_var], [yes])], [AS_VAR_SET([tp_var], [no])])
		CFLAGS="$tp_save_CFLAGS"])
	AS_VAR_IF([tp_var], [yes], [$2])
	AS_VAR_POPDEF([tp_var])
])
