/* SPDX-License-Identifier: MIT */
/* inputs.h: the task's input, as the summary's input_size and input_files
 * give it: the regular files the tree opened for reading, each counted
 * once (by device and inode) with its size at its first such open.  Fed
 * by the open calls that stop in the tracer (opens.h); see the man page,
 * input_size, for what counts. */
#ifndef TPMON_INPUTS_H
#define TPMON_INPUTS_H

#include <stdbool.h>
#include <stdint.h>
#include "measure/opens.h"

struct tp_inputs;

/* What the summary says of the input. */
struct tp_input_figures {
	bool known;		/* every open call was seen */
	bool partial;		/* some could not be read: a lower bound */
	uint64_t bytes;		/* the files' sizes at their first open */
	unsigned long files;	/* how many distinct files */
	const char *reason;	/* unknown: why, in words (static); else NULL */
};

/* An empty set, owned by the caller (inputs_free()). */
struct tp_inputs *inputs_new(void);
/* The open call @c was made: count its file if it opens an existing
 * regular file for reading (O_RDONLY or O_RDWR, not O_PATH nor O_TRUNC),
 * outside the kernel's pseudo-file systems (proc, sysfs, ...). */
void inputs_open(struct tp_inputs *in, const struct tp_open_call *c);
/* An open call could not be read (opens_call_get()'s @err): the figures
 * become a lower bound (a path), or unknown (the call itself). */
void inputs_missed(struct tp_inputs *in, int err);
/* The figures so far into @out; @in NULL: unknown, for @reason. */
void inputs_figures(const struct tp_inputs *in, const char *reason,
		    struct tp_input_figures *out);
/* Is the open flag word @flags a read of what is there (pure)? */
bool inputs_flags_read(uint64_t flags);
void inputs_free(struct tp_inputs *in);

#endif
