/*
 * source.c - where bytes come from, behind one small table of functions
 * (read, rewind, close), so that a decoder reads a file, standard input,
 * a decompressed stream or an archive member alike.  This file holds the
 * generic part (look-ahead, counting) and the plain sources: a file, a
 * descriptor, standard input.  "-" means standard input here, for every
 * tool.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/xalloc.h"

#define PEEKMAX	4096

struct ts_source {
	const struct ts_source_ops *ops;
	void		*ctx;
	char		*name;
	int64_t		 size;		/* -1: unknown */
	uint64_t	 nread;		/* bytes handed out */
	/* bytes read ahead by ts_source_peek, or kept to be read again */
	char		*peek;
	size_t		 npeek, peekpos, peekcap;
	bool		 peek_end;	/* ... up to the end */
	bool		 keep;		/* what is read is kept, to replay */
	bool		 is_stdin;
	bool		 rewinds;	/* can go back to its start */
	char		*err;		/* why the last read failed */
};

/*
 * Standard input is one stream for the whole process: the bytes a
 * source on it read but did not hand out (a look at its start, to tell
 * an archive from a data file) are given back when it closes, and the
 * next source on it hands them out first.
 */
static char	*stdin_back;
static size_t	 stdin_nback;
static bool	 stdin_back_end;

struct ts_source *
ts_source_new(const struct ts_source_ops *ops, void *ctx, const char *name,
    int64_t size)
{
	struct ts_source *s = ts_xcalloc(1, sizeof(*s));

	s->ops = ops;
	s->ctx = ctx;
	s->name = ts_xstrdup(name);
	s->size = size;
	return s;
}

const char *
ts_source_name(const struct ts_source *s)
{
	return s->name;
}

void
ts_source_set_name(struct ts_source *s, const char *name)
{
	free(s->name);
	s->name = ts_xstrdup(name);
}

int64_t
ts_source_size(const struct ts_source *s)
{
	return s->size;
}

uint64_t
ts_source_nread(const struct ts_source *s)
{
	return s->nread;
}

bool
ts_source_can_rewind(const struct ts_source *s)
{
	return s->ops->rewind != NULL && (s->size >= 0 || s->rewinds);
}

void
ts_source_rewinds(struct ts_source *s)
{
	s->rewinds = true;
}

/* Read into buf until n bytes or the end; for the look-ahead. */
static long
readfull(struct ts_source *s, char *buf, size_t n)
{
	size_t got = 0;
	long r;

	while (got < n) {
		r = s->ops->read(s->ctx, buf + got, n - got);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (long)got;
}

/* Room for n more bytes in the look-ahead buffer. */
static void
peek_room(struct ts_source *s, size_t n)
{
	if (s->peekcap - s->npeek >= n)
		return;
	if (s->peekcap == 0)
		s->peekcap = PEEKMAX;
	while (s->peekcap - s->npeek < n)
		s->peekcap *= 2;
	s->peek = ts_xrealloc(s->peek, s->peekcap);
}

long
ts_source_peek(struct ts_source *s, const char **p, size_t n)
{
	long r;

	if (n > PEEKMAX)
		n = PEEKMAX;
	if (s->nread > 0 && s->peek == NULL) {
		errno = EINVAL;	/* only before the first read */
		return -1;
	}
	if (s->nread == 0 && s->npeek < n && !s->peek_end) {
		peek_room(s, PEEKMAX);
		if ((r = readfull(s, s->peek + s->npeek, PEEKMAX -
		    (s->npeek < PEEKMAX ? s->npeek : PEEKMAX))) < 0)
			return -1;
		s->npeek += (size_t)r;
		s->peek_end = s->npeek < PEEKMAX;
	}
	*p = s->peek != NULL ? s->peek : "";
	return (long)(s->npeek < n ? s->npeek : n);
}

long
ts_source_read(struct ts_source *s, void *buf, size_t n)
{
	long r;

	if (s->peekpos < s->npeek) {
		size_t k = s->npeek - s->peekpos < n ? s->npeek - s->peekpos :
		    n;

		memcpy(buf, s->peek + s->peekpos, k);
		s->peekpos += k;
		s->nread += k;
		return (long)k;
	}
	if (s->peek_end)
		return 0;	/* the look-ahead met the end */
	r = s->ops->read(s->ctx, buf, n);
	if (r > 0) {
		s->nread += (uint64_t)r;
		if (s->keep) {
			peek_room(s, (size_t)r);
			memcpy(s->peek + s->npeek, buf, (size_t)r);
			s->npeek += (size_t)r;
			s->peekpos = s->npeek;
		}
	} else if (r == 0 && s->keep)
		s->peek_end = true;
	return r;
}

void
ts_source_keep(struct ts_source *s)
{
	s->keep = true;
}

void
ts_source_replay(struct ts_source *s)
{
	s->keep = false;
	s->peekpos = 0;
	s->nread = 0;
}

long
ts_source_pread(struct ts_source *s, void *buf, size_t n, uint64_t off)
{
	if (s->ops->pread == NULL) {
		errno = ENOTSUP;
		return -1;
	}
	return s->ops->pread(s->ctx, buf, n, off);
}

int
ts_source_rewind(struct ts_source *s)
{
	if (s->ops->rewind == NULL) {
		errno = ESPIPE;
		return -1;
	}
	if (s->ops->rewind(s->ctx) != 0)
		return -1;
	free(s->peek);
	s->peek = NULL;
	s->npeek = s->peekpos = s->peekcap = 0;
	s->peek_end = s->keep = false;
	s->nread = 0;
	return 0;
}

int
ts_source_close(struct ts_source *s)
{
	int rv = 0;

	if (s == NULL)
		return 0;
	if (s->ops->close != NULL)
		rv = s->ops->close(s->ctx);
	if (s->is_stdin && s->peekpos < s->npeek) {
		/* Not handed out: the next reader of stdin gets them. */
		memmove(s->peek, s->peek + s->peekpos, s->npeek - s->peekpos);
		free(stdin_back);
		stdin_back = s->peek;
		stdin_nback = s->npeek - s->peekpos;
		stdin_back_end = s->peek_end;
		s->peek = NULL;
	}
	free(s->name);
	free(s->peek);
	free(s->err);
	free(s);
	return rv;
}

const char *
ts_source_error(const struct ts_source *s)
{
	return s->err;
}

void
ts_source_set_error(struct ts_source *s, const char *msg)
{
	free(s->err);
	s->err = msg != NULL ? ts_xstrdup(msg) : NULL;
}

/* ---- a descriptor ---- */

struct fdsrc {
	int	 fd;
	bool	 owned;
};

static long
fd_read(void *ctx, void *buf, size_t n)
{
	struct fdsrc *f = ctx;
	ssize_t r;

	do
		r = read(f->fd, buf, n);
	while (r == -1 && errno == EINTR);
	return (long)r;
}

static int
fd_rewind(void *ctx)
{
	struct fdsrc *f = ctx;

	return lseek(f->fd, 0, SEEK_SET) == -1 ? -1 : 0;
}

static int
fd_close(void *ctx)
{
	struct fdsrc *f = ctx;
	int rv = 0;

	if (f->owned)
		rv = close(f->fd);
	free(f);
	return rv;
}

static long
fd_pread(void *ctx, void *buf, size_t n, uint64_t off)
{
	struct fdsrc *f = ctx;
	ssize_t r;

	do
		r = pread(f->fd, buf, n, (off_t)off);
	while (r == -1 && errno == EINTR);
	return (long)r;
}

static const struct ts_source_ops fd_ops = { fd_read, fd_rewind, fd_close,
    fd_pread };
static const struct ts_source_ops pipe_ops = { fd_read, NULL, fd_close,
    NULL };

/* ---- bytes in memory ---- */

struct memsrc {
	const char	*p;
	size_t		 n, pos;
};

static long
mem_read(void *ctx, void *buf, size_t n)
{
	struct memsrc *m = ctx;

	if (n > m->n - m->pos)
		n = m->n - m->pos;
	if (n > 0)
		memcpy(buf, m->p + m->pos, n);
	m->pos += n;
	return (long)n;
}

static int
mem_rewind(void *ctx)
{
	((struct memsrc *)ctx)->pos = 0;
	return 0;
}

static int
mem_close(void *ctx)
{
	free(ctx);
	return 0;
}

static long
mem_pread(void *ctx, void *buf, size_t n, uint64_t off)
{
	struct memsrc *m = ctx;

	if (off >= m->n || n == 0)
		return 0;
	if (n > m->n - off)
		n = m->n - (size_t)off;
	memcpy(buf, m->p + off, n);
	return (long)n;
}

static const struct ts_source_ops mem_ops = { mem_read, mem_rewind,
    mem_close, mem_pread };

struct ts_source *
ts_source_open_mem(const void *p, size_t n, const char *name)
{
	struct memsrc *m = ts_xcalloc(1, sizeof(*m));

	m->p = p;
	m->n = n;
	return ts_source_new(&mem_ops, m, name, (int64_t)n);
}

/* ---- another source, borrowed ---- */

struct view {
	struct ts_source *in;
	uint64_t	 left;
};

static long
view_read(void *ctx, void *buf, size_t n)
{
	struct view *v = ctx;
	long r;

	if (n > v->left)
		n = (size_t)v->left;
	if (n == 0)
		return 0;
	if ((r = ts_source_read(v->in, buf, n)) > 0)
		v->left -= (uint64_t)r;
	return r;
}

static const struct ts_source_ops view_ops = { view_read, NULL, mem_close,
    NULL };

struct ts_source *
ts_source_borrow(struct ts_source *in, uint64_t max)
{
	struct view *v = ts_xcalloc(1, sizeof(*v));

	v->in = in;
	v->left = max;
	return ts_source_new(&view_ops, v, ts_source_name(in), -1);
}

int
ts_source_fd(const struct ts_source *s)
{
	return s->ops == &fd_ops && !s->is_stdin ?
	    ((const struct fdsrc *)s->ctx)->fd : -1;
}

struct ts_source *
ts_source_open_fd(int fd, const char *name, bool owned)
{
	struct fdsrc *f;
	struct stat st;
	bool reg;

	if (fstat(fd, &st) == -1)
		return NULL;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return NULL;
	}
	reg = S_ISREG(st.st_mode);
	f = ts_xmalloc(sizeof(*f));
	f->fd = fd;
	f->owned = owned;
#ifdef POSIX_FADV_SEQUENTIAL
	if (reg)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	/* Only a regular file can go back to its start: a pipe, a FIFO or
	 * a terminal is read once. */
	return ts_source_new(reg ? &fd_ops : &pipe_ops, f, name,
	    reg ? (int64_t)st.st_size : -1);
}

struct ts_source *
ts_source_open_file(const char *path)
{
	struct ts_source *s;
	int fd, e;

	if (strcmp(path, "-") == 0) {
		if ((s = ts_source_open_fd(STDIN_FILENO, "<stdin>", false)) ==
		    NULL)
			return NULL;
		s->is_stdin = true;
		if (stdin_back != NULL) {
			s->peek = stdin_back;
			s->npeek = s->peekcap = stdin_nback;
			s->peek_end = stdin_back_end;
			stdin_back = NULL;
			stdin_nback = 0;
		}
		return s;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	if ((s = ts_source_open_fd(fd, path, true)) == NULL) {
		e = errno;
		close(fd);
		errno = e;
	}
	return s;
}

struct ts_source *
ts_source_open(const char *path, unsigned flags, const char *tmpdir)
{
	struct ts_source *s = ts_source_open_file(path);

	if (s == NULL)
		return NULL;
	return ts_source_prepare(s, flags, tmpdir);
}

struct ts_source *
ts_source_prepare(struct ts_source *s, unsigned flags, const char *tmpdir)
{
	if ((flags & TS_SOURCE_DECOMPRESS) && ts_source_compression(s) != NULL &&
	    (s = ts_source_decompress(s)) == NULL)
		return NULL;
	if ((flags & TS_SOURCE_REWIND) && !ts_source_can_rewind(s))
		s = ts_source_spool(s, tmpdir);
	return s;
}
