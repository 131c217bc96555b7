dnl SPDX-License-Identifier: MIT
dnl AX_PTHREAD_SIMPLE: find pthread_create (glibc has it in libc since 2.34).
AC_DEFUN([AX_PTHREAD_SIMPLE], [
	AC_SEARCH_LIBS([pthread_create], [pthread], [],
		[AC_MSG_ERROR([pthreads are required])])
])
