/* SPDX-License-Identifier: MIT */
/* jsontext.c: untrusted text as a JSON string (invalid UTF-8 becomes
 * U+FFFD), shared by the summary, the process records and the trace. */
#include <string.h>
#include "basic/jsontext.h"
#include "basic/xmalloc.h"

json_t *jsontext_new(const char *s)
{
	size_t len = strlen(s), i = 0, o = 0;
	char *buf;
	json_t *j;

	j = json_stringn(s, len);
	if (j)
		return j;
	buf = xmalloc(len * 3 + 1);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 :
			   (c >> 3) == 30 ? 4 : 0;
		json_t *probe = n && i + n <= len ? json_stringn(s + i, n) : NULL;

		if (probe) {
			memcpy(buf + o, s + i, n);
			o += n;
			i += n;
			json_decref(probe);
		} else {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	j = json_stringn(buf, o);
	free(buf);
	return j;
}
