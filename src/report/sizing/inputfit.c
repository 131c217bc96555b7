/* SPDX-License-Identifier: MIT */
/* inputfit.c: Theil-Sen's line and Spearman's rho (inputfit.h). */
#include <math.h>
#include <stdlib.h>
#include "report/sizing/inputfit.h"
#include "basic/xmalloc.h"

/* The @k-th least (0-based) of the @n values @v, which it reorders
 * (Hoare's selection, the middle element as pivot). */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double p = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

double rp_median_select(double *v, size_t n)
{
	double a = select_kth(v, n, n / 2);

	if (n % 2)
		return a;
	return (a + select_kth(v, n, n / 2 - 1)) / 2;
}

int rp_theil_sen(const double *x, const double *y, size_t n, double *slope, double *icpt)
{
	double *s;
	size_t i, j, m = 0;

	if (n == 0)
		return -1;
	s = xreallocarray(NULL, n * (n - 1) / 2 + n, sizeof(double));
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (x[i] != x[j])
				s[m++] = (y[j] - y[i]) / (x[j] - x[i]);
	*slope = m ? rp_median_select(s, m) : 0;
	for (i = 0; i < n; i++)
		s[i] = y[i] - *slope * x[i];
	*icpt = rp_median_select(s, n);
	free(s);
	return 0;
}

/* The rank of each of the @n values @v into @r (1-based, ties their
 * mean), by counting: O(n^2), for the bounded windows of inputs. */
static void ranks(const double *v, size_t n, double *r)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		size_t below = 0, same = 0;

		for (j = 0; j < n; j++) {
			below += v[j] < v[i];
			same += v[j] == v[i];
		}
		r[i] = (double)below + ((double)same + 1) / 2;
	}
}

double rp_spearman(const double *x, const double *y, size_t n)
{
	double *rx, *ry, mean = ((double)n + 1) / 2, sxy = 0, sxx = 0, syy = 0;
	size_t i;

	if (n < 2)
		return 0;
	rx = xreallocarray(NULL, n, sizeof(double));
	ry = xreallocarray(NULL, n, sizeof(double));
	ranks(x, n, rx);
	ranks(y, n, ry);
	for (i = 0; i < n; i++) {
		sxy += (rx[i] - mean) * (ry[i] - mean);
		sxx += (rx[i] - mean) * (rx[i] - mean);
		syy += (ry[i] - mean) * (ry[i] - mean);
	}
	free(rx);
	free(ry);
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
}
