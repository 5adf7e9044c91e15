/*
 * bundle_out.c - a bundle being written, behind one small table of
 * functions (a sink per file, commit, abort), so that a tool writes a
 * bundle directory or an archive alike.  This file holds the generic
 * part and the directory: the files are written in a temporary directory
 * beside the target, which is renamed into place at commit; abort, or a
 * signal, removes it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/xalloc.h"

struct ts_bundle_out {
	const struct ts_bundle_out_ops *ops;
	void		*ctx;
	char		*name;
};

struct ts_bundle_out *
ts_bundle_out_new(const struct ts_bundle_out_ops *ops, void *ctx,
    const char *name)
{
	struct ts_bundle_out *o = ts_xcalloc(1, sizeof(*o));

	o->ops = ops;
	o->ctx = ctx;
	o->name = ts_xstrdup(name);
	return o;
}

const char *
ts_bundle_out_name(const struct ts_bundle_out *o)
{
	return o->name;
}

struct ts_sink *
ts_bundle_out_file(struct ts_bundle_out *o, const char *fname)
{
	return o->ops->file(o->ctx, fname);
}

int
ts_bundle_out_commit(struct ts_bundle_out *o)
{
	int rv, e;

	if (o == NULL) {
		errno = EINVAL;
		return -1;
	}
	rv = o->ops->commit(o->ctx);
	e = errno;

	free(o->name);
	free(o);
	errno = e;
	return rv;
}

void
ts_bundle_out_abort(struct ts_bundle_out *o)
{
	if (o == NULL)
		return;
	o->ops->abort(o->ctx);
	free(o->name);
	free(o);
}

/* ---- a directory ---- */

struct dirout {
	char	*dir;		/* the target directory */
	char	*tmp;		/* the temporary directory, until commit */
	bool	 inplace;
};

static struct ts_sink *
dir_file(void *ctx, const char *fname)
{
	struct dirout *o = ctx;
	char *p = ts_xasprintf("%s/%s", o->tmp, fname);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	struct ts_sink *k;

	free(p);
	if (fd == -1)
		return NULL;
	p = ts_xasprintf("%s/%s", o->dir, fname);
	k = ts_sink_open_fd(fd, p, true);
	free(p);
	return k;
}

static void
dir_free(struct dirout *o)
{
	if (o->tmp != NULL) {
		ts_rmflat(o->tmp);
		ts_cleanup_remove(o->tmp);
		free(o->tmp);
	}
	free(o->dir);
	free(o);
}

/* Move the new bundle into place, replacing an old one (-f). */
static int
dir_replace(struct dirout *o)
{
	struct stat st;
	char *old = NULL;
	int rv, e;

	if (lstat(o->dir, &st) == 0) {
		char *parent = ts_dirname(o->dir);

		old = ts_xasprintf("%s/.%s.old.XXXXXX", parent,
		    ts_basename(o->dir));
		free(parent);
		if (mkdtemp(old) == NULL || rename(o->dir, old) != 0) {
			e = errno;
			rmdir(old);
			free(old);
			errno = e;
			return -1;
		}
	}
	rv = rename(o->tmp, o->dir);
	e = errno;
	if (old != NULL) {
		if (rv == 0) {
			if (S_ISDIR(st.st_mode))
				ts_rmflat(old);
			else
				unlink(old);
		} else
			rename(old, o->dir);
		free(old);
	}
	errno = e;
	return rv;
}

/* Rewriting in place: rename each file over its old self, the metadata
 * last; other files of the bundle stay. */
static int
dir_replace_files(struct dirout *o)
{
	static const char suffix[] = "_metadata.json";
	struct dirent *e;
	char from[4096], to[4096];
	int pass, rv = 0;
	DIR *d;

	for (pass = 0; pass < 2 && rv == 0; pass++) {
		if ((d = opendir(o->tmp)) == NULL)
			return -1;
		while ((e = readdir(d)) != NULL) {
			size_t n = strlen(e->d_name);
			bool meta = n >= sizeof(suffix) - 1 &&
			    strcmp(e->d_name + n - (sizeof(suffix) - 1),
			    suffix) == 0;

			if (e->d_name[0] == '.' || meta != (pass == 1))
				continue;
			snprintf(from, sizeof(from), "%s/%s", o->tmp,
			    e->d_name);
			snprintf(to, sizeof(to), "%s/%s", o->dir, e->d_name);
			if (rename(from, to) != 0) {
				rv = -1;
				break;
			}
		}
		closedir(d);
	}
	if (rv == 0)
		rmdir(o->tmp);
	return rv;
}

static int
dir_commit(void *ctx)
{
	struct dirout *o = ctx;
	int rv = o->inplace ? dir_replace_files(o) : dir_replace(o), e = errno;

	if (rv == 0) {
		ts_cleanup_remove(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	dir_free(o);
	errno = e;
	return rv;
}

static void
dir_abort(void *ctx)
{
	dir_free(ctx);
}

static const struct ts_bundle_out_ops dir_ops = { dir_file, dir_commit,
    dir_abort };

/* ---- nowhere: /dev/null ---- */

static int
null_write(void *ctx, const void *buf, size_t n)
{
	return 0;
}

static int
null_commit(void *ctx)
{
	return 0;
}

static void
null_abort(void *ctx)
{
}

static const struct ts_sink_ops null_sink_ops = { null_write, null_commit,
    null_abort };

static struct ts_sink *
null_file(void *ctx, const char *fname)
{
	char *p = ts_xasprintf("%s/%s", (const char *)ctx, fname);
	struct ts_sink *k = ts_sink_new(&null_sink_ops, NULL, p);

	free(p);
	return k;
}

static int
null_out_commit(void *ctx)
{
	free(ctx);
	return 0;
}

static void
null_out_abort(void *ctx)
{
	free(ctx);
}

static const struct ts_bundle_out_ops null_ops = { null_file,
    null_out_commit, null_out_abort };

static bool
is_devnull(const struct stat *st)
{
	struct stat ns;

	return S_ISCHR(st->st_mode) && stat("/dev/null", &ns) == 0 &&
	    st->st_rdev == ns.st_rdev;
}

/* ---- where a new bundle may go ---- */

static bool
is_empty_dir(const char *dir)
{
	struct dirent *e;
	bool empty = true;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return false;
	while (empty && (e = readdir(d)) != NULL)
		empty = strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0;
	closedir(d);
	return empty;
}

/*
 * May a new bundle take the place of dir?  Nothing there, or an empty
 * directory, which holds nothing to lose; a bundle or a file with -f;
 * never another directory (ENOTEMPTY) or a device (ENOTDIR: it would be
 * renamed away).
 */
static int
may_replace(const char *dir, unsigned flags)
{
	struct stat st, ls;
	char *m;
	bool bundle;

	if (lstat(dir, &ls) != 0)
		return 0;
	if (stat(dir, &st) != 0)
		st = ls;	/* a dangling link: replaced like a file */
	if (S_ISDIR(st.st_mode)) {
		if (is_empty_dir(dir))
			return 0;
		m = ts_xasprintf("%s/%s_metadata.json", dir,
		    ts_basename(dir));
		bundle = access(m, F_OK) == 0;
		free(m);
		if (!bundle)
			errno = ENOTEMPTY;
		else if (!(flags & TS_SINK_FORCE))
			errno = EEXIST;
		return bundle && (flags & TS_SINK_FORCE) ? 0 : -1;
	}
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	if (!(flags & TS_SINK_FORCE)) {
		errno = EEXIST;
		return -1;
	}
	return 0;
}

struct ts_bundle_out *
ts_bundle_out_open(const char *dir, unsigned flags)
{
	struct dirout *o;
	struct stat st;
	char *parent, *name;
	struct ts_bundle_out *bo;
	int e;

	/* A bundle written nowhere: every file is made and dropped. */
	if (stat(dir, &st) == 0 && is_devnull(&st))
		return ts_bundle_out_new(&null_ops, ts_xstrdup(dir), "null");
	if (!(flags & TS_BUNDLE_OUT_INPLACE) && may_replace(dir, flags) != 0)
		return NULL;
	o = ts_xcalloc(1, sizeof(*o));
	o->inplace = (flags & TS_BUNDLE_OUT_INPLACE) != 0;
	parent = ts_dirname(dir);
	o->tmp = ts_xasprintf("%s/.%s.XXXXXX", parent, ts_basename(dir));
	free(parent);
	ts_cleanup_add(o->tmp, true);
	if (mkdtemp(o->tmp) == NULL) {
		e = errno;
		ts_cleanup_remove(o->tmp);
		free(o->tmp);
		free(o);
		errno = e;
		return NULL;
	}
	chmod(o->tmp, 0755 & ~ts_umask());
	o->dir = ts_xstrdup(dir);
	name = ts_xstrdup(ts_basename(dir));
	bo = ts_bundle_out_new(&dir_ops, o, name);
	free(name);
	return bo;
}
