/* SPDX-License-Identifier: MIT */
/* labels.h: the one name each group is shown by, everywhere (the page's
 * overview, every chart, the timeline's key, the terminal's headers). */
#ifndef TPMON_REPORT_LABELS_H
#define TPMON_REPORT_LABELS_H

#include <stddef.h>
#include "report/read/store.h"

/* The longest label, in characters. */
#define RP_LABEL_MAX 32

/* Give each of the @n groups @g its label (g[i].label, owned by the
 * group): the shortest run of its last ':'-separated parts that no other
 * group ends with, in shown form (safetext.h), cut at word boundaries to
 * RP_LABEL_MAX characters with ".." where words were left out, and made
 * unique with " (2)", " (3)" where cutting made two equal. */
void rp_labels_assign(struct rp_group *g, size_t n);

/* The label of @s alone, cut as above to at most @max characters: a new
 * string. */
char *rp_label_cut(const char *s, size_t max);

#endif
