/* stream.h: output files written through stdio as the run goes (process
 * records, the trace), created safely by outfile.c. */
#ifndef TPMON_STREAM_H
#define TPMON_STREAM_H

#include <stdio.h>

/* Create @path (outfile_open(): a new file renamed into place, never
 * following a link) and return it as a stream; NULL after printing why. */
FILE *stream_create(const char *path);

#endif
