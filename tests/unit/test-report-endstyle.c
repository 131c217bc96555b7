/* SPDX-License-Identifier: MIT */
/* test-report-endstyle.c: the pictures' colours and shapes for the way a
 * task ended (gp_endstyle, gnuplot.c) are told apart by readers of every
 * common colour vision.  Each pair of colours is simulated as protanopes,
 * deuteranopes and tritanopes see it (Machado, Oliveira and Fernandes,
 * "A physiologically-based model for simulation of color vision
 * deficiency", IEEE TVCG 2009: their matrices at severity 1, applied to
 * linear RGB), then compared in CIELAB (D65): every pair at least 40
 * apart (CIE76 Delta E; about 2.3 is the least a person notices, and
 * the palette before this test had 11 between stopped and failed for a
 * tritanope).  And no two share a point shape, so that grey print keeps
 * them apart too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/gnuplot/gnuplot.h"
#include "tap.h"

#define MIN_DELTA_E 40.0

static const struct {
	const char *name;
	double m[3][3];
} vision[] = {
	{ "common vision", { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } },
	{ "protanopia", { { 0.152286, 1.052583, -0.204868 },
			  { 0.114503, 0.786281, 0.099216 },
			  { -0.003882, -0.048116, 1.051998 } } },
	{ "deuteranopia", { { 0.367322, 0.860646, -0.227968 },
			    { 0.280085, 0.672501, 0.047413 },
			    { -0.011820, 0.042940, 0.968881 } } },
	{ "tritanopia", { { 1.255528, -0.076749, -0.178779 },
			  { -0.078411, 0.930809, 0.147602 },
			  { 0.004733, 0.691367, 0.303900 } } },
};

/* sRGB component (0-255) to linear light */
static double linear(unsigned c)
{
	double v = c / 255.0;

	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double lab_f(double t)
{
	return t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116;
}

/* "#rrggbb" as @vision sees it, in CIELAB; -1 when not such a colour */
static int seen(const char *hex, int v, double lab[3])
{
	unsigned rgb8[3];
	double rgb[3], s[3], x, y, z;
	int i;

	if (strlen(hex) != 7 || sscanf(hex, "#%2x%2x%2x", &rgb8[0], &rgb8[1], &rgb8[2]) != 3)
		return -1;
	for (i = 0; i < 3; i++)
		rgb[i] = linear(rgb8[i]);
	for (i = 0; i < 3; i++) {
		s[i] = vision[v].m[i][0] * rgb[0] + vision[v].m[i][1] * rgb[1] +
		       vision[v].m[i][2] * rgb[2];
		s[i] = s[i] < 0 ? 0 : s[i] > 1 ? 1 : s[i];
	}
	x = (0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2]) / 0.95047;
	y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
	z = (0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2]) / 1.08883;
	lab[0] = 116 * lab_f(y) - 16;
	lab[1] = 500 * (lab_f(x) - lab_f(y));
	lab[2] = 200 * (lab_f(y) - lab_f(z));
	return 0;
}

static double delta_e(const char *a, const char *b, int v)
{
	double la[3], lb[3];

	if (seen(a, v, la) < 0 || seen(b, v, lb) < 0)
		return NAN;
	return sqrt((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) +
		    (la[2] - lb[2]) * (la[2] - lb[2]));
}

int main(void)
{
	size_t nv = sizeof(vision) / sizeof(vision[0]);
	int i, j;
	size_t v;

	plan((int)(nv * 3 + 3 + 1));
	/* the simulation itself: pure red and green, far apart in common
	 * vision, come close for a deuteranope */
	ok(delta_e("#ff0000", "#00ff00", 0) > 80 && delta_e("#d62728", "#2ca02c", 2) < 25,
	   "the simulation: red and green apart in common vision, close in deuteranopia "
	   "(%.1f, %.1f)", delta_e("#ff0000", "#00ff00", 0), delta_e("#d62728", "#2ca02c", 2));
	for (v = 0; v < nv; v++)
		for (i = 0; i < GP_ENDSTYLES; i++)
			for (j = i + 1; j < GP_ENDSTYLES; j++) {
				double d = delta_e(gp_endstyle[i].color, gp_endstyle[j].color, (int)v);

				/* (the colours without their '#', which TAP reads) */
				ok(d >= MIN_DELTA_E, "%s: %s (%s) and %s (%s) %.1f apart (>= %.0f)",
				   vision[v].name, gp_endstyle[i].label, gp_endstyle[i].color + 1,
				   gp_endstyle[j].label, gp_endstyle[j].color + 1, d, MIN_DELTA_E);
			}
	for (i = 0; i < GP_ENDSTYLES; i++)
		for (j = i + 1; j < GP_ENDSTYLES; j++)
			ok(gp_endstyle[i].pt != gp_endstyle[j].pt, "%s and %s: shapes %d and %d",
			   gp_endstyle[i].label, gp_endstyle[j].label, gp_endstyle[i].pt,
			   gp_endstyle[j].pt);
	return done();
}
