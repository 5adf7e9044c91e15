/*
 * bundle.c - a bundle: its name, its metadata, and its files found
 * through a namespace (SPEC B1-B3), so that the checks and the tools read
 * a bundle in a directory or one inside an archive alike.  This file
 * holds the bundle and the namespace of a directory.
 *
 * A namespace read as a stream (an archive's members, in order) cannot
 * say whether a file is there before it has come by: its stat fails with
 * EAGAIN.  The checks of B1-B3 that need such an answer wait in a list
 * until ts_bundle_settle, which asks again once the namespace has read
 * on to the end of the bundle.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "model/model.h"
#include "util/path.h"
#include "util/xalloc.h"

static const char META_SUFFIX[] = "_metadata.json";

struct ts_bundle {
	const struct ts_bundle_ns_ops *ops;
	void		*ctx;
	char		*where;		/* for messages: the directory */
	char		*name;
	char		*meta_file;	/* NAME_metadata.json */
	char		*meta_path;	/* ... for messages */
	char		*text, *binary;	/* file names; NULL when unusable */
	struct ts_meta	 meta;
	bool		 meta_ok;	/* metadata parsed as an object */
	bool		 upgrade;	/* ... upgraded first (upgrade.c) */
	struct pending	*wait;		/* checks waiting for the stream */
	size_t		 nwait;
};

/* A check of B1-B3 that waits until a streamed namespace has read on. */
enum { W_DATA, W_README, W_NOREADME, W_OTHER, W_UNNAMED };
struct pending {
	int	 what;		/* W_* */
	char	*key;		/* of 'files' (W_DATA, W_OTHER) */
	char	*fname;
};

/* ---- the namespace of a directory ---- */

/*
 * A directory is read through one descriptor, opened once: a bundle
 * replaced meanwhile (exchanged with its new self, io/bundle_out.c) is
 * then read whole as it was, never its metadata from one and its data
 * from the other.  The descriptor holds a shared flock, which the
 * writer that replaced the directory takes exclusively before it removes
 * it (ts_rmtree_held): a reader finishes with the old bundle first.
 * Where no descriptor can be had (a directory that may be searched but
 * not read, no descriptor left), files are found by path as before.
 */
struct dirns {
	char	*dir;
	char	*shown;		/* the directory in messages; NULL: dir */
	int	 fd;		/* the directory, or -1 */
};

static char *
joinpath(const char *dir, const char *file)
{
	size_t n = strlen(dir);

	return ts_xasprintf("%s%s%s", dir, n > 0 && dir[n - 1] == '/' ? "" :
	    "/", file);
}

/* The directory at path, held (see above), or -1. */
static int
dir_hold(const char *path)
{
	struct stat a, b;
	int fd;

	for (;;) {
		if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
		    -1)
			return -1;
		while (flock(fd, LOCK_SH) != 0 && errno == EINTR)
			;
		/* Replaced between the open and the lock, and maybe
		 * removed since: the new one is the bundle. */
		if (fstat(fd, &a) != 0 || stat(path, &b) != 0 ||
		    (a.st_dev == b.st_dev && a.st_ino == b.st_ino))
			return fd;
		close(fd);
	}
}

static struct dirns *
dirns_new(const char *dir, const char *shown)
{
	struct dirns *n = ts_xcalloc(1, sizeof(*n));

	n->dir = ts_xstrdup(dir);
	n->shown = shown != NULL ? ts_xstrdup(shown) : NULL;
	n->fd = dir_hold(dir);
	return n;
}

/* A link is described by what it points to, and said to be one; a
 * link to nothing is there, and no regular file; a loop of links is the
 * system's error (ELOOP). */
static int
dir_stat(void *ctx, const char *name, struct ts_file_stat *fs)
{
	struct dirns *n = ctx;
	char *p = n->fd == -1 ? joinpath(n->dir, name) : NULL;
	struct stat st;
	int rv, e;

	rv = p != NULL ? lstat(p, &st) : fstatat(n->fd, name, &st,
	    AT_SYMLINK_NOFOLLOW);
	fs->link = rv == 0 && S_ISLNK(st.st_mode);
	if (fs->link && (p != NULL ? stat(p, &st) : fstatat(n->fd, name,
	    &st, 0)) != 0) {
		if (errno == ENOENT)
			st.st_mode = 0;
		else
			rv = -1;	/* a loop of links: the system's error */
	}
	e = errno;
	free(p);
	if (rv != 0) {
		errno = e;
		return -1;
	}
	fs->regular = S_ISREG(st.st_mode);
	fs->dir = S_ISDIR(st.st_mode);
	fs->size = fs->regular ? (int64_t)st.st_size : -1;
	return 0;
}

static struct ts_source *
dir_open(void *ctx, const char *name)
{
	struct dirns *n = ctx;
	char *p = joinpath(n->dir, name);
	struct ts_source *s = NULL;
	int fd, e;

	if (n->fd == -1)
		s = ts_source_open_file(p);
	else if ((fd = openat(n->fd, name, O_RDONLY | O_CLOEXEC)) != -1 &&
	    (s = ts_source_open_fd(fd, p, true)) == NULL) {
		e = errno;
		close(fd);
		errno = e;
	}
	e = errno;
	free(p);
	errno = e;
	return s;
}

static char *
dir_path(void *ctx, const char *name)
{
	struct dirns *n = ctx;

	return joinpath(n->shown != NULL ? n->shown : n->dir, name);
}

static int
dir_list(void *ctx, int (*fn)(const char *, void *), void *arg)
{
	struct dirns *n = ctx;
	struct dirent *e;
	DIR *d;
	int fd, rv = 0;

	if (n->fd == -1)
		d = opendir(n->dir);
	else if ((fd = openat(n->fd, ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		return -1;
	else if ((d = fdopendir(fd)) == NULL)
		close(fd);
	if (d == NULL)
		return -1;
	while (rv == 0 && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			rv = fn(e->d_name, arg);
	closedir(d);
	return rv;
}

static void
dir_free(void *ctx)
{
	struct dirns *n = ctx;

	if (n->fd != -1)
		close(n->fd);
	free(n->dir);
	free(n->shown);
	free(n);
}

static const struct ts_bundle_ns_ops dir_ops = { dir_stat, dir_open,
    dir_path, dir_list, dir_free, NULL };

/* ---- the bundle ---- */

/* The last component of a directory path, trailing slashes ignored. */
static char *
lastcomp(const char *dir)
{
	char *t = ts_xstrdup(dir), *s, *r;
	size_t n = strlen(t);

	while (n > 1 && t[n - 1] == '/')
		t[--n] = '\0';
	s = strrchr(t, '/');
	s = s ? s + 1 : t;
	if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0 || *s == '\0') {
		char *rp = realpath(dir, NULL);

		free(t);
		if (rp == NULL)
			return ts_xstrdup("");
		s = strrchr(rp, '/');
		r = ts_xstrdup(s ? s + 1 : rp);
		free(rp);
		return r;
	}
	r = ts_xstrdup(s);
	free(t);
	return r;
}

/* Is name there, and what is it?  Errors other than "not there" are
 * the system failing us, reported as such. */
static bool
there(struct ts_bundle *bd, const char *name, struct ts_file_stat *fs)
{
	return ts_bundle_stat(bd, name, fs) == 0;
}

/* The same, or -1 when a streamed namespace cannot tell yet: the check
 * then waits (ts_bundle_settle). */
static int
there_yet(struct ts_bundle *bd, int what, const char *key, const char *name,
    struct ts_file_stat *fs)
{
	struct pending *p;

	if (ts_bundle_stat(bd, name, fs) == 0)
		return 1;
	if (errno != EAGAIN)
		return 0;
	bd->wait = ts_xreallocarray(bd->wait, bd->nwait + 1,
	    sizeof(*bd->wait));
	p = &bd->wait[bd->nwait++];
	p->what = what;
	p->key = key ? ts_xstrdup(key) : NULL;
	p->fname = ts_xstrdup(name);
	return -1;
}

/* B3: a file named in 'files' that is not there. */
static void
named_missing(struct ts_bundle *bd, const char *key, const char *fname,
    bool found, struct ts_diags *d)
{
	ts_diag(d, TS_SEV_ERROR, bd->meta_path, 0, 0, TS_RULE_B3,
	    "'files.%s' names '%s', which %s", key, fname, found ?
	    "is not a regular file" : "does not exist");
}

/* A data file named in 'files': must exist, and be NAME.tns(b) (B2).
 * When a streamed namespace cannot tell yet whether it is there, it is
 * taken to be, and ts_bundle_settle says otherwise. */
static char *
datafile(struct ts_bundle *bd, const char *fname, const char *ext,
    const char *key, struct ts_diags *d)
{
	struct ts_file_stat fs;
	char *want;
	int ok;

	if (fname == NULL)
		return NULL;
	ok = there_yet(bd, W_DATA, key, fname, &fs);
	if (ok == 0 || (ok == 1 && !fs.regular)) {
		named_missing(bd, key, fname, ok == 1, d);
		return NULL;
	}
	want = ts_xasprintf("%s%s", bd->name, ext);
	if (strcmp(want, fname) != 0)
		ts_diag(d, TS_SEV_ERROR, bd->meta_path, 0, 0, TS_RULE_B2,
		    "'files.%s' is '%s'; the bundle's %s file must be '%s'",
		    key, fname, key, want);
	free(want);
	return ts_xstrdup(fname);
}

static void
no_readme(struct ts_bundle *bd, struct ts_diags *d)
{
	ts_diag(d, TS_SEV_WARNING, bd->meta_path, 0, 0, TS_RULE_B1,
	    "the bundle has no README.md");
}

static void
unnamed(struct ts_bundle *bd, const char *fn, struct ts_diags *d)
{
	ts_diag(d, TS_SEV_WARNING, bd->meta_path, 0, 0, TS_RULE_B3,
	    "'%s' is in the bundle but 'files' does not name it", fn);
}

/* Read the metadata and find the files (B1-B3). */
static void
load(struct ts_bundle *bd, struct ts_diags *d)
{
	struct ts_meta *m = &bd->meta;
	struct ts_file_stat fs;
	struct ts_source *src;

	if (ts_bundle_stat(bd, bd->meta_file, &fs) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			ts_diag(d, TS_SEV_ERROR, bd->meta_path, 0, 0,
			    TS_RULE_B1, "no metadata file: a bundle '%s' "
			    "holds '%s%s'", bd->name, bd->name, META_SUFFIX);
		else
			ts_diag_io(d, bd->meta_path, "%s", strerror(errno));
		return;
	}
	/* Never open what is not a file: a FIFO would block. */
	if (!fs.regular) {
		ts_diag_io(d, bd->meta_path, "not a regular file");
		return;
	}
	if ((src = bd->ops->open(bd->ctx, bd->meta_file)) == NULL) {
		ts_diag_io(d, bd->meta_path, "cannot open: %s",
		    strerror(errno));
		return;
	}
	ts_source_set_name(src, bd->meta_path);
	if ((bd->upgrade ? ts_meta_read_upgraded(m, src, d) :
	    ts_meta_read(m, src, d)) != 0) {
		ts_source_close(src);
		return;
	}
	ts_source_close(src);
	bd->meta_ok = true;
	if (m->name != NULL && strcmp(m->name, bd->name) != 0)
		ts_diag(d, TS_SEV_ERROR, bd->meta_path, 0, 0, TS_RULE_B2,
		    "'name' is '%s' but the bundle is '%s'", m->name, bd->name);
	bd->text = datafile(bd, m->f_text, ".tns", "text", d);
	bd->binary = datafile(bd, m->f_binary, ".tnsb", "binary", d);
	if (m->f_readme != NULL) {
		if (there_yet(bd, W_README, "readme", m->f_readme, &fs) == 0)
			named_missing(bd, "readme", m->f_readme, false, d);
	} else if (there_yet(bd, W_NOREADME, NULL, "README.md", &fs) == 0)
		no_readme(bd, d);
	if (m->f_other != NULL) {
		const char *k;
		json_t *v;

		json_object_foreach((json_t *)m->f_other, k, v) {
			const char *f = json_string_value(v);

			if (f == NULL || *f == '\0')
				continue;
			if (there_yet(bd, W_OTHER, k, f, &fs) == 0)
				named_missing(bd, k, f, false, d);
		}
	}
	/* Data files that are there but not named (B3: a warning). */
	if ((m->have & TS_HAVE_FILES) && bd->name[0] != '\0') {
		static const char *const exts[] = { ".tns", ".tnsb" };

		for (int i = 0; i < 2; i++) {
			const char *named = i ? m->f_binary : m->f_text;
			char *fn = ts_xasprintf("%s%s", bd->name, exts[i]);

			if (named == NULL && there_yet(bd, W_UNNAMED, NULL, fn,
			    &fs) == 1)
				unnamed(bd, fn, d);
			free(fn);
		}
	}
}

bool
ts_bundle_streams(const struct ts_bundle *bd)
{
	return bd->ops->settle != NULL;
}

static void
settle(struct ts_bundle *bd, struct ts_diags *d)
{
	struct ts_file_stat fs;
	size_t i;
	bool ok;

	if (bd->ops->settle == NULL)
		return;
	if (bd->ops->settle(bd->ctx) != 0)
		ts_diag_io(d, bd->where, "%s", strerror(errno));
	for (i = 0; i < bd->nwait; i++) {
		struct pending *p = &bd->wait[i];

		ok = there(bd, p->fname, &fs);
		switch (p->what) {
		case W_DATA:
			if (!ok || !fs.regular) {
				named_missing(bd, p->key, p->fname, ok, d);
				if (bd->text && strcmp(bd->text, p->fname) == 0) {
					free(bd->text);
					bd->text = NULL;
				}
				if (bd->binary &&
				    strcmp(bd->binary, p->fname) == 0) {
					free(bd->binary);
					bd->binary = NULL;
				}
			}
			break;
		case W_README:
		case W_OTHER:
			if (!ok)
				named_missing(bd, p->key, p->fname, false, d);
			break;
		case W_NOREADME:
			if (!ok)
				no_readme(bd, d);
			break;
		case W_UNNAMED:
			if (ok)
				unnamed(bd, p->fname, d);
			break;
		}
		free(p->key);
		free(p->fname);
	}
	free(bd->wait);
	bd->wait = NULL;
	bd->nwait = 0;
}

int
ts_bundle_settle(struct ts_bundle *bd, struct ts_diags *d)
{
	size_t errs = ts_diags_errors(d);

	settle(bd, d);
	return ts_diags_errors(d) > errs ? -1 : 0;
}

static struct ts_bundle *
open_ns(const struct ts_bundle_ns_ops *ops, void *ctx, const char *name,
    const char *where, bool upgrade, struct ts_diags *d)
{
	struct ts_bundle *bd = ts_xcalloc(1, sizeof(*bd));

	ts_meta_init(&bd->meta);
	bd->ops = ops;
	bd->ctx = ctx;
	bd->where = ts_xstrdup(where);
	bd->name = ts_xstrdup(name);
	bd->meta_file = ts_xasprintf("%s%s", name, META_SUFFIX);
	bd->meta_path = ops->path(ctx, bd->meta_file);
	bd->upgrade = upgrade;
	load(bd, d);
	return bd;
}

struct ts_bundle *
ts_bundle_open_ns(const struct ts_bundle_ns_ops *ops, void *ctx,
    const char *name, const char *where, struct ts_diags *d)
{
	return open_ns(ops, ctx, name, where, false, d);
}

static struct ts_bundle *
open_path(const char *path, bool upgrade, struct ts_diags *d)
{
	struct ts_bundle *bd;
	struct dirns *ns;
	struct stat st;
	char *dir, *name;
	size_t bl;

	if (stat(path, &st) == -1) {
		/* Nothing there is a missing operand, not bad data: the
		 * caller's typo, or the system failing us; or a rewrite
		 * stopped while the bundle was moved aside (io/lock.c). */
		if (errno == ENOENT && ts_lock_interrupted(path))
			ts_diag_io(d, path, "not there: a rewrite of the "
			    "bundle was interrupted; its next writer (ts-sort "
			    "-i, ts-convert -f) puts it back");
		else
			ts_diag_io(d, path, "%s", strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		dir = ts_xstrdup(path);
		name = lastcomp(path);
	} else {
		const char *base = ts_basename(path);

		bl = strlen(base);
		if (bl <= sizeof(META_SUFFIX) - 1 || strcmp(base + bl -
		    (sizeof(META_SUFFIX) - 1), META_SUFFIX) != 0) {
			ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_B1,
			    "not a bundle: give the bundle directory or its "
			    "NAME_metadata.json file");
			return NULL;
		}
		dir = base == path ? ts_xstrdup(".") :
		    ts_xasprintf("%.*s", (int)(base - path), path);
		name = ts_xasprintf("%.*s", (int)(bl -
		    (sizeof(META_SUFFIX) - 1)), base);
		{
			char *dn = lastcomp(dir);

			if (strcmp(dn, name) != 0)
				ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_B2,
				    "the metadata file is for '%s' but the "
				    "folder is '%s'", name, dn);
			free(dn);
		}
	}
	ns = dirns_new(dir, NULL);
	free(dir);
	bd = open_ns(&dir_ops, ns, name, ns->dir, upgrade, d);
	/* The metadata file given by its own path keeps that path. */
	if (!S_ISDIR(st.st_mode)) {
		free(bd->meta_path);
		bd->meta_path = ts_xstrdup(path);
	}
	free(name);
	return bd;
}

struct ts_bundle *
ts_bundle_open(const char *path, struct ts_diags *d)
{
	return open_path(path, false, d);
}

struct ts_bundle *
ts_bundle_open_upgraded(const char *path, struct ts_diags *d)
{
	return open_path(path, true, d);
}

struct ts_bundle *
ts_bundle_open_dir(const char *dir, const char *name, const char *shown,
    struct ts_diags *d)
{
	struct dirns *ns = dirns_new(dir, shown);

	return ts_bundle_open_ns(&dir_ops, ns, name, shown != NULL ? shown :
	    dir, d);
}

void
ts_bundle_unhold(struct ts_bundle *bd)
{
	struct dirns *n;

	if (bd == NULL || bd->ops != &dir_ops)
		return;
	n = bd->ctx;
	if (n->fd != -1)
		close(n->fd);
	n->fd = -1;
}

void
ts_bundle_free(struct ts_bundle *bd)
{
	size_t i;

	if (bd == NULL)
		return;
	for (i = 0; i < bd->nwait; i++) {
		free(bd->wait[i].key);
		free(bd->wait[i].fname);
	}
	free(bd->wait);
	bd->ops->free(bd->ctx);
	free(bd->where);
	free(bd->name);
	free(bd->meta_file);
	free(bd->meta_path);
	free(bd->text);
	free(bd->binary);
	ts_meta_free(&bd->meta);
	free(bd);
}

const char *
ts_bundle_name(const struct ts_bundle *bd)
{
	return bd->name;
}

const char *
ts_bundle_where(const struct ts_bundle *bd)
{
	return bd->where;
}

struct ts_meta *
ts_bundle_meta(struct ts_bundle *bd)
{
	return bd->meta_ok ? &bd->meta : NULL;
}

const char *
ts_bundle_meta_path(const struct ts_bundle *bd)
{
	return bd->meta_path;
}

const char *
ts_bundle_data_file(const struct ts_bundle *bd, enum ts_kind kind)
{
	return kind == TS_KIND_TEXT ? bd->text : kind == TS_KIND_BINARY ?
	    bd->binary : NULL;
}

char *
ts_bundle_path(const struct ts_bundle *bd, const char *fname)
{
	return bd->ops->path(bd->ctx, fname);
}

struct ts_source *
ts_bundle_open_file(struct ts_bundle *bd, const char *fname)
{
	struct ts_source *s = bd->ops->open(bd->ctx, fname);
	char *p;

	if (s != NULL) {
		p = ts_bundle_path(bd, fname);
		ts_source_set_name(s, p);
		free(p);
	}
	return s;
}

int
ts_bundle_stat(struct ts_bundle *bd, const char *fname,
    struct ts_file_stat *fs)
{
	/* A namespace of the caller's may not know the newer fields. */
	memset(fs, 0, sizeof(*fs));
	return bd->ops->stat(bd->ctx, fname, fs);
}

int
ts_bundle_list(struct ts_bundle *bd, int (*fn)(const char *, void *),
    void *arg)
{
	return bd->ops->list(bd->ctx, fn, arg);
}
