/*
 * spool.c - a source that can go back to its start, made of one that
 * cannot (a pipe, a FIFO, a decompressed stream): its bytes are copied
 * once to a temporary file, unlinked at once so that nothing is left
 * behind even after a kill, and read from there as often as needed.
 * Work that reads its input twice (inferring attributes, then
 * converting) reads a pipe once this way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define CHUNK	(1 << 20)

struct ts_source *
ts_source_spool(struct ts_source *in, const char *tmpdir)
{
	const char *dir = ts_tmpdir(tmpdir);
	struct ts_source *s;
	char *path, *buf;
	uint64_t done = 0;
	long n;
	int fd, e;

	path = ts_xasprintf("%s/tensorsuite.XXXXXX", dir);
	if ((fd = mkstemp(path)) == -1) {
		e = errno;
		free(path);
		ts_source_close(in);
		errno = e;
		return NULL;
	}
	unlink(path);
	free(path);
	buf = ts_xmalloc(CHUNK);
	while ((n = ts_source_read(in, buf, CHUNK)) > 0) {
		if (ts_write_all(fd, buf, (size_t)n) != 0) {
			n = -1;
			break;
		}
		ts_progress(done += (uint64_t)n, 0, true, "copying %s",
		    ts_source_name(in));
	}
	e = errno;
	free(buf);
	if (n < 0 || lseek(fd, 0, SEEK_SET) == -1) {
		if (n >= 0)
			e = errno;
		close(fd);
		ts_source_close(in);
		errno = e;
		return NULL;
	}
	if ((s = ts_source_open_fd(fd, ts_source_name(in), true)) == NULL) {
		e = errno;
		close(fd);
		errno = e;
	}
	ts_source_close(in);
	return s;
}
