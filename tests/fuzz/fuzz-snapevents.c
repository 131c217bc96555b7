/* SPDX-License-Identifier: MIT */
/* fuzz-snapevents.c: libFuzzer harness for the --snapshot-events configuration
 * parser.  Feeds the input, NUL-terminated, to snapevents_parse(); aborts when
 * it breaks its contract (a refusal without a one-line printable message,
 * a message left on success).  The parsed set is freed, so ASan sees any
 * leak or double free on the error paths. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measure/snapevents.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char err[512] = "";
	struct tp_snapevents *w;
	size_t i;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	w = snapevents_parse(text, err, sizeof(err));
	if (w) {
		if (err[0])
			abort();
		snapevents_free(w);
	} else {
		if (!err[0] || !memchr(err, '\0', sizeof(err)))
			abort();
		for (i = 0; err[i]; i++)
			if (err[i] == '\n')
				abort();
	}
	free(text);
	return 0;
}
