/*
 * sink.c - where bytes go, behind one small table of functions (write,
 * commit, abort): standard output, a device or FIFO written through, or
 * a file that appears whole or not at all (compressed on the way, when
 * asked, by compress.c).  A file is written to a
 * temporary name beside the target and renamed into place at commit; on
 * abort, or on SIGINT, SIGTERM or SIGHUP, the temporary is removed (as
 * zstd removes a half-written output).  A write error is kept: the
 * commit that follows fails with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/path.h"
#include "util/xalloc.h"

struct ts_sink {
	const struct ts_sink_ops *ops;
	void		*ctx;
	char		*name;
	int		 err;		/* first write error */
};

struct ts_sink *
ts_sink_new(const struct ts_sink_ops *ops, void *ctx, const char *name)
{
	struct ts_sink *k = ts_xcalloc(1, sizeof(*k));

	k->ops = ops;
	k->ctx = ctx;
	k->name = ts_xstrdup(name);
	return k;
}

const char *
ts_sink_name(const struct ts_sink *k)
{
	return k->name;
}

int
ts_sink_write(struct ts_sink *k, const void *buf, size_t n)
{
	if (k->err != 0) {
		errno = k->err;
		return -1;
	}
	if (n == 0)
		return 0;
	if (k->ops->write(k->ctx, buf, n) != 0) {
		k->err = errno != 0 ? errno : EIO;
		return -1;
	}
	return 0;
}

int
ts_sink_commit(struct ts_sink *k)
{
	int rv, e;

	if (k == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (k->err != 0) {
		e = k->err;
		ts_sink_abort(k);
		errno = e;
		return -1;
	}
	rv = k->ops->commit(k->ctx);
	e = errno;
	free(k->name);
	free(k);
	errno = e;
	return rv;
}

void
ts_sink_abort(struct ts_sink *k)
{
	if (k == NULL)
		return;
	k->ops->abort(k->ctx);
	free(k->name);
	free(k);
}

/* ---- a descriptor: standard output, a device, a FIFO ---- */

struct fdsink {
	int	 fd;
	bool	 owned;
};

static int
fd_write(void *ctx, const void *buf, size_t n)
{
	struct fdsink *f = ctx;
	int e = ts_write_all(f->fd, buf, n);

	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
}

static int
fd_commit(void *ctx)
{
	struct fdsink *f = ctx;
	int rv = 0;

	if (f->owned)
		rv = close(f->fd);
	free(f);
	return rv;
}

static void
fd_abort(void *ctx)
{
	fd_commit(ctx);
}

static const struct ts_sink_ops fd_ops = { fd_write, fd_commit, fd_abort };

struct ts_sink *
ts_sink_open_fd(int fd, const char *name, bool owned)
{
	struct fdsink *f = ts_xmalloc(sizeof(*f));

	f->fd = fd;
	f->owned = owned;
	return ts_sink_new(&fd_ops, f, name);
}

/* ---- a file, through a temporary beside it ---- */

struct filesink {
	int	 fd;
	char	*path, *tmp;
};

static int
file_commit(void *ctx)
{
	struct filesink *f = ctx;
	int rv = 0, e = 0;

	if (close(f->fd) != 0)
		rv = -1, e = errno;
	if (rv == 0 && rename(f->tmp, f->path) != 0)
		rv = -1, e = errno;
	if (rv != 0)
		unlink(f->tmp);
	ts_cleanup_remove(f->tmp);
	free(f->tmp);
	free(f->path);
	free(f);
	errno = e;
	return rv;
}

static void
file_abort(void *ctx)
{
	struct filesink *f = ctx;

	close(f->fd);
	unlink(f->tmp);
	ts_cleanup_remove(f->tmp);
	free(f->tmp);
	free(f->path);
	free(f);
}

static const struct ts_sink_ops file_ops = { fd_write, file_commit,
    file_abort };

int
ts_sink_fd(const struct ts_sink *k)
{
	return k->ops == &file_ops ? ((const struct filesink *)k->ctx)->fd :
	    -1;
}

int
ts_sink_skip(struct ts_sink *k, uint64_t n)
{
	if (k->err != 0) {
		errno = k->err;
		return -1;
	}
	if (k->ops != &file_ops) {
		errno = ESPIPE;
		return -1;
	}
	if (n > (uint64_t)INT64_MAX || lseek(((struct filesink *)k->ctx)->fd,
	    (off_t)n, SEEK_CUR) == -1) {
		k->err = n > (uint64_t)INT64_MAX ? EOVERFLOW : errno;
		errno = k->err;
		return -1;
	}
	return 0;
}

const char *
ts_sink_file(const struct ts_sink *k)
{
	return k->ops == &file_ops ? ((const struct filesink *)k->ctx)->tmp :
	    NULL;
}

mode_t
ts_umask(void)
{
	static mode_t m = (mode_t)-1;

	if (m == (mode_t)-1) {
		m = umask(022);
		umask(m);
	}
	return m;
}

static struct ts_sink *sink_open(const char *, unsigned);

struct ts_sink *
ts_sink_open(const char *path, unsigned flags)
{
	const char *z = (flags & TS_SINK_COMPRESS) ?
	    ts_sink_compression(path) : NULL;
	struct ts_sink *k = sink_open(path, flags);

	return k != NULL && z != NULL ? ts_sink_compress(k, z) : k;
}

/*
 * A symbolic link is written through (ts_write_path): what it points to
 * is replaced, beside it the temporary, and the link stays.
 */
static struct ts_sink *
sink_open(const char *path, unsigned flags)
{
	struct ts_sink *k = NULL;
	struct filesink *f;
	struct stat st;
	char *dir, *target;
	int fd, e = 0;

	if (strcmp(path, "-") == 0)
		return ts_sink_open_fd(STDOUT_FILENO, "<stdout>", false);
	target = ts_write_path(path);
	if (stat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
		e = EISDIR;
		goto out;
	}
	if (stat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or a FIFO is written to, never replaced. */
		if ((fd = open(target, O_WRONLY | O_CLOEXEC)) == -1)
			e = errno;
		else
			k = ts_sink_open_fd(fd, path, true);
		goto out;
	}
	if (!(flags & TS_SINK_FORCE) && lstat(target, &st) == 0) {
		e = EEXIST;
		goto out;
	}
	f = ts_xcalloc(1, sizeof(*f));
	dir = ts_dirname(target);
	/* What a killed writer of the file left goes first. */
	ts_debris_clean(dir, ts_basename(target), false);
	f->tmp = ts_tmpname(dir, ts_basename(target), NULL);
	free(dir);
	ts_cleanup_add(f->tmp, false);
	if ((f->fd = mkstemp(f->tmp)) == -1) {
		e = errno;
		ts_cleanup_remove(f->tmp);
		free(f->tmp);
		free(f);
		goto out;
	}
	fchmod(f->fd, 0644 & ~ts_umask());
	f->path = target;
	return ts_sink_new(&file_ops, f, path);
out:
	free(target);
	errno = e;
	return k;
}
