/*
 * source.c - where bytes come from: a file or standard input.  One pair
 * of helpers decides what "-" means for every tool.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "format/scan.h"

int
ts_source_open(struct ts_source *s, const char *path)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (strcmp(path, "-") == 0) {
		s->fd = STDIN_FILENO;
		s->is_stdin = true;
		s->name = ts_xstrdup("<stdin>");
	} else {
		if ((s->fd = open(path, O_RDONLY)) == -1)
			return -1;
		s->name = ts_xstrdup(path);
	}
	if (fstat(s->fd, &st) == -1) {
		int e = errno;

		ts_source_close(s);
		errno = e;
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		ts_source_close(s);
		errno = EISDIR;
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		s->is_regular = true;
		s->size = (uint64_t)st.st_size;
#ifdef POSIX_FADV_SEQUENTIAL
		(void)posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	}
	return 0;
}

int
ts_source_open_fd(struct ts_source *s, int fd, const char *name)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (fstat(fd, &st) == -1)
		return -1;
	s->fd = fd;
	s->name = ts_xstrdup(name);
	if (S_ISREG(st.st_mode)) {
		s->is_regular = true;
		s->size = (uint64_t)st.st_size;
	}
	return 0;
}

long
ts_source_peek(struct ts_source *s, const char **p, size_t n)
{
	ssize_t r;

	if (s->peek == NULL) {
		s->peek = ts_xmalloc(n);
		while (s->npeek < n) {
			r = read(s->fd, s->peek + s->npeek, n - s->npeek);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return -1;
			if (r == 0)
				break;
			s->npeek += (size_t)r;
		}
	}
	*p = s->peek;
	return (long)s->npeek;
}

long
ts_source_read(struct ts_source *s, void *buf, size_t n)
{
	ssize_t r;

	if (s->peekpos < s->npeek) {
		size_t k = s->npeek - s->peekpos < n ? s->npeek - s->peekpos :
		    n;

		memcpy(buf, s->peek + s->peekpos, k);
		s->peekpos += k;
		s->nread += k;
		return (long)k;
	}
	do
		r = read(s->fd, buf, n);
	while (r == -1 && errno == EINTR);
	if (r > 0)
		s->nread += (uint64_t)r;
	return (long)r;
}

void
ts_source_close(struct ts_source *s)
{
	if (s->fd >= 0 && !s->is_stdin)
		close(s->fd);
	free(s->name);
	free(s->peek);
	s->name = NULL;
	s->peek = NULL;
	s->fd = -1;
}

long
ts_fill(struct ts_source *src, char **buf, size_t *cap, size_t *pos,
    size_t *len, size_t maxcap)
{
	long n;

	if (*pos > 0) {
		memmove(*buf, *buf + *pos, *len - *pos);
		*len -= *pos;
		*pos = 0;
	}
	if (*cap - *len < 2) {	/* keep room for a sentinel */
		if (*cap >= maxcap) {
			errno = EFBIG;
			return -1;
		}
		*cap *= 2;
		*buf = ts_xrealloc(*buf, *cap);
	}
	n = ts_source_read(src, *buf + *len, *cap - *len - 1);
	if (n > 0)
		*len += (size_t)n;
	return n;
}
