/* stream.c: the files that grow during a run and are written through
 * stdio, made by outfile.c like every other output. */
#include <errno.h>
#include <unistd.h>
#include "error.h"
#include "outfile.h"
#include "stream.h"

FILE *stream_create(const char *path)
{
	struct tp_outfile *of = outfile_open(path);
	FILE *f;
	int fd;

	if (!of) {
		perror_msg("cannot write %s", path);
		return NULL;
	}
	fd = outfile_steal_fd(of);
	f = fdopen(fd, "w");
	if (!f) {
		perror_msg("cannot write %s", path);
		close(fd);
	}
	return f;
}
